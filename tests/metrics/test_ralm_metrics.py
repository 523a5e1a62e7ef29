"""RAD, PAR, the unanswerable split and the transition table on hand-computed tables."""

import pytest

from rattle.metrics.ralm import par, rad, transitions, unanswerable_split


def test_rad_counts_only_the_ara() -> None:
    # clean correct: q1 q2 q3 q4 (ARA = 4); still correct after adding: q1 q3 -> RAD = 2/4
    pairs = [("q1", True, True), ("q2", True, False), ("q3", True, True), ("q4", True, False),
             ("q5", False, True), ("q6", False, False), ("q7", True, None)]
    m = rad(pairs)
    assert m.value == pytest.approx(0.5) and m.n == 4 and m.n_unmeasured == 1


def test_par() -> None:
    assert par([("a", True), ("b", False), ("c", False), ("d", None)]).value == pytest.approx(1 / 3)


def test_table4_split() -> None:
    rows = [("a", True, False, True), ("b", False, True, True), ("c", False, False, True),
            ("d", False, False, True), ("e", True, True, False)]
    acc, hallu, cor = unanswerable_split(rows)
    assert (acc.value, hallu.value, cor.value) == (pytest.approx(1 / 4), pytest.approx(2 / 4),
                                                  pytest.approx(1 / 4))
    assert acc.name == "unans_acc" and hallu.name == "hallucination_rate"


def test_transitions() -> None:
    rows = [("a", True, False), ("b", True, True), ("c", False, True), ("d", False, False),
            ("e", False, True)]
    a_a, a_c, a_u = transitions(rows)
    assert (a_a.value, a_c.value, a_u.value) == (pytest.approx(2 / 5), pytest.approx(2 / 5),
                                                 pytest.approx(1 / 5))
    assert a_a.value + a_c.value + a_u.value == pytest.approx(1.0)
