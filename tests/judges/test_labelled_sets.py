"""The labelled sets and the agreement gate (issue 14, item 4): every extractor agrees with the
hand labels on at least 97% of the dev half (dev … dev-g, 1,120 replies per set); a held-back
half is reported for exactly the sets that have a ``<set>.heldout.jsonl`` file, and agrees
exactly as measured once and published in docs/judging.md (the seventh round's held-back half;
issue 14's 97% is not met there); RALM detectors are gated in broad mode, the paper mode's
agreement is reported beside it."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from rattle.errors import ConfigError, DataError
from rattle.judges import agreement as ag

# Replies read as labelled, of 160, on the held-back half (written by three people who never
# saw the rules; measured once after the seventh round and its review fixes). Any change (rules,
# relabelling) is made here and in docs/judging.md together, so the published numbers stay the
# measured ones.
HELDOUT_AGREED = {"choice.letter": 149, "choice.yesno": 152, "choice.numeric": 153,
                  "verdict": 147, "abstain": 148, "conflict": 142}
HELDOUT_PAPER = {"abstain": 107, "conflict": 87}

# Replies of each dev file the paper mode reads as labelled (of 160), dev … dev-g.
PAPER_AGREED = {"abstain": (117, 126, 125, 123, 124, 113, 110),
                "conflict": (128, 130, 126, 122, 125, 122, 87)}


def test_every_extractor_agrees_on_the_dev_half_and_held_back_halves_are_reported() -> None:
    results = ag.all_agreements()
    halves = {(a.set_name, a.half) for a in results}
    with_heldout = {s for s in ag.SETS if (ag.LABELS_DIR / f"{s}.heldout.jsonl").is_file()}
    assert {(s, "dev") for s in ag.SETS} | {(s, "heldout") for s in with_heldout} == halves
    low = [f"{a.set_name}/{a.half} ({a.extractor}): {a.accuracy:.3f}, misses {list(a.misses)}"
           for a in results if a.half == "dev" and a.accuracy < ag.GATE]
    assert not low, "agreement below 97%:\n" + "\n".join(low)
    for a in results:
        if a.half == "heldout":  # every row of the held-back file is measured
            assert a.n == len(ag.load_labels(a.set_name, "heldout")) > 0
    held = {a.set_name: (a.n, round(a.accuracy * a.n)) for a in results if a.half == "heldout"}
    assert held == {s: (160, n) for s, n in HELDOUT_AGREED.items()}
    paper = {a.set_name: round(a.accuracy * a.n) for a in ag.all_agreements(modes=("paper",))
             if a.half == "heldout" and a.set_name in HELDOUT_PAPER}
    assert paper == HELDOUT_PAPER


@pytest.mark.parametrize("set_name", ag.SETS)
def test_dev_halves_are_complete_and_varied(set_name: str) -> None:
    # the dev half is every <set>.dev*.jsonl file: the first one, dev-b, … and dev-g
    assert ag.dev_parts(set_name) == ["dev", "dev-b", "dev-c", "dev-d", "dev-e", "dev-f", "dev-g"]
    rows = ag.load_labels(set_name, "dev")
    assert len(rows) == 1120 and len({r["id"] for r in rows}) == 1120
    for part in ag.dev_parts(set_name):
        rows = ag.load_labels(set_name, part=part)
        assert len(rows) == 160
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
    assert paper["abstain"].extractor == "ralm.abstain@7[paper]"
    for set_name, per_file in PAPER_AGREED.items():
        assert (paper[set_name].n, round(paper[set_name].accuracy * 1120)) == (1120,
                                                                        sum(per_file))
        for part, agreed in zip(ag.dev_parts(set_name), per_file, strict=True):
            one = ag.agreement_for(set_name, part=part, mode="paper")
            assert (one.half, one.n, round(one.accuracy * 160)) == (part, 160, agreed)
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
    assert all(v.name == "judge_agreement" and v.n == 1120 and v.value is not None
               and v.value >= ag.GATE for v in dev)
    assert dev[-1].group["extractor"] == "ralm.abstain@7[broad]"
    paper = ag.judge_agreement_metrics(["ralm.abstain"], mode="paper")
    assert paper[0].group["extractor"] == "ralm.abstain@7[paper]"
    assert paper[0].value == pytest.approx(sum(PAPER_AGREED["abstain"]) / 1120)
    with pytest.raises(ConfigError, match=r"ralm\.conflict"):
        ag.judge_agreement_metrics(["nosuch"])


def test_every_dev_file_is_part_of_the_dev_half(tmp_path: Path) -> None:
    row = {"id": "v1", "claim": "c", "reply": "Yes.", "label": "accept"}
    (tmp_path / "verdict.dev.jsonl").write_text(json.dumps(row) + "\n")
    (tmp_path / "verdict.dev-b.jsonl").write_text(json.dumps({**row, "id": "b1",
                                                                "reply": "No."}) + "\n")
    (tmp_path / "verdict.heldout.jsonl").write_text(json.dumps({**row, "id": "h1"}) + "\n")
    (tmp_path / "verdictx.dev.jsonl").write_text("not read\n")
    assert [p.name for p in ag.label_paths("verdict", directory=tmp_path)] == [
        "verdict.dev.jsonl", "verdict.dev-b.jsonl"]
    assert ag.dev_parts("verdict", directory=tmp_path) == ["dev", "dev-b"]
    got = ag.agreement_for("verdict", directory=tmp_path)
    assert (got.half, got.n, got.accuracy, got.misses) == ("dev", 2, 0.5, ("b1",))
    part = ag.agreement_for("verdict", part="dev-b", directory=tmp_path)
    assert (part.half, part.n, part.misses) == ("dev-b", 1, ("b1",))
    held = ag.agreement_for("verdict", "heldout", directory=tmp_path)
    assert (held.half, held.n, held.accuracy) == ("heldout", 1, 1.0)
    assert ag.present_halves("verdict", directory=tmp_path) == ["dev", "heldout"]
    # files written independently may reuse an id: it is qualified by the file's part name,
    # so every miss still names one row
    (tmp_path / "verdict.dev-c.jsonl").write_text(json.dumps({**row, "reply": "No."}) + "\n")
    got = ag.agreement_for("verdict", directory=tmp_path)
    assert (got.n, got.misses) == (3, ("b1", "dev-c:v1"))
    assert [r["id"] for r in ag.load_labels("verdict", part="dev-c", directory=tmp_path)] == ["v1"]
    # an id used twice in one file is an error naming both places
    (tmp_path / "verdict.dev-c.jsonl").write_text(json.dumps({**row, "id": "c1"}) + "\n"
                                                  + json.dumps({**row, "id": "c1"}) + "\n")
    with pytest.raises(DataError, match=r"dev-c\.jsonl:2: duplicate id 'c1' \(first at "
                                        r"verdict\.dev-c\.jsonl:1\)"):
        ag.load_labels("verdict", directory=tmp_path)
    with pytest.raises(ConfigError, match="unknown half"):
        ag.label_paths("verdict", "dev-b", directory=tmp_path)


def test_the_held_back_half_is_reported_only_where_its_file_exists(tmp_path: Path) -> None:
    verdict_row = {"id": "v1", "claim": "c", "reply": "Yes.", "label": "accept"}
    abstain_row = {"id": "a1", "question": "q", "gold": ["x"], "reply": "unanswerable",
                   "label": "abstain"}
    (tmp_path / "verdict.dev.jsonl").write_text(json.dumps(verdict_row) + "\n")
    (tmp_path / "verdict.heldout.jsonl").write_text(json.dumps({**verdict_row, "reply": "No."})
                                                    + "\n")
    (tmp_path / "abstain.dev-f.jsonl").write_text(json.dumps(abstain_row) + "\n")
    got = {(a.set_name, a.half, a.accuracy)
           for a in ag.all_agreements(modes=("broad", "paper"), directory=tmp_path)}
    assert got == {("verdict", "dev", 1.0), ("verdict", "heldout", 0.0), ("abstain", "dev", 1.0)}
    assert ag.present_halves("abstain", directory=tmp_path) == ["dev"]
    assert ag.label_paths("abstain", "heldout", directory=tmp_path) == []
