"""RALM suites end to end with scripted models on the mini set, RGB, PoisonedRAG and LITM."""

from __future__ import annotations

from pathlib import Path

import pytest

from rattle.run.runner import RunConfig, run_suite
from rattle.suites.ralm import says_conflict, says_unanswerable
from tests.conftest import external

def litm() -> str:
    return str(external("lost-in-the-middle", "qa_data", "nq-open-oracle.jsonl.gz"))


def poison() -> str:
    return str(external("PoisonedRAG", "results", "adv_targeted_results", "nq.json"))


def rgb() -> str:
    return str(external("RGB", "data", "en_fact.json"))


def run(tmp: Path, suite: str, model: str = "scripted/echo", **opts):  # type: ignore[no-untyped-def]
    cfg = RunConfig(suite=suite, model=model, out=str(tmp / suite), workspace=str(tmp / "ws"),
                    suite_options=opts, dataset=opts.pop("dataset", None),
                    limit=opts.pop("limit", None))
    return run_suite(cfg)


def by(outcome, name: str) -> dict:  # type: ignore[no-untyped-def, type-arg]
    return {tuple(sorted(m.group.items())): m for m in outcome.metrics if m.name == name}


def test_detectors() -> None:
    assert says_unanswerable("Unanswerable.") and says_unanswerable("I don't know", mode="broad")
    assert not says_unanswerable("Paris") and not says_unanswerable("I don't know")  # paper mode
    assert says_conflict("conflict") and says_conflict("The documents are conflicting")
    assert not says_conflict("Paris")


