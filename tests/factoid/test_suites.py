"""The factoid suites end to end: embedded model offline, attacker and judge models on a local
fake OpenAI-compatible server, and the tables each suite reports."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.testing.fake_openai import FakeOpenAIServer

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def metrics_of(run: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    data = json.loads((run / "metrics.json").read_text())
    return data["run"], data["metrics"]


def test_attacks_with_the_embedded_model_offline(tmp_path: Path) -> None:
    # one llama.cpp thread for the target and the fluency gate's scorer: on a busy two-core
    # machine two threads spin against each other (docs/engine.md); the gate is on (default)
    code, out = invoke("run", "factoid.attacks", "--model", "embedded?n_threads=1", "--limit", "3",
                       "--param", "fluency=embedded?n_threads=1",
                       "--max-tokens", "16", "--out", str(tmp_path / "run"),
                       "--workspace", str(tmp_path / "ws"))
    assert code in (0, 3), out
    info, metrics = metrics_of(tmp_path / "run")
    by_attack = {m["group"].get("attack") for m in metrics if m["name"] == "asr"}
    assert {"temporal", "distraction", "multihop", "reversal"} <= by_attack
    assert any(m["name"] == "acc_before" for m in metrics)
    assert info["judge"].startswith("claims.verdict@7")
    assert info["suite_notes"]["attack_mode"] == "rules"
    assert info["suite_notes"]["fluency_gate"] == "embedded?n_threads=1"
    assert "fluency_thresholds" not in info["suite_notes"]  # fitted for this scorer
    records = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").open()]
    assert all(r["judge"] for r in records)
    assert any(r["attack"] == "claims.temporal" and r["edits"] for r in records)


def _server_reply(messages: list[dict[str, Any]]) -> str:
    text = messages[-1]["content"]
    if text.startswith("You write adversarial factual claims"):
        claim = re.search(r"Original \(true\) sentence: (.*)\nTask", text).group(1)  # type: ignore[union-attr]
        word = re.findall(r"[A-Za-z]{4,}", claim)[-1]
        declarative = claim.replace(word, "Zanzibar", 1)
        return json.dumps({"declarative": declarative, "question": f"Is it true that {declarative.rstrip('.')}?",
                           "original_span": word, "new_span": "Zanzibar", "claim_true": False,
                           "correction": claim})
    if text.startswith("The sentence states"):
        claim = re.search(r"Sentence: (.*)\n", text).group(1)  # type: ignore[union-attr]
        return json.dumps({"question": "What is described here?", "answer": claim.split()[0]})
    if text.startswith("You grade answers"):
        says_yes = "System answer: Yes" in text
        true_claim = "The statement is true." in text
        return "CORRECT" if says_yes == true_claim else "ACCEPTS_ERROR"
    if text.startswith("Break the following text"):
        return "Fact one.\nFact two."
    if "supported by the passages" in text:
        return "Yes"
    if text.startswith("Rate the answer"):
        return "4"
    return "No, that is not correct."


def test_attacker_and_judge_models_on_a_fake_server(tmp_path: Path) -> None:
    with FakeOpenAIServer(reply=_server_reply) as server:
        attacker = f"openai/attacker?base_url={server.base_url}&max_retries=0"
        judge = f"openai/judge?base_url={server.base_url}&max_retries=0"
        # fluency=none: this double's "Zanzibar" sentences are not English; the gate on attacker
        # output is tested in test_quality.py
        code, out = invoke("run", "factoid.attacks", "--model", "scripted/constant?text=Yes.",
                           "--attacker", attacker, "--judge", judge, "--param", "protocol=freeform",
                           "--param", "fluency=none",
                           "--limit", "3", "--out", str(tmp_path / "run"),
                           "--workspace", str(tmp_path / "ws"))
        assert code == 0, out
        prompts = [r["messages"][-1]["content"] for r in server.requests]
    assert sum(p.startswith("You write adversarial factual claims") for p in prompts) == 3 * 6
    assert sum(p.startswith("The sentence states") for p in prompts) == 3
    assert sum(p.startswith("You grade answers") for p in prompts) >= 64  # labelled set + answers
    info, metrics = metrics_of(tmp_path / "run")
    assert info["suite_notes"]["attack_mode"].startswith("model (openai/attacker")
    assert info["judge"] == f"claims.llm@1[{judge}]"
    agree = next(m for m in metrics if m["name"] == "judge_agreement")
    assert agree["n"] >= 60 and agree["group"]["judge"] == info["judge"]
    records = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").open()]
    judged = [r for r in records if r["claim_true"] is not None]
    assert judged and all(r["judge"] == info["judge"] for r in judged)
    # "Yes." to every false attack claim: the judge labels it accepts_error
    attacked = [r for r in judged if r["attack"] != "original"]
    assert attacked and all(r["correct"] is False for r in attacked)
    asr = next(m for m in metrics if m["name"] == "asr" and not m["group"])
    assert asr["value"] == 1.0
    names = {m["name"] for m in metrics}
    assert {"factscore", "fluency", "utility", "reference_rate"} <= names
    assert all(r["quality"]["judge"].startswith("quality.llm@1") for r in records if r.get("quality"))


def test_hops_components_forms_and_cloze_tables(tmp_path: Path) -> None:
    for suite, key in (("factoid.hops", "hops"), ("factoid.components", "component"),
                       ("factoid.forms", "form"), ("factoid.cloze", None)):
        run = tmp_path / suite
        # fluency=none: this test is about the tables; the gate (a language model scoring
        # every variant) is tested in test_fluency.py, test_quality.py and the embedded run
        code, out = invoke("run", suite, "--model", "scripted/constant?text=No, that is wrong.",
                           "--limit", "8", "--param", "fluency=none", "--out", str(run),
                           "--workspace", str(tmp_path / "ws"))
        assert code == 0, (suite, out)
        _, metrics = metrics_of(run)
        asr = [m for m in metrics if m["name"] == "asr"]
        if key == "hops":
            settings = {(m["group"].get("setting"), m["group"].get("hops")) for m in asr}
            assert ("MHOE", 1) in settings and ("OHOE", 2) in settings
        elif key == "component":
            comps = {m["group"].get("component") for m in asr}
            assert {"subject", "object", "people", "time"} <= comps
        elif key == "form":
            forms = {m["group"].get("form") for m in asr}
            assert {"declarative", "question"} <= forms
            assert {m["group"]["form"] for m in metrics if m["name"] == "acc_before"} == {"declarative", "question"}
        else:
            assert any(m["name"] == "cloze_accuracy" for m in metrics)
            assert any(m["name"] == "asr" and m["group"].get("attack") == "numerical" for m in metrics)


def test_perturb_writes_claim_attacks(tmp_path: Path) -> None:
    src = tmp_path / "claims.jsonl"
    src.write_text('{"id": "t1", "claim": "A ticket to the show cost $30 in 1999."}\n'
                   '{"id": "t2", "claim": "Cats are mammals."}\n')
    out = tmp_path / "out.jsonl"
    code, text = invoke("perturb", str(src), str(out), "--attack", "claims.numerical",
                        "--param", "comparator=over", "--param", "truth=false", "--seed", "0")
    assert code == 0, text
    rows = [json.loads(line) for line in out.open()]
    assert len(rows) == 1 and rows[0]["declarative"] == "A ticket to the show cost over $40 in 1999."
    assert rows[0]["claim_true"] is False and rows[0]["span"]["before"] == "$30"
    assert "dropped 1: no number, quantity or year" in text


def test_retrieved_documents_are_cited_and_citation_quality_is_scored(tmp_path: Path) -> None:
    """The generative-search setting: documents from a corpus in the prompt, [n] markers in the
    answer point to their ids, citation recall/precision judged against their text."""
    corpus = tmp_path / "corpus.jsonl"
    kb = Path(__file__).parents[2] / "src" / "rattle" / "datasets" / "data" / "factoid_knowledge.jsonl"
    with corpus.open("w") as fh:
        for n, line in enumerate(kb.open()):
            row = json.loads(line)
            fh.write(json.dumps({"id": f"k{n}", "title": row["entity"],
                                 "text": f"{row['entity']} {row['true']}."}) + "\n")
    reply = "No, that is wrong. Alexandre Dumas was born in 1802 in Villers-Cotterêts [1][2]."
    code, out = invoke("run", "factoid.attacks", "--model", f"scripted/constant?text={reply}",
                       "--param", "protocol=freeform", "--param", "attacks=distraction,temporal",
                       "--corpus", str(corpus), "--limit", "2", "--out", str(tmp_path / "run"),
                       "--workspace", str(tmp_path / "ws"))
    assert code == 0, out
    info, metrics = metrics_of(tmp_path / "run")
    assert "top 5" in info["suite_notes"]["retriever"]
    records = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").open()]
    assert all(1 <= len(r["documents"]) <= 5 and r["citations"] == r["documents"] for r in records)
    names = {m["name"]: m for m in metrics}
    assert {"citation_recall", "citation_precision", "factscore", "reference_rate"} <= set(names)
    # The Dumas claim retrieves the Dumas entry (k0) first; the answer's one statement cites
    # [1] and [2], and only k0 states "born in 1802 in Villers-Cotterêts". The Sydney Smith
    # claim retrieves nothing that supports it. ("No, that is wrong." is chatter, not a statement.)
    dumas = next(r for r in records if r["variant_id"] == "lit-01/original/declarative")
    assert dumas["documents"][0] == "k0"
    assert dumas["quality"]["statements"] == [{
        "text": "Alexandre Dumas was born in 1802 in Villers-Cotterêts.",
        "citations": dumas["documents"][:2], "supports": [True, False]}]
    smith = next(r for r in records if r["variant_id"] == "lit-02/original/declarative")
    assert smith["quality"]["statements"][0]["supports"] == [False, False]
    # three answers for Dumas, two for Smith (no entity to attach a distraction to):
    # precision (1/2 x 3 + 0 x 2) / 5, recall (1 x 3 + 0 x 2) / 5
    assert info["suite_notes"]["attacks_dropped"] == {"distraction: no entity to attach a clause to": 1}
    assert len(records) == 5
    assert names["citation_precision"]["value"] == pytest.approx(0.3)
    assert names["citation_recall"]["value"] == pytest.approx(0.6)
    assert names["factscore"]["value"] == pytest.approx(0.5)  # each answer: the chatter is not supported
