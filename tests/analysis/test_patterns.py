"""Attack-pattern analysis: Eq. 11 frequencies on a hand example, RF importances."""

from __future__ import annotations

import pytest

from rattle.analysis.patterns import analyse, label_words
from rattle.nlp.spacy_pos import pipeline

TEXT = "The cat sat on the mat."


def rec(item: str, attack: str, answer: int, edits: list[list[object]]) -> dict:  # type: ignore[type-arg]
    return {"dataset": "d", "item_id": item, "sub": 0, "attack": attack, "answer": answer,
            "edits": edits}


def test_labels() -> None:
    words = label_words(TEXT, pipeline())
    by = {TEXT[w.start:w.end]: w for w in words}
    assert by["cat"].pos == "NOUN" and by["cat"].phrase == "NP" and by["cat"].position == "middle"
    assert by["The"].position == "head" and by["mat"].position == "tail"
    assert by["sat"].phrase == "VP" and by["on"].phrase == "PP"


def test_eq11_frequency_weights_each_variant_by_its_edit_count() -> None:
    records = [
        rec("i1", "original", 0, []),
        # changed: two edited words (cat, mat) -> each counts 1/2
        rec("i1", "chars.delete", 1, [[4, "cat", "ct"], [19, "mat", "mt"]]),
        # unchanged: contributes nothing to s_l
        rec("i1", "chars.delete", 0, [[8, "sat", "st"]]),
    ]
    out = analyse(records, {"d|i1": TEXT}, pipeline())
    freq = {(m.group["family"], m.group["category"]): m.value for m in out
            if m.name == "pattern_frequency"}
    assert freq[("pos", "NOUN")] == pytest.approx(1.0)
    assert freq[("position", "middle")] == pytest.approx(0.5)
    assert freq[("position", "tail")] == pytest.approx(0.5)
    assert ("pos", "VERB") not in freq
    imp = [m for m in out if m.name == "pattern_importance" and m.group["family"] == "pos"]
    assert imp and sum(m.value or 0 for m in imp) == pytest.approx(1.0)


def test_no_importance_without_both_outcomes() -> None:
    records = [rec("i1", "original", 0, []), rec("i1", "chars.delete", 1, [[4, "cat", "ct"]])]
    out = analyse(records, {"d|i1": TEXT}, pipeline())
    assert not [m for m in out if m.name == "pattern_importance"]
