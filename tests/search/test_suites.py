"""The search suites end to end on scripted targets: records carry the found edits, metrics
are TextAttack's and promptbench's, the CLI runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.errors import ConfigError
from rattle.run.runner import RunConfig, run_suite

PLAIN = {"similarity": False, "constraints": "protected,max_words"}


def rules(tmp: Path, mapping: dict[str, str]) -> Path:
    path = tmp / "rules.json"
    path.write_text(json.dumps(mapping))
    return path


def run(tmp: Path, suite: str, model: str, **opts: Any) -> Any:
    return run_suite(RunConfig(suite=suite, model=model, out=str(tmp / suite),
                               workspace=str(tmp / "ws"), suite_options=opts,
                               dataset=opts.pop("dataset", None), limit=opts.pop("limit", None)))


def metric(out: Any, name: str, **group: Any) -> Any:
    found = [m for m in out.metrics if m.name == name
             and all(m.group.get(k) == v for k, v in group.items())]
    assert len(found) == 1, (name, group, found)
    return found[0]


def test_search_mc_records_carry_the_edits_and_the_answers(tmp_path: Path) -> None:
    path = rules(tmp_path, {r"\baltitudes\b": "(A)"})
    out = run(tmp_path, "search.mc", f"scripted/rules?file={path}&default=(C)", limit=3,
              transformations="chars.delete", budget=20, **PLAIN)
    records = out.records
    assert len(records) == 2 * out.run_info["cases"]
    wins = [r for r in records if r["labels"].get("outcome") == "success"]
    assert wins, "deleting a character of 'altitudes' changes the answer"
    for r in wins:
        (start, before, after), = r["edits"]
        text = r["labels"]["text_before"]
        assert before == "altitudes" and text[start:start + 9] == before and len(after) == 8
        assert r["labels"]["text_after"] == text[:start] + after + text[start + 9:]
        assert (r["labels"]["answer_before"], r["labels"]["answer_after"]) != (None, None)
        assert r["labels"]["answer_before"] != r["labels"]["answer_after"] == r["answer"]
        assert r["attack"] == "search.greedy" and r["params"]["budget"] == 20
    names = {m.name for m in out.metrics}
    assert {"attack_success_rate", "queries_mean", "queries_median", "perturbed_word_rate",
            "worst_case_accuracy", "any_flip_rate", "accuracy"} <= names
    asr = metric(out, "attack_success_rate")
    attacked = [r for r in records if r["labels"].get("outcome") in ("success", "failed")]
    assert asr.value == pytest.approx(len(wins) / len(attacked))
    queries = metric(out, "queries_mean", over="success")
    assert queries.value == pytest.approx(sum(r["labels"]["queries"] for r in wins) / len(wins))
    rate = metric(out, "perturbed_word_rate")
    assert rate.value == pytest.approx(
        sum(1 / r["labels"]["words"] for r in wins) / len(wins))
    flips = metric(out, "any_flip_rate")
    assert flips.value == pytest.approx(len(wins) / len([r for r in records if r["attack"] != "original"
                                                          and r["labels"]["answer_before"] is not None]))


def test_search_mc_reports_similarity_with_minilm(tmp_path: Path) -> None:
    path = rules(tmp_path, {r"\baltitudes\b": "(A)"})
    out = run(tmp_path, "search.mc", f"scripted/rules?file={path}&default=(C)", limit=3, budget=20)
    sims = [r["labels"]["similarity"] for r in out.records if r["labels"].get("outcome") == "success"]
    assert sims and all(0.840845057 <= s <= 1.0 for s in sims)
    assert metric(out, "similarity_mean").value == pytest.approx(sum(sims) / len(sims))
    assert out.run_info["suite_notes"]["attack"]["constraints"][3][0] == "similarity"


def test_search_qa_on_the_question_and_on_a_passage(tmp_path: Path) -> None:
    (tmp_path / "q").mkdir()
    (tmp_path / "d").mkdir()
    asked = rules(tmp_path / "q", {r"capital of France": "Paris"})
    read = rules(tmp_path / "d", {r"capital and most populous": "Paris"})
    question = run(tmp_path / "q", "search.qa", f"scripted/rules?file={asked}&default=unknown",
                   k=0, transformations="chars.delete", **PLAIN)
    model = f"scripted/rules?file={read}&default=unknown"
    docs = run(tmp_path / "d", "search.qa", model, target="documents",
               transformations="chars.delete", **PLAIN)
    for out, edited in ((question, "capital"), (docs, "capital")):
        wins = [r for r in out.records if r["labels"].get("outcome") == "success"]
        assert len(wins) == 1 and wins[0]["edits"][0][1] == edited
        assert wins[0]["correct"] is False and wins[0]["labels"]["answer_before"] == "paris"
        # Items answered wrongly to begin with are skipped by the goal "wrong".
        assert metric(out, "skip_rate").value == pytest.approx(
            sum(r["labels"].get("outcome") == "skipped" for r in out.records) / (len(out.records) / 2))
    assert docs.records[1]["labels"]["document"] == "mini-qa-0-gold"
    assert docs.records[1]["target"] == "documents"
    with pytest.raises(ConfigError, match=re.escape("option target='passage' is not a valid question|documents")):
        run(tmp_path / "x", "search.qa", model, target="passage")


def test_search_claims_flip_a_verdict(tmp_path: Path) -> None:
    path = rules(tmp_path, {r"\bborn\b": "Yes, that is correct."})
    out = run(tmp_path, "search.claims", f"scripted/rules?file={path}&default=No, it is not.",
              limit=12, transformations="chars.delete", **PLAIN)
    attacked = [r for r in out.records if r["attack"] != "original"]
    born = [r for r in attacked if " born " in r["labels"]["text_before"]]
    assert born and all(r["labels"]["outcome"] == "success" for r in born)
    assert all(r["edits"][0][1] == "born" for r in born)
    assert all(r["labels"]["outcome"] == "failed" for r in attacked if r not in born)
    assert metric(out, "attack_success_rate").value == pytest.approx(len(born) / len(attacked))


def test_search_prompt_reports_the_drop_as_pdr(tmp_path: Path) -> None:
    path = rules(tmp_path, {r"choose one of several candidate": "(A)"})
    out = run(tmp_path, "search.prompt", f"scripted/rules?file={path}&default=(B)", budget=8,
              transformations="chars.delete,words.delete", **PLAIN)
    records = out.records
    original = [r for r in records if r["group"]["attack"] == "original"]
    attacked = [r for r in records if r["group"]["attack"] == "search"]
    assert len(original) == len(attacked) == 21  # every question of mini-mc, both ways
    # The template as given makes every answer (A); the found one, every answer (B).
    assert {r["response"] for r in original} == {"(A)"}
    assert {r["response"] for r in attacked} == {"(B)"}
    acc_clean = sum(bool(r["correct"]) for r in original) / 21
    acc_attacked = sum(bool(r["correct"]) for r in attacked) / 21
    assert metric(out, "pdr").value == pytest.approx(1 - acc_attacked / acc_clean)
    assert metric(out, "accuracy", attack="search").value == pytest.approx(acc_attacked)
    labels = attacked[0]["labels"]
    assert labels["outcome"] == "success" and labels["queries"] <= 8
    (start, before, _), = attacked[0]["edits"]
    assert labels["template_before"][start:start + len(before)] == before
    assert before.strip() in ("choose", "one", "of", "several", "candidate")
    assert attacked[0]["target"] == "prompt"


def test_the_cli_runs_and_lists_search_parts(tmp_path: Path) -> None:
    path = rules(tmp_path, {r"\baltitudes\b": "(A)"})
    result = CliRunner().invoke(app, [
        "run", "search.mc", "--model", f"scripted/rules?file={path}&default=(C)",
        "--limit", "2", "--param", "method=random?step=2", "--param", "budget=6",
        "--param", "similarity=false", "--param", "constraints=protected,max_words",
        "--out", str(tmp_path / "run"), "--workspace", str(tmp_path / "ws")])
    assert result.exit_code == 0, result.output
    payload = json.loads((tmp_path / "run" / "metrics.json").read_text())
    assert any(m["name"] == "attack_success_rate" for m in payload["metrics"])
    listed = CliRunner().invoke(app, ["list", "search_method"])
    assert listed.exit_code == 0 and "beam@1" in listed.output and "width" in listed.output
    bad = CliRunner().invoke(app, ["run", "search.mc", "--model", "scripted/echo",
                                   "--param", "method=beam?size=2", "--workspace", str(tmp_path / "ws")])
    assert bad.exit_code == 2 and "valid options: width (int)" in bad.output


def test_search_mc_letter_protocol_scores_the_option_letters(tmp_path: Path) -> None:
    # The scripted scorer adds 10 to a continuation holding its rule's reply: with the letter
    # protocol the continuations are the bare letters, so "A" wins while "altitudes" is intact.
    from rattle.datasets import load_dataset
    from rattle.suites.search_tasks import choice_query

    item = next(iter(load_dataset("mini-mc")))
    assert choice_query(item, 0, "letter").choices == tuple(
        "ABCDEFG"[:len(item.questions[0].options)])
    assert choice_query(item, 0, "loglik").choices[0].startswith("(A)")
    path = rules(tmp_path, {r"\baltitudes\b": "A"})
    out = run(tmp_path, "search.mc", f"scripted/rules?file={path}&default=C", limit=3,
              transformations="chars.delete", budget=20, protocol="letter", **PLAIN)
    wins = [r for r in out.records if r["labels"].get("outcome") == "success"]
    assert wins
    for r in wins:
        sub = int(r["case_id"].rsplit("#", 1)[1])
        q = next(i for i in load_dataset("mini-mc") if r["case_id"].startswith(i.id + "#")).questions[sub]
        order = q.order or tuple(range(len(q.options)))
        assert (r["labels"]["answer_before"], r["labels"]["answer_after"]) == (order[0], order[2])
        assert "altitudes" not in r["labels"]["text_after"]