def test_baseline_and_unanswerable_on_rules(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    # Answers from the documents when there are some, "unanswerable" when asked to abstain.
    rules.write_text("'Documents:\\n(?:\\w+: )?(\\w+)': '\\1'\n'.*': 'unanswerable'\n")
    out = run(tmp_path, "ralm.baseline", f"scripted/rules?file={rules}")
    acc = {m.group["condition"]: m.value for m in out.metrics if m.name == "accuracy"}
    assert acc["closed_book"] == 0.0
    assert 0.0 < acc["clean"] <= 1.0


def test_adversarial_with_poisonedrag_on_litm(tmp_path: Path) -> None:
    out = run(tmp_path, "ralm.adversarial", "scripted/echo", dataset=litm(), poison=poison(), limit=6,
              attacks="random,provided")
    assert out.run_info["suite_notes"]["poisoned_questions"] == 6
    rads = {m.group["condition"]: m for m in out.metrics if m.name == "rad"}
    assert set(rads) == {"random", "provided"}
    # echo repeats the prompt, which contains the gold passage: every clean case is correct,
    # and stays correct, so RAD is exactly 1.
    assert rads["random"].value == 1.0 and rads["random"].n == 6
    provided = [r for r in out.records if r["group"]["condition"] == "provided"]
    assert len(provided) == 6 and all(r["added"].startswith("poisonedrag-nq-") for r in provided)
    assert all(0 <= r["position"] <= 1 for r in provided)


def test_conflict_on_rgb(tmp_path: Path) -> None:
    out = run(tmp_path, "ralm.conflict", "scripted/constant?text=conflict", dataset=rgb(), limit=5,
              k=3)
    m = {x.name: x for x in out.metrics if x.name.startswith("conflict_acc")}
    assert m["conflict_acc_c"].value == 1.0  # always says conflict
    assert m["conflict_acc_nc"].value == 0.0  # ... also when there is none
    assert out.run_info["suite_notes"]["added_documents"] == {"conflict": 5}
    t = {x.name: x for x in out.metrics if x.name.startswith("a_to")}
    assert set(t) == {"a_to_a", "a_to_c", "a_to_u"}


def test_conflict_detection_asks_each_item_in_one_condition(tmp_path: Path) -> None:
    """Paper Table 7: Acc(C) on conflicting examples, Acc(NC) on the others, disjoint; Acc
    over all (their weighted mean). The paired design asks every item both ways."""
    out = run(tmp_path, "ralm.conflict", "scripted/constant?text=conflict", dataset=rgb(),
              limit=12, k=3)
    asked = [r for r in out.records if r["group"]["prompt"] == "conflict"]
    sides = {}
    for r in asked:
        assert r["item_id"] not in sides  # one condition per item
        sides[r["item_id"]] = r["group"]["condition"]
    answerable = {r["item_id"] for r in out.records if r["group"]["answerable"]}
    made = out.run_info["suite_notes"]["added_documents"]["conflict"]
    assert len(sides) == len(answerable) == made == 12
    m = {x.name: x for x in out.metrics if x.name.startswith("conflict_acc")}
    n_c = sum(v == "conflict" for v in sides.values())
    assert m["conflict_acc_c"].n == n_c and m["conflict_acc_nc"].n == 12 - n_c
    assert 0 < n_c < 12
    assert m["conflict_acc"].n == 12 and m["conflict_acc"].value == n_c / 12
    # Stubbornness (Table 8) asks every item with the Normal prompt, clean and conflicting.
    normal = [r for r in out.records if r["group"]["prompt"] == "normal"]
    assert len(normal) == 24
    paired = run(tmp_path / "p", "ralm.conflict", "scripted/constant?text=conflict",
                 dataset=rgb(), limit=12, k=3, conflict_design="paired")
    assert sum(r["group"]["prompt"] == "conflict" for r in paired.records) == 24


def test_document_has_answer_reads_its_text_not_its_title(tmp_path: Path) -> None:
    data = tmp_path / "q.jsonl"
    import json

    data.write_text(json.dumps({"question": "Who wrote Hamlet?", "answers": ["Shakespeare"],
                                "ctxs": [{"id": "1", "title": "Shakespeare",
                                          "text": "A tragedy set in Denmark."}]}) + "\n")
    out = run(tmp_path, "ralm.baseline", "scripted/echo", dataset=str(data), k=1)
    clean = [r for r in out.records if r["group"]["condition"] == "clean"]
    assert clean[0]["group"]["answerable"] is False  # the title names the answer; DPR reads text


def test_items_without_documents_need_a_corpus(tmp_path: Path) -> None:
    from rattle.errors import DataError

    with pytest.raises(DataError) as info:
        run(tmp_path, "ralm.baseline", dataset=poison(), limit=2)
    assert "--corpus" in str(info.value)


def corpus_and_questions(tmp: Path) -> tuple[Path, Path]:
    """Three passages and two questions whose answers are in passages d1 and d2."""
    import json

    corpus = tmp / "c.jsonl"
    corpus.write_text("".join(json.dumps({"id": f"d{i}", "title": t, "text": x}) + "\n" for i, (t, x)
                              in enumerate([("Paris", "Paris is the capital of France."),
                                            ("Japan", "Tokyo is the capital of Japan."),
                                            ("Mars", "Mars is the Red Planet.")])))
    data = tmp / "q.jsonl"
    data.write_text('{"question": "What is the capital of Japan?", "answers": ["Tokyo"]}\n'
                    '{"question": "Which planet is the Red Planet?", "answers": ["Mars"]}\n')
    return corpus, data


def test_retrieval_from_a_corpus(tmp_path: Path) -> None:
    corpus, data = corpus_and_questions(tmp_path)
    out = run(tmp_path, "ralm.adversarial", dataset=str(data), corpus=str(corpus), k=1,
              attacks="topk,random")
    docs = {r["item_id"]: r["documents"] for r in out.records if r["group"]["condition"] == "clean"}
    assert sorted(docs.values()) == [["d1"], ["d2"]]
    assert "bm25" in out.run_info["suite_notes"]["retriever"]


@pytest.mark.embedded
def test_embedded_rad_and_transition_tables_on_poisonedrag(tmp_path: Path) -> None:
    adv = run(tmp_path, "ralm.adversarial", "embedded", dataset=litm(), poison=poison(), limit=6,
              attacks="provided")
    assert any(m.name == "rad" and m.group["condition"] == "provided" for m in adv.metrics)
    con = run(tmp_path, "ralm.conflict", "embedded", dataset=litm(), poison=poison(), limit=6)
    names = {m.name for m in con.metrics}
    assert {"a_to_a", "a_to_c", "a_to_u", "conflict_acc_c", "conflict_acc_nc"} <= names
    assert (tmp_path / "ralm.conflict" / "report.html").is_file()


def test_cli_rag_system_with_a_corpus(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rattle.cli import app

    corpus, data = corpus_and_questions(tmp_path)
    result = CliRunner().invoke(app, ["run", "ralm.adversarial", "--system", "rag", "--corpus",
                                      str(corpus), "--dataset", str(data), "--model",
                                      "scripted/echo", "--param", "k=1", "--param",
                                      "attacks=random,topk", "--out", str(tmp_path / "o"),
                                      "--workspace", str(tmp_path / "w")])
    assert result.exit_code == 0, result.output
    assert "rad" in (tmp_path / "o" / "metrics.csv").read_text()


def test_ralm_against_an_http_system(tmp_path: Path) -> None:
    from tests.systems.test_http import Service

    service = Service()  # answers with the first words of the first document
    try:
        cfg = RunConfig(suite="ralm.adversarial", system="http", workspace=str(tmp_path / "ws"),
                        out=str(tmp_path / "o"), suite_options={"attacks": "random"},
                        system_options={"url": service.url, "answer_path": "result.text",
                                        "template": '{"q": "{question}", "docs": "{documents}"}'})
        out = run_suite(cfg)
    finally:
        service.stop()
    assert {b["q"] for b in service.bodies} >= {"What is the capital of France?"}
    assert all(len(b["docs"]) in (2, 3) for b in service.bodies)  # clean, or one added
    assert any(m.name == "rad" for m in out.metrics)


def test_genadv_with_an_attacker_model(tmp_path: Path) -> None:
    rules = tmp_path / "attacker.yaml"
    rules.write_text(
        "'single sentence using the following question and answer.*Question: (.*?) Answer: (.*?) Sentence:': "
        "'Leonardo da Vinci painted the Mona Lisa in Florence in 1503.'\n"
        "'Rewrite the sentence': 'Raphael painted the Mona Lisa in Rome in 1510.'\n"
        "'write a concise, factual passage': 'The Mona Lisa is a portrait by Raphael, painted in "
        "Rome in 1510 and kept in the Vatican collections for centuries.'\n")
    out = run(tmp_path, "ralm.adversarial", "scripted/echo", limit=7, attacks="genadv",
              attacker=f"scripted/rules?file={rules}", threshold=0.99)
    notes = out.run_info["suite_notes"]
    assert notes["attacker"].startswith("scripted/rules")
    assert notes["added_documents"].get("genadv", 0) >= 1
    added = [r for r in out.records if r["group"]["condition"] == "genadv"]
    assert added and all("Raphael" not in r["gold"][0] for r in added)
    # The attacker's answers are cached in the store: a second run asks it nothing new.
    again = run(tmp_path, "ralm.adversarial", "scripted/echo", limit=7, attacks="genadv",
                attacker=f"scripted/rules?file={rules}", threshold=0.99)
    assert again.run_info["suite_notes"]["added_documents"] == notes["added_documents"]


def test_hub_qa_sets_map_their_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from rattle.datasets import load_dataset

    rows = {"akariasai/PopQA": [{"question": "Who wrote X?", "possible_answers": '["A", "B"]'}],
            "mandarjoshi/trivia_qa": [{"question": "Q?", "answer": {"aliases": ["x", "y"]}}]}
    fake = types.SimpleNamespace(load_dataset=lambda hub_id, config, split: rows[hub_id])
    monkeypatch.setitem(sys.modules, "datasets", fake)
    assert load_dataset("popqa:hub")[0].answers == ("A", "B")
    tqa = load_dataset("triviaqa:hub")[0]
    assert tqa.question == "Q?" and tqa.answers == ("x", "y")
