"""Claim-attack quality: thresholds fitted from labels, coverage and valid rate (hand-computed),
the shipped labelled sets (each development file at least 0.9 for every attack; a held-back
file, when one is shipped, exactly as measured and published; every file still what the rules
write), and the perturb command's fluency-gate summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rattle.attacks.claims.base import ClaimAttack
from rattle.attacks.claims.fluency import Thresholds, gated_text, load_thresholds
from rattle.attacks.claims.generators import ClaimContext, generate
from rattle.attacks.claims.quality import (ATTACK_NAMES, LABELS_DIR, fit_thresholds, quality,
                                           read_labelled, read_sentences)
from rattle.errors import DataError
from rattle.items import Item
from tests.factoid.conftest import LoadedFlows

TARGET = 0.9  # issue 15: every attack's valid rate on the labelled sets
# Development files: the rules were tuned on them. variants.dev-b.jsonl was the first held-back
# half (measured once at 272/318, docs/claims.md); its failures were fixed in round 3, so it is
# development data now.
DEV_FILES = ("variants.dev.jsonl", "variants.dev-b.jsonl")
HELDOUT = "variants.heldout.jsonl"
# A held-back half (labelled once by someone who never saw the rules) as measured: valid
# variants / labelled kept variants per attack. None while no held-back file is shipped; when
# one is added, it is measured once and its counts are pinned here and in docs/claims.md
# together, so the published numbers stay the measured ones.
HELDOUT_MEASURED: dict[str, tuple[int, int]] | None = {
    "multihop": (6, 6), "temporal": (30, 30), "semantic": (20, 22), "distraction": (27, 29),
    "exaggeration": (18, 22), "reversal": (25, 30), "numerical": (24, 29), "question": (27, 30),
    "cloze": (29, 29)}


def row(attack: str, drop: float, fluent: bool, *, sid: str = "s", plausible: bool = True,
        label: bool = True, **extra: Any) -> dict[str, Any]:
    return {"attack": attack, "sentence_id": sid, "variant": "v", "fluency_drop": drop,
            "labels": {"fluent": fluent, "plausible": plausible, "label_correct": label}, **extra}


def test_fit_keeps_fluent_variants_at_nine_to_one() -> None:
    """Utility = fluent kept - 9 x non-fluent kept; the smallest fluent score that maximises it.
    semantic: t=0.06 keeps 4 fluent, 0 non-fluent (U=4); t=0.10 adds one fluent and the 0.08
    non-fluent (5 - 9 = -4). temporal: every fluent variant lies below its non-fluent one
    (0.9): t=0.7 (U=7). Pooled with cloze's two rows: t=0.06 keeps 5 fluent (U=5); t=0.10
    keeps 7 fluent and one non-fluent (-2); t=0.7 keeps 13 and three (-14)."""
    semantic = [row("semantic", d, f) for d, f in [(0.0, True), (0.02, True), (0.04, True),
                                                    (0.06, True), (0.08, False), (0.10, True),
                                                    (0.20, False), (0.40, False)]]
    temporal = [row("temporal", d, d < 0.8) for d in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.9)]
    few = [row("cloze", 0.01, True), row("cloze", 3.0, False)]  # under MIN_LABELLED: pooled
    fitted = fit_thresholds(semantic + temporal + few, scorer="m")
    assert fitted.of("semantic") == pytest.approx(0.06)
    assert fitted.of("temporal") == pytest.approx(0.7)
    assert fitted.default == pytest.approx(0.06)
    assert fitted.of("cloze") == fitted.default and fitted.scorer == "m"
    with pytest.raises(DataError, match="no labelled fluent variant"):
        fit_thresholds([row("semantic", 0.1, False)])


def test_coverage_and_valid_rate_by_hand() -> None:
    """10 sentences, the attack made a variant for 6, 4 of them are in the file, the gate keeps
    3 (drop <= 0.5); of those, 2 are valid: coverage 6/10 x 3/4 = 0.45, valid rate 2/3."""
    rows = [row("semantic", 0.1, True, sid="a"), row("semantic", 0.2, True, sid="b", plausible=False),
            row("semantic", 0.3, True, sid="c"), row("semantic", 0.9, False, sid="d")]
    for r in rows:
        r.update(sentences=10, attacked=6)
    q = quality(rows, Thresholds(0.5))["semantic"]
    assert (q.sentences, q.attacked, q.scored, q.kept, q.labelled, q.valid) == (10, 6, 4, 3, 3, 2)
    assert q.coverage == pytest.approx(0.45)
    assert q.valid_rate == pytest.approx(2 / 3)
    unlabelled = [dict(r, labels={"fluent": None, "plausible": None, "label_correct": None}) for r in rows]
    assert quality(unlabelled, Thresholds(0.5))["semantic"].valid_rate is None


def test_generate_without_a_scorer_counts_what_the_rules_write(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``--scorer none``: every variant written, none scored or kept; the counts printed."""
    from rattle.attacks.claims.quality import main

    src = tmp_path / "s.jsonl"
    src.write_text('{"id": "a", "claim": "Lightning often strikes the Empire State Building."}\n'
                   '{"id": "b", "claim": "The old bridge was opened to traffic in 1874."}\n')
    out = tmp_path / "out.jsonl"
    assert main(["generate", str(src), str(out), "--scorer", "none", "--workspace", str(tmp_path / "ws")]) == 0
    rows = read_labelled(out)
    assert all(r["fluency_drop"] is None and r["kept"] is False for r in rows)
    made = {r["attack"]: r["attacked"] for r in rows}
    assert made["question"] == 2 and made["semantic"] == 1 and made["numerical"] == 1
    printed = capsys.readouterr().out
    assert f"wrote {len(rows)} variants" in printed
    assert "question 2" in printed and "semantic 1" in printed and "multihop 0" in printed


