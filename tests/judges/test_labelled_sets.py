"""The labelled sets and the agreement gate (issue 14, item 4): every extractor agrees with the
hand labels on at least 97% of every present half (dev, and the held-back half once shipped);
RALM detectors are gated in broad mode, the paper mode's agreement is reported beside it."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from rattle.errors import ConfigError, DataError
from rattle.judges import agreement as ag


def test_every_extractor_agrees_on_every_present_half() -> None:
    results = ag.all_agreements()
    halves = {(a.set_name, a.half) for a in results}
    assert {(s, "dev") for s in ag.SETS} <= halves
    low = [f"{a.set_name}/{a.half} ({a.extractor}): {a.accuracy:.3f}, misses {list(a.misses)}"
           for a in results if a.accuracy < ag.GATE]
    assert not low, "agreement below 97%:\n" + "\n".join(low)


@pytest.mark.parametrize("set_name", ag.SETS)
def test_dev_halves_are_complete_and_varied(set_name: str) -> None:
    rows = ag.load_labels(set_name, "dev")
    assert len(rows) == 160
    assert len({r["id"] for r in rows}) == 160
    assert len({r["family"] for r in rows}) >= 8 and len({r["style"] for r in rows}) >= 5
    labels = collections.Counter(r["label"] for r in rows)
    assert labels[None] >= 3 and len(labels) >= 3  # unmeasured replies are part of every set
    if set_name == "choice.yesno":
        for r in rows:
            assert sorted(r["options"]) == ["False", "True", "Unable to determine"]
        assert len({tuple(r["options"]) for r in rows}) == 6  # every display order


def test_paper_mode_agreement_is_reported_beside_broad() -> None:
    # The papers' strings alone miss the other phrasings of abstention and conflict.
    paper = {a.set_name: a for a in ag.all_agreements(modes=("paper",)) if a.half == "dev"
             and a.set_name in ("abstain", "conflict")}
    assert paper["abstain"].extractor == "ralm.abstain@2[paper]"
    assert (paper["abstain"].n, round(paper["abstain"].accuracy * 160)) == (160, 117)
    assert (paper["conflict"].n, round(paper["conflict"].accuracy * 160)) == (160, 128)
    # what the paper mode misses are abstentions/conflicts it reads as answers
    assert set(paper["abstain"].confusion["abstain"]) == {"abstain", "answer"}


def test_score_hand_computed() -> None:
    gold = ["A", "B", None, "A"]
    pred = ["A", "C", None, None]
    # observed 2/4; chance = P(A)P(A) + P(B)P(B) + P(None)P(None) = (2/4)(1/4) + 0 + (1/4)(2/4)
    accuracy, kappa = ag.score(gold, pred)
    assert accuracy == 0.5
    assert kappa == pytest.approx((0.5 - 0.25) / (1 - 0.25))


def test_agreement_reports_confusion_and_misses(tmp_path: Path) -> None:
    rows = [
        {"id": "v1", "claim": "c", "reply": "Yes.", "label": "accept"},
        {"id": "v2", "claim": "c", "reply": "No.", "label": "reject"},
        {"id": "v3", "claim": "c", "reply": "Maybe.", "label": "accept"},
    ]
    (tmp_path / "verdict.dev.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = ag.agreement_for("verdict", directory=tmp_path)
    assert (got.n, got.accuracy, got.misses) == (3, 2 / 3, ("v3",))
    assert got.confusion == {"accept": {"accept": 1, "None": 1}, "reject": {"reject": 1}}
    assert ag.present_halves("verdict", directory=tmp_path) == ["dev"]


def test_bad_labelled_rows_name_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "choice.letter.dev.jsonl"
    good = {"id": "x", "question": "q", "options": ["a", "b"], "reply": "A", "label": "A"}
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "label": "C"}) + "\n")
    with pytest.raises(DataError) as info:
        ag.load_labels("choice.letter", directory=tmp_path)
    assert "choice.letter.dev.jsonl:2" in str(info.value) and "'label'" in str(info.value)
    path.write_text("{not json\n")
    with pytest.raises(DataError, match=r"dev.jsonl:1: invalid JSON"):
        ag.load_labels("choice.letter", directory=tmp_path)
    path.write_text(json.dumps({"id": "x", "reply": "A", "label": "A"}) + "\n")
    with pytest.raises(DataError, match="'question'"):
        ag.load_labels("choice.letter", directory=tmp_path)
    with pytest.raises(DataError, match="no such labelled set"):
        ag.load_labels("verdict", "heldout", directory=tmp_path)
    with pytest.raises(ConfigError, match=r"choice\.letter"):
        ag.load_labels("choices", directory=tmp_path)


def test_judge_agreement_metrics_for_a_run() -> None:
    values = ag.judge_agreement_metrics(["choice", "ralm.abstain"])
    dev = [v for v in values if v.group["half"] == "dev"]
    assert [v.group["set"] for v in dev] == ["choice.letter", "choice.yesno", "choice.numeric",
                                             "abstain"]
    assert all(v.name == "judge_agreement" and v.n == 160 and v.value is not None
               and v.value >= ag.GATE for v in dev)
    assert dev[-1].group["extractor"] == "ralm.abstain@2[broad]"
    paper = ag.judge_agreement_metrics(["ralm.abstain"], mode="paper")
    assert paper[0].group["extractor"] == "ralm.abstain@2[paper]"
    assert paper[0].value == pytest.approx(117 / 160)
    with pytest.raises(ConfigError, match=r"ralm\.conflict"):
        ag.judge_agreement_metrics(["nosuch"])
