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


def test_rad_per_type_on_one_common_ara() -> None:
    """Fig. 3 compares added-document types on the same questions: the items every type was
    made for (here q3 has no GenADV passage, so it leaves both types' ARA), with n."""
    from rattle.metrics.ralm import ralm_metrics

    def r(item: str, condition: str, correct: bool) -> dict:  # type: ignore[type-arg]
        return {"dataset": "d", "item_id": item, "correct": correct, "labels": {"em": 0, "f1": 0},
                "group": {"prompt": "normal", "condition": condition, "answerable": True}}

    records = [r("q1", "clean", True), r("q2", "clean", True), r("q3", "clean", True),
               r("q1", "genadv", False), r("q2", "genadv", True),
               r("q1", "random", True), r("q2", "random", True), r("q3", "random", False)]
    common = {m.group["condition"]: m for m in ralm_metrics("adversarial", records)
              if m.name == "rad"}
    assert common["genadv"].value == 0.5 and common["genadv"].n == 2
    assert common["random"].value == 1.0 and common["random"].n == 2  # q3 left out
    own = {m.group["condition"]: m for m in ralm_metrics("adversarial", records,
                                                          rad_population="own")
           if m.name == "rad"}
    assert own["random"].value == 2 / 3 and own["random"].n == 3