def test_labelled_files_are_checked(tmp_path: Path) -> None:
    bad = tmp_path / "l.jsonl"
    bad.write_text(json.dumps(row("semantic", 0.1, True)) + "\n" +
                   json.dumps({**row("semantic", 0.1, True), "labels": {"fluent": "yes"}}) + "\n")
    with pytest.raises(DataError, match=r"l\.jsonl:2.*labels must map"):
        read_labelled(bad)
    sentences = tmp_path / "s.jsonl"
    sentences.write_text('{"id": "a", "claim": "Paris is in France."}\n{"id": "b"}\n')
    with pytest.raises(DataError, match=r"s\.jsonl:2.*missing or empty claim"):
        read_sentences(sentences)


def _shipped() -> list[Path]:
    return [f for f in (*(LABELS_DIR / name for name in DEV_FILES), LABELS_DIR / HELDOUT)
            if f.exists()]


@pytest.mark.parametrize("name", DEV_FILES)
def test_development_sets_meet_the_valid_rate(name: str) -> None:
    dev = quality(read_labelled(LABELS_DIR / name), load_thresholds())
    assert set(dev) == set(ATTACK_NAMES)
    for attack, q in dev.items():
        assert q.labelled >= 15, (name, attack, q.labelled)
        assert q.valid_rate is not None and q.valid_rate >= TARGET, (name, attack, q)


