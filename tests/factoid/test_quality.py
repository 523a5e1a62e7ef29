"""Claim-attack quality: thresholds fitted from labels, coverage and valid rate (hand-computed),
the shipped labelled sets (the development half at least 0.9 for every attack; the held-back
half exactly as measured and published; both still what the rules write), and the perturb
command's fluency-gate summary."""

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
# The held-back half (labelled once by someone who never saw the rules, docs/claims.md) as
# measured: valid variants / labelled kept variants per attack. Issue 15's 0.9 is NOT met there
# for four attacks. Any change of these counts (rules, relabelling) must be made here and in
# docs/claims.md together, so the published numbers stay the measured ones.
HELDOUT_MEASURED = {"multihop": (20, 21), "temporal": (38, 40), "semantic": (22, 33),
                    "distraction": (30, 39), "exaggeration": (18, 25), "reversal": (36, 40),
                    "numerical": (31, 40), "question": (37, 40), "cloze": (40, 40)}


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
    files = [LABELS_DIR / "variants.dev.jsonl", LABELS_DIR / "variants.heldout.jsonl"]
    return [f for f in files if f.exists()]


def test_shipped_labelled_sets_meet_the_valid_rate() -> None:
    files = _shipped()
    assert [f.name for f in files] == ["variants.dev.jsonl", "variants.heldout.jsonl"]
    thresholds = load_thresholds()
    dev = quality(read_labelled(files[0]), thresholds)
    assert set(dev) == set(ATTACK_NAMES)
    for name, q in dev.items():
        assert q.labelled >= 20, (name, q.labelled)
        assert q.valid_rate is not None and q.valid_rate >= TARGET, (name, q)
    heldout = quality(read_labelled(files[1]), thresholds)
    assert {name: (q.valid, q.labelled) for name, q in heldout.items()} == HELDOUT_MEASURED
    # the published total (docs/claims.md, README): 272 of 318
    assert (sum(q.valid for q in heldout.values()), sum(q.labelled for q in heldout.values())) == (272, 318)


@pytest.mark.parametrize("half", ["dev", "heldout"])
def test_the_labels_describe_what_the_rules_write_now(half: str) -> None:
    """A rule change that alters a labelled variant makes its labels stale: relabel it (and a
    held-back label is then no longer held back: say so in docs/claims.md)."""
    ctx = ClaimContext()
    for r in read_labelled(LABELS_DIR / f"variants.{half}.jsonl"):
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
