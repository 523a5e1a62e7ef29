"""ER, ACR, consistency and RTI against hand-computed values on tiny tables."""

import pytest

from rattle.metrics.core import bootstrap_ci, rate
from rattle.metrics.rcc import (
    answer_change_rate,
    consistency_std,
    error_rate,
    first_option_rate,
    rti,
    rti_value,
)


def test_error_rate_ignores_unmeasured() -> None:
    # 5 cases: 2 correct, 2 wrong, 1 unmeasured -> ER = 2/4
    m = error_rate([("i1", True), ("i1", False), ("i2", True), ("i3", False), ("i3", None)])
    assert m.value == pytest.approx(0.5)
    assert (m.n, m.n_unmeasured, m.name) == (4, 1, "er")
    assert m.ci_low is not None and m.ci_high is not None
    assert 0 <= m.ci_low <= 0.5 <= m.ci_high <= 1


def test_answer_change_rate() -> None:
    pairs = [("i1", 0, 0), ("i1", 1, 2), ("i2", 3, 3), ("i3", 0, 1), ("i4", None, 1), ("i5", 1, None)]
    m = answer_change_rate(pairs)
    assert m.value == pytest.approx(2 / 4) and m.n == 4 and m.n_unmeasured == 2


def test_consistency_std_is_population_std() -> None:
    # accuracies 0.5, 0.7, 0.6 -> mean 0.6, var = (0.01+0.01+0)/3
    m = consistency_std({"t0": 0.5, "t1": 0.7, "t2": 0.6, "t3": None})
    assert m.value == pytest.approx((0.02 / 3) ** 0.5)
    assert m.n == 3


def test_first_option_rate() -> None:
    m = first_option_rate([("a", 0), ("a", 2), ("b", 0), ("c", None)])
    assert m.value == pytest.approx(2 / 3)


def test_rti_algorithm_1() -> None:
    # changes first at 0.3
    assert rti_value("A", {0.1: "A", 0.2: "A", 0.3: "B", 0.4: "A"}) == 0.3
    # never changes -> 1.0
    assert rti_value("A", {r / 10: "A" for r in range(1, 11)}) == 1.0
    # unmeasured answers are skipped, not counted as changes
    assert rti_value("A", {0.1: None, 0.2: "C"}) == 0.2
    assert rti_value(None, {0.1: "A"}) is None
    # RTI = mean over (item, question): (0.3 + 1.0 + 0.2) / 3 = 0.5
    m = rti([("i1", 0.3), ("i2", 1.0), ("i3", 0.2), ("i4", None)])
    assert m.value == pytest.approx(0.5) and m.n == 3 and m.n_unmeasured == 1


def test_bootstrap_resamples_clusters() -> None:
    lo, hi = bootstrap_ci([1, 0, 1, 1], [1, 1, 1, 1], seed=1)
    assert lo is not None and hi is not None and 0 <= lo <= 0.75 <= hi <= 1
    assert bootstrap_ci([], []) == (None, None)
    # All clusters identical -> degenerate interval at the value.
    assert bootstrap_ci([2, 2, 2], [4, 4, 4]) == (0.5, 0.5)


def test_rate_with_nothing_measured() -> None:
    m = rate("accuracy", [("a", None)])
    assert m.value is None and m.n == 0 and m.n_unmeasured == 1


def test_mean_with_clusters() -> None:
    from rattle.metrics.core import mean

    m = mean("f1", [("a", 1.0), ("a", 0.5), ("b", 0.0), ("c", None)])
    assert m.value == pytest.approx(0.5) and m.n == 3 and m.n_unmeasured == 1
    assert m.ci_low is not None and m.ci_high is not None and m.ci_low <= 0.5 <= m.ci_high