def test_held_back_set_is_pinned_as_measured() -> None:
    """A held-back file's counts are the published ones; without a file nothing is pinned."""
    path = LABELS_DIR / HELDOUT
    if not path.exists():
        assert HELDOUT_MEASURED is None, f"{HELDOUT} is gone: unpin HELDOUT_MEASURED"
        return
    assert HELDOUT_MEASURED is not None, f"measure {HELDOUT} once and pin its counts here"
    heldout = quality(read_labelled(path), load_thresholds())
    assert {name: (q.valid, q.labelled) for name, q in heldout.items()} == HELDOUT_MEASURED


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: p.name)
def test_the_labels_describe_what_the_rules_write_now(path: Path) -> None:
    """A rule change that alters a labelled variant makes its labels stale: relabel it (and a
    held-back label is then no longer held back: say so in docs/claims.md)."""
    assert {p.name for p in _shipped()} >= set(DEV_FILES)
    ctx = ClaimContext()
    for r in read_labelled(path):
        item = Item(id=r["sentence_id"], questions=(), claim=r["original"])
        out = generate(r["attack"], item, seed=r["seed"], ctx=ctx)
        assert isinstance(out, ClaimAttack), (r["id"], out)
        assert gated_text(out) == r["variant"], r["id"]
        assert (out.claim_true, list(out.answers)) == (r["claim_true"], r["answers"]), r["id"]


def test_perturb_prints_the_fluency_gate(embedded_scorer: Any, tmp_path: Path) -> None:
    from rattle.cli import app

    src = tmp_path / "claims.jsonl"
    src.write_text('{"id": "t1", "claim": "Lightning often strikes the Empire State Building."}\n'
                   '{"id": "t2", "claim": "Cats are mammals."}\n')
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["perturb", str(src), str(out), "--attack", "claims.semantic",
                                      "--workspace", str(tmp_path / "ws")])
    assert result.exit_code == 0, result.output
    assert "fluency gate (embedded, thresholds fitted for embedded): kept 1 of 1" in result.output
    assert "dropped 1: no verb, adjective or adverb" in result.output
    written = [json.loads(line) for line in out.open()]
    assert written[0]["declarative"] == "Lightning rarely strikes the Empire State Building."
    assert isinstance(written[0]["details"]["fluency_drop"], float)


def test_attacker_output_passes_the_same_validation_and_gate(embedded_scorer: Any, tmp_path: Path) -> None:
    """The model-driven mode (a local fake OpenAI-compatible attacker): a well-formed reply is
    validated, scored and kept; an ungrammatical one is dropped by the parse check."""
    from rattle.attacks.claims.quality import generate_rows
    from rattle.run.store import Store
    from rattle.testing.fake_openai import FakeOpenAIServer

    claim = "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed in 1844."

    def reply(messages: list[dict[str, Any]]) -> str:
        text = messages[-1]["content"]
        if "Replace a time expression" in text:
            new = claim.replace("1844", "1845")
            return json.dumps({"declarative": new, "question": "Was it completed in 1845?",
                               "original_span": "1844", "new_span": "1845", "claim_true": False,
                               "correction": claim})
        if "Change a number" in text:  # no correction for a false claim: invalid
            return json.dumps({"declarative": claim.replace("1844", "over 1900"), "question": "Is it?",
                               "original_span": "1844", "new_span": "over 1900", "claim_true": False})
        return json.dumps({"declarative": "Count the of Monte novel adventure Cristo is by an the.",
                           "question": "Is it?", "original_span": "", "new_span": "",
                           "claim_true": False, "correction": claim})

    with FakeOpenAIServer(reply=reply) as server, Store(tmp_path / "ws") as store:
        rows, dropped = generate_rows([("s1", claim)], attacks=("temporal", "semantic", "numerical"),
                                      attacker=f"openai/attacker?base_url={server.base_url}&max_retries=0",
                                      flows=LoadedFlows(store, embedded=embedded_scorer))
    by = {r["attack"]: r for r in rows}
    assert set(by) == {"temporal", "semantic"} and all(r["mode"] == "model" for r in rows)
    assert by["temporal"]["variant"] == claim.replace("1844", "1845")
    assert by["temporal"]["details"]["prompt"] == "claims.temporal.prompt@2"
    assert by["temporal"]["kept"] is True  # a one-digit change costs little fluency
    assert by["semantic"]["kept"] is False  # scrambled words: over the fitted threshold
    assert by["semantic"]["fluency_drop"] > load_thresholds().of("semantic")
    assert list(dropped) == ["numerical: a false claim without a correction"]
