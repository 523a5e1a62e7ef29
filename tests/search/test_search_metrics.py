"""Search metrics on hand tables."""

from __future__ import annotations

import pytest

from rattle.metrics.search import (attack_success_rate, bootstrap_median, pdr, queries_mean,
                                   queries_median, search_metrics)


def test_success_rate_leaves_skipped_searches_out() -> None:
    m = attack_success_rate([("a", "success"), ("a", "failed"), ("b", "skipped"), ("c", "success")])
    assert (m.value, m.n, m.n_unmeasured) == (2 / 3, 3, 0)


def test_queries_mean_and_median() -> None:
    values = [("a", 3.0), ("a", 9.0), ("b", 4.0), ("c", 20.0), ("d", None)]
    mean = queries_mean(values)
    assert (mean.value, mean.n, mean.n_unmeasured) == (9.0, 4, 1)
    med = queries_median(values)
    assert (med.value, med.n) == (6.5, 4)
    assert 3.0 <= med.ci_low <= 6.5 <= med.ci_high <= 20.0  # type: ignore[operator]
    # One cluster: no spread to resample.
    assert bootstrap_median([("a", 1.0), ("a", 3.0)]) == (2.0, 2.0)


def test_pdr_is_one_minus_the_accuracy_ratio() -> None:
    # Clean 4 of 5 right, attacked 1 of 5: PDR = 1 - (1/5)/(4/5) = 0.75; one pair unmeasured.
    pairs = [("a", True, True), ("a", True, False), ("b", True, False), ("c", True, False),
             ("d", False, False), ("e", True, None)]
    m = pdr(pairs)
    assert (m.value, m.n, m.n_unmeasured) == (0.75, 5, 1)
    assert m.ci_low is not None and m.ci_high is not None and m.ci_low <= 0.75 <= m.ci_high <= 1.0
    assert pdr([("a", False, True)]).value is None  # nothing right to drop from


def record(item: str, attack: str, correct: bool | None, answer: int | None,
           **labels: object) -> dict[str, object]:
    return {"part": "", "dataset": "d", "item_id": item, "sub": 0, "attack": attack,
            "group": {"attack": "original" if attack == "original" else "search"},
            "correct": correct, "answer": answer, "status": "", "labels": dict(labels)}


def test_the_search_table() -> None:
    rows = [
        record("a", "original", True, 0), record("a", "search.greedy", False, 1, outcome="success",
                                                  queries=10, perturbed_word_rate=0.1, similarity=0.9),
        record("b", "original", True, 2), record("b", "search.greedy", True, 2, outcome="failed",
                                                  queries=50, perturbed_word_rate=None),
        record("c", "original", False, 3), record("c", "search.greedy", False, 3, outcome="skipped",
                                                   queries=1, perturbed_word_rate=None),
        record("e", "original", True, 0), record("e", "search.greedy", True, 2, outcome="success",
                                                  queries=20, perturbed_word_rate=0.3, similarity=0.95),
    ]
    got = {(m.name, m.group.get("attack") or m.group.get("over")): m.value
           for m in search_metrics(rows)}  # type: ignore[arg-type]
    assert got == {
        ("accuracy", "original"): 0.75, ("accuracy", "search"): 0.5,
        ("attack_success_rate", None): 2 / 3, ("skip_rate", None): 0.25,
        ("queries_mean", "success"): 15.0, ("queries_median", "success"): 15.0,
        ("queries_mean", "attacked"): pytest.approx(80 / 3), ("queries_median", "attacked"): 20.0,
        ("perturbed_word_rate", None): pytest.approx(0.2), ("similarity_mean", None): pytest.approx(0.925),
        # a: wrong after; b: right throughout; c: wrong from the start; e: right but changed.
        ("worst_case_accuracy", None): 0.5, ("any_flip_rate", None): 0.5,
    }
