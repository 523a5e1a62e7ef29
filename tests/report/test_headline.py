"""Headline cards: baseline, worst attack, largest paired drop, gates; empty sections left out."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rattle.metrics.core import MetricValue
from rattle.report.headline import headlines_of, paired_drop
from rattle.report.html import write_report


def rec(item: str, attack: str, correct: bool | None, level: str = "",
        part: str = "") -> dict[str, Any]:
    return {"case_id": f"{item}/{attack}", "part": part, "dataset": "d", "item_id": item,
            "attack": attack, "group": {"attack": attack, "level": level}, "edits": [],
            "question": "q", "response": "r", "parsed": None, "gold": None,
            "correct": correct, "status": "parsed" if correct is not None else "unparsed"}


def outcomes(item: str, attack: str, hits: int, n: int, level: str = "") -> list[dict[str, Any]]:
    return [rec(item, attack, i < hits, level) for i in range(n)]


RECORDS = [
    # baseline 5/6; chars.delete 3/6 on the same items; visual 50% 2/6, one item (D) without
    # a baseline, so its paired drop is on A and B only: 3/4 - 2/4.
    *outcomes("A", "original", 2, 2), *outcomes("B", "original", 1, 2),
    *outcomes("C", "original", 2, 2),
    *outcomes("A", "chars.delete", 1, 2), *outcomes("B", "chars.delete", 0, 2),
    *outcomes("C", "chars.delete", 2, 2),
    *outcomes("A", "visual.homoglyph", 2, 2, "50%"), *outcomes("B", "visual.homoglyph", 0, 2, "50%"),
    *outcomes("D", "visual.homoglyph", 0, 2, "50%"),
    rec("C", "chars.delete", None),
]


def test_baseline_worst_attack_and_largest_drop() -> None:
    [h] = headlines_of(RECORDS, "rcc.robustness")
    assert (h.part, h.records, h.unmeasured) == ("rcc.robustness", 19, 1)
    assert h.baseline is not None and h.baseline.value == pytest.approx(5 / 6)
    assert (h.baseline.n, h.baseline.items) == (6, 3)
    assert h.worst is not None and h.worst.label == "visual.homoglyph 50%"
    assert h.worst.value == pytest.approx(2 / 6)
    # the largest drop is not the worst attack's: chars.delete loses 1/3 on paired items,
    # visual 50% only 1/4 on the items that have a baseline
    assert h.drop is not None and h.drop.label == "chars.delete"
    assert h.drop.value == pytest.approx(1 / 3) and h.drop.items == 3
    assert h.drop.ci_low is not None and h.drop.ci_high is not None
    assert h.drop.ci_low <= 1 / 3 <= h.drop.ci_high
    assert [v.label for v in h.variants] == ["chars.delete", "visual.homoglyph 50%"]


def test_paired_drop_interval() -> None:
    same = {k: [2, 2] for k in "ABCDE"}
    half = {k: [1, 2] for k in "ABCDE"}
    d = paired_drop("x", same, half)
    assert d is not None and (d.value, d.ci_low, d.ci_high, d.items) == (0.5, 0.5, 0.5, 5)
    spread = paired_drop("x", same, {"A": [0, 2], "B": [2, 2], "C": [1, 2], "D": [2, 2]})
    assert spread is not None and spread.value == pytest.approx(1 - 5 / 8)
    assert spread.ci_low is not None and spread.ci_high is not None
    assert 0 <= spread.ci_low < spread.value < spread.ci_high <= 1
    assert paired_drop("x", same, {"Z": [0, 1]}) is None  # nothing to pair


def page(records: list[dict[str, Any]], metrics: list[MetricValue],
         gates: list[dict[str, Any]] | None = None) -> str:
    return write_report({"suite": "rcc.robustness", "model": "m", "records": len(records),
                         "unmeasured": 1}, records, metrics, gates or [])


def test_cards_come_first_and_carry_the_gates() -> None:
    metrics = [MetricValue("accuracy", 5 / 6, 0.5, 1.0, 6, 0, {"dataset": "d", "attack": "original"})]
    gates = [{"gate": "accuracy<0.9", "passed": False, "reason": "accuracy = 0.833 < 0.9",
              "parts": ["rcc.robustness"]},
             {"gate": "asr>0.3", "passed": False, "reason": "no metric row matches it", "parts": []}]
    html = page(RECORDS, metrics, gates)
    body = html[html.index("<body>"):]
    order = [m.group(1) for m in re.finditer(r"<(?:section|details) [^>]*id='([^']+)'", body)]
    assert order == ["headline", "part-0", "case-view", "run-details"]
    cards = body[body.index("id='headline'"):body.index("id='part-0'")]
    assert cards.count("<article class='card'>") == 2  # the part, and the gate matching none
    assert "<span class='big'>83.3%</span>" in cards
    assert "visual.homoglyph 50%: <span class='big'>33.3%</span>" in cards
    assert "<span class='big'>−33.3 points</span> on chars.delete" in cards
    assert "paired over 3 items" in cards
    assert "FAILED: <code>accuracy&lt;0.9</code>" in cards and "<h2>Gates</h2>" in cards
    assert "18 cases" not in cards and "19 cases, 1 unmeasured" in cards


def test_sections_with_nothing_to_show_are_left_out() -> None:
    unmeasured = [MetricValue("asr", None, None, None, 0, 3, {}),
                  MetricValue("acc_before", None, None, None, 0, 3, {"form": "declarative"})]
    html = page([], unmeasured)
    assert "Factoid Table" not in html and "<h3>Metrics</h3>" not in html
    assert "<h3>Charts</h3>" not in html and "id='case-view'" not in html
    assert "<h2>rcc.robustness</h2>" not in html  # the part had nothing to show
    measured = page(RECORDS, [MetricValue("asr", 0.25, 0.1, 0.4, 8, 0, {}),
                              MetricValue("acc_after", 0.5, 0.3, 0.7, 8, 0, {})])
    assert "Factoid Table 1" in measured and "<h3>Charts</h3>" in measured


def test_parts_without_attacks_list_their_conditions() -> None:
    records = [{**rec("A", "original", c), "group": {"condition": cond}}
               for cond, c in (("closed_book", False), ("gold", True))]
    [h] = headlines_of(records, "qa.context")
    assert h.worst is None and h.drop is None
    assert [(s.label, s.value) for s in h.by_condition] == [("closed_book", 0.0), ("gold", 1.0)]
    html = write_report({"suite": "qa.context"}, records, [])
    assert "<dt>closed_book</dt>" in html and "<dt>baseline</dt>" not in html
