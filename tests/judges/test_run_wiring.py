"""Runs report how well their replies were read: parse_rate, judge_agreement, and the judge
model that resolves what the rules leave unparsed (issue 14, items 1, 4, 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rattle.judges.agreement import LABELS_DIR
from rattle.run.runner import RunConfig, run_suite


def run(tmp: Path, suite: str, model: str, **opts):  # type: ignore[no-untyped-def]
    cfg = RunConfig(suite=suite, model=model, out=str(tmp / "out"), workspace=str(tmp / "ws"),
                    limit=opts.pop("limit", 2), suite_options=opts)
    return run_suite(cfg)


def metrics_json(out) -> list[dict]:  # type: ignore[no-untyped-def, type-arg]
    return json.loads((out.run_dir / "metrics.json").read_text())["metrics"]  # type: ignore[no-any-return]


def test_parse_rate_counts_the_replies_the_extractor_read(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    # Questions about the first item are answered with a letter, the rest with a hedge.
    rules.write_text("'capital of France': '(B)'\n'.*': 'Hard to say, really.'\n")
    out = run(tmp_path, "rcc.robustness", f"scripted/rules?file={rules}", samples=1,
              protocol="single")
    originals = [r for r in out.records if r["attack"] == "original"]
    read = sum(r["status"] == "parsed" for r in originals)
    assert 0 < read < len(originals)
    rate = next(m for m in metrics_json(out) if m["name"] == "parse_rate"
                and m["group"]["attack"] == "original")
    assert rate["value"] == pytest.approx(read / len(originals))
    assert rate["n"] + rate["n_unmeasured"] == len(originals)
    assert any("read only" in w for w in out.run_info["warnings"])


def test_every_run_reports_its_extractors_agreement(tmp_path: Path) -> None:
    out = run(tmp_path, "rcc.robustness", "scripted/constant?text=(A)", samples=1)
    agree = [m for m in metrics_json(out) if m["name"] == "judge_agreement"]
    sets = {(m["group"]["set"], m["group"]["half"]) for m in agree}
    assert {("choice.letter", "dev"), ("choice.yesno", "dev"), ("choice.numeric", "dev")} <= sets
    assert all(m["value"] >= 0.97 and m["n"] >= 150 for m in agree if m["group"]["half"] == "dev")
    # a held-back half is reported too, for exactly the sets that have a held-back file
    held = {s for s in ("choice.letter", "choice.yesno", "choice.numeric")
            if (LABELS_DIR / f"{s}.heldout.jsonl").is_file()}
    assert {s for s, half in sets if half == "heldout"} == held
    ralm = run(tmp_path / "r", "ralm.unanswerable", "scripted/echo")
    names = {m["group"]["extractor"] for m in metrics_json(ralm) if m["name"] == "judge_agreement"}
    assert names == {"ralm.abstain@7[paper]"}  # the mode the run used
    broad = run(tmp_path / "b", "ralm.unanswerable", "scripted/echo", detect="broad")
    names = {m["group"]["extractor"] for m in metrics_json(broad) if m["name"] == "judge_agreement"}
    assert names == {"ralm.abstain@7[broad]"}


def test_a_judge_model_resolves_replies_the_rules_cannot_read(tmp_path: Path) -> None:
    out = run(tmp_path, "rcc.robustness", "scripted/constant?text=Hmm, hard to say.",
              samples=1, protocol="single", judge="scripted/constant?text=B")
    records = out.records
    assert records and all(r["status"] == "parsed" and r["parsed"] == "B" for r in records)
    assert all(r["judge"].startswith("fallback@1[scripted/constant") for r in records)
    assert all(r["correct"] == (r["gold"] == "B") for r in records)
    notes = out.run_info["suite_notes"]
    assert notes["fallback_resolved"] == len(records)
    assert all(m["value"] == 1.0 for m in metrics_json(out) if m["name"] == "parse_rate")
    # Resumed: the judge's answers come from the store.
    again = run(tmp_path, "rcc.robustness", "scripted/constant?text=Hmm, hard to say.",
                samples=1, protocol="single", judge="scripted/constant?text=B")
    assert [r["correct"] for r in again.records] == [r["correct"] for r in records]


def test_a_judge_model_resolves_verdicts_the_rules_cannot_read(tmp_path: Path) -> None:
    out = run(tmp_path, "factoid.attacks", "scripted/constant?text=Hmm, interesting.",
              attacks="temporal", judge="scripted/constant?text=REJECT", fluency="none")
    measured = [r for r in out.records if r["claim_true"] is not None]
    assert measured and all(r["status"] == "parsed" for r in measured)
    assert all(r["correct"] == (r["claim_true"] is False) for r in measured)
    assert all(r["labels"]["verdict"] is False for r in measured)


def test_the_factoid_suite_reads_verdicts_against_the_claim_it_sent(tmp_path: Path) -> None:
    # The model restates the statement it was asked about: no verdict word, so only a reading
    # against the claim sent (verdict(text, claim=...)) accepts it.
    rules = tmp_path / "rules.yaml"
    rules.write_text("'Statement: (.*)': '\\1'\n")
    out = run(tmp_path, "factoid.attacks", f"scripted/rules?file={rules}", attacks="temporal",
              fluency="none")
    measured = [r for r in out.records if r["claim_true"] is not None]
    assert measured and all(r["labels"]["verdict"] is True and r["status"] == "parsed"
                            for r in measured)
    assert all(r["correct"] == (r["claim_true"] is True) for r in measured)
    assert out.run_info["judge"].startswith("claims.verdict@7")


def test_broad_ralm_runs_leave_unusable_replies_unmeasured(tmp_path: Path) -> None:
    # A garbled mix of an answer and the keyword: the paper's string is there, so paper mode
    # reads an abstention; broad mode, like the labelled sets, leaves it unmeasured.
    model = "scripted/constant?text=unanswerable Genesis"
    paper = run(tmp_path / "p", "ralm.unanswerable", model, limit=4)
    assert paper.records and all(r["status"] == "parsed" and r["correct"] is not None
                                 and r["labels"]["says_unanswerable"] for r in paper.records)
    broad = run(tmp_path / "b", "ralm.unanswerable", model, limit=4, detect="broad")
    assert [r["case_id"] for r in broad.records] == [r["case_id"] for r in paper.records]
    assert all(r["status"] == "degenerate" and r["correct"] is None for r in broad.records)
    rates = [m for m in metrics_json(broad) if m["name"] == "parse_rate"]
    assert rates and all(m["value"] == 0.0 for m in rates)  # the run reports it did not read them
    # a reply the detectors read keeps its judgement in broad mode
    ok = run(tmp_path / "o", "ralm.unanswerable", "scripted/constant?text=unanswerable", limit=4,
             detect="broad")
    assert all(r["status"] == "parsed" and r["correct"] is not None for r in ok.records)
