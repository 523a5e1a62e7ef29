"""The RCC data primitive: lossless round trip and the authors' counts (reference §2.3)."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from rattle.datasets import load_dataset
from rattle.datasets.rcc import read_primitive, write_primitive
from rattle.errors import DataError
from tests.conftest import external

# items, sub-questions, option-count histogram (reference-implementations.md §2.3)
COUNTS = {
    "AQuA": (254, 254, {5: 135, 6: 119}),
    "Creak": (1371, 1371, {3: 1371}),
    "ECQA": (2194, 2194, {5: 1209, 6: 985}),
    "QASC": (926, 926, {8: 508, 9: 418}),
    "QED": (1355, 1355, {4: 273, 5: 1082}),
    "SenMaking": (2021, 2021, {4: 2021}),
    "StrategyQA": (2290, 2290, {3: 2290}),
    "bAbi15": (250, 1000, {5: 1000}),
    "bAbi16": (1000, 1000, {5: 1000}),
}


@pytest.mark.parametrize("name", sorted(COUNTS))
def test_counts_and_lossless_round_trip(name: str, tmp_path: Path) -> None:
    path = external("LLMRiskEval_RCC", "Datasets", "Generator_out", f"{name}.json")
    items = read_primitive(path)
    n_items, n_subs, hist = COUNTS[name]
    assert len(items) == n_items
    assert sum(len(i.questions) for i in items) == n_subs
    assert dict(collections.Counter(len(q.options) for i in items for q in i.questions)) == hist
    for item in items[:50]:
        for q in item.questions:
            assert sorted(q.order) == list(range(len(q.options)))
            assert q.options[q.correct or 0].kind == "GroundTruth"
    out = tmp_path / "copy.json"
    write_primitive(items, out)
    assert json.loads(out.read_text()) == json.loads(path.read_text())


def test_passage_none_and_empty_are_kept() -> None:
    qed = read_primitive(external("LLMRiskEval_RCC", "Datasets", "Generator_out", "QED.json"))
    assert qed[0].passage is None
    ecqa = read_primitive(external("LLMRiskEval_RCC", "Datasets", "Generator_out", "ECQA.json"))
    assert ecqa[0].passage == ""


def test_bad_primitive_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"0": {"passage": "p", "sub-qa": [{"question": "q", "options": [
        {"option_type": "GroundTruth", "option_describe": "a"}], "input": [0, 1]}]}}))
    with pytest.raises(DataError) as info:
        load_dataset(str(bad))
    assert "bad.json" in str(info.value) and "0.sub-qa[0].input" in str(info.value)


def test_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "latin.jsonl"
    bad.write_bytes(b'{"question": "caf\xe9", "answers": ["x"]}\n')
    with pytest.raises(DataError) as info:
        load_dataset(str(bad))
    assert "latin.jsonl:1: not UTF-8" in str(info.value)


def test_builtin_sets_load() -> None:
    mc = load_dataset("mini-mc")
    assert len(mc) == 12 and all(q.options for i in mc for q in i.questions)
    qa = load_dataset("mini-qa")
    assert len(qa) == 10 and all(any(d.has_answer for d in i.documents) for i in qa)


def test_litm_oracle_reads_as_dpr() -> None:
    items = load_dataset(str(external("lost-in-the-middle", "qa_data", "nq-open-oracle.jsonl.gz")),
                         limit=20)
    assert len(items) == 20
    assert all(i.answers and len(i.documents) == 1 and i.documents[0].has_answer for i in items)
