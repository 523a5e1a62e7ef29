"""Converters from the 12 RCC datasets' native formats (reference-implementations.md §2.3)."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest

from rattle.datasets import load_dataset
from rattle.datasets.rcc import write_primitive
from rattle.datasets.rcc_convert import convert
from rattle.errors import ConfigError, DataError
from tests.conftest import external

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rcc_raw"
RAW = ("LLMRiskEval_RCC", "Datasets", "Raw_Data")

# The authors' item counts and option-count histograms where the protocol is deterministic.
EXPECTED = {
    "aqua": ("AQuA.jsonl", 254, {5: 135, 6: 119}),
    "creak": ("Creak.jsonl", 1371, {3: 1371}),
    "ecqa": ("ECQA.csv", 2194, {5: 1209, 6: 985}),
    "qasc": ("QASC.jsonl", 926, {8: 508, 9: 418}),
    "senmaking": ("SenMaking.jsonl", 2021, {4: 2021}),
}


@pytest.mark.parametrize("fmt", sorted(EXPECTED))
def test_raw_files_reproduce_the_authors_counts(fmt: str) -> None:
    name, n, hist = EXPECTED[fmt]
    items = convert(fmt, str(external(*RAW, name)))
    assert len(items) == n
    assert dict(collections.Counter(len(q.options) for i in items for q in i.questions)) == hist
    for item in items:
        for q in item.questions:
            assert q.options[q.correct or 0].kind == "GroundTruth"
            assert sorted(q.order) == list(range(len(q.options)))


def test_gsm8k_socratic_steps_and_final_claim() -> None:
    items = convert("gsm8k", str(external(*RAW, "GSM8K_socratic.jsonl")), limit=5)
    first = items[0]
    assert first.passage is not None and first.passage.endswith("duck egg.")
    assert first.questions[0].text == "How many eggs does Janet sell?"
    assert first.questions[0].answers == ("Janet sells 16 - 3 - 4 = 9 duck eggs a day.",)
    final = first.questions[-1]
    assert final.text.startswith('The answer to question "How much in dollars does she make')
    assert "####" not in final.text
    assert final.answers[0] in ("True", "False") and final.answer_type == "tf"
    text_q = first.questions[0]
    kinds = [o.kind for o in text_q.options]
    assert kinds[:4] == ["GroundTruth", "Text Augmentation", "Formula Error", "Mask CorrectAnswer"]
    assert "Irrelevant Chain" in kinds


def test_gsm8k_item_count() -> None:
    assert len(convert("gsm8k", str(external(*RAW, "GSM8K_socratic.jsonl")), options=False)) == 1319


def test_gsm8k_final_claims_are_built_as_the_authors_did() -> None:
    """'is "<answer>"' (True) or 'is not "<answer>"' (False), drawn 50/50 per item, always with
    the gold answer (reference-implementations.md §2.3), never a made-up wrong number."""
    path = external(*RAW, "GSM8K_socratic.jsonl")
    items = convert("gsm8k", str(path), options=False)
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    counts = collections.Counter()
    for item, row in zip(items, rows, strict=True):
        final = item.questions[-1]
        gold = row["answer"].split("\n")[-1].replace("####", "").strip()
        truth = final.answers[0]
        counts[truth] += 1
        if truth == "True":
            assert final.text.endswith(f'" is "{gold}", is it right?')
        else:
            assert truth == "False" and final.text.endswith(f'" is not "{gold}", is it right?')
    assert counts == {"True": 676, "False": 643}  # seed 0
    again = convert("gsm8k", str(path), options=False, seed=1)
    assert collections.Counter(i.questions[-1].answers[0] for i in again) == {"True": 678,
                                                                             "False": 641}


def test_noahqa_final_claims_are_drawn_is_or_is_not(tmp_path: Path) -> None:
    rows = [{"id": f"n{k}", "passage": [{"index": 0, "text": f"Tom has {k} pens."}],
             "qa_pairs": [{"question": "How many pens first?", "ans": str(k)},
                          {"question": f"How many pens after buying {k}?", "ans": str(2 * k)}]}
            for k in range(200)]
    path = tmp_path / "noah.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    items = convert("noahqa", str(path), options=False)
    finals = [i.questions[-1] for i in items]
    for k, q in enumerate(finals):
        claim = "is not" if q.answers == ("False",) else "is"
        assert q.text == (f'The answer to question "How many pens after buying {k}?" {claim} '
                          f'"{2 * k}", is it right?')
    assert collections.Counter(q.answers[0] for q in finals) == {"True": 104, "False": 96}


def qed_rows_from_the_authors_primitive() -> tuple[list[dict], list[list[str]]]:  # type: ignore[type-arg]
    """Raw QED rows rebuilt from the authors' shipped primitive (raw QED is not shipped):
    question without its '?', answer; and the authors' option types per item."""
    data = json.loads(external("LLMRiskEval_RCC", "Datasets", "Generator_out", "QED.json")
                      .read_text(encoding="utf-8"))
    rows, kinds = [], []
    for key, record in data.items():
        sub = record["sub-qa"][0]
        rows.append({"example_id": int(key), "question_text": sub["question"][:-1],
                     "original_nq_answers": [[{"string": sub["answer"]}]]})
        kinds.append([o["option_type"] for o in sub["options"]])
    return rows, kinds


def test_qed_options_are_the_authors(tmp_path: Path) -> None:
    rows, theirs = qed_rows_from_the_authors_primitive()
    path = tmp_path / "qed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    items = convert("qed", str(path))
    ours = [[o.kind for o in i.questions[0].options] for i in items]
    assert ours == theirs  # GroundTruth, 2 Irrelevant Chain, Text Augmentation (+1 chain for text)
    assert collections.Counter(len(k) for k in ours) == {4: 273, 5: 1082}
    for item in items:
        q = item.questions[0]
        texts = [o.text for o in q.options]
        assert len(set(texts)) == len(texts)  # no option repeats another (the authors' 234 did)
        if " " not in q.answers[0]:  # one-token answers: the authors' augmentation is "None"
            assert texts[3] == "None"
        assert len(texts) >= 4  # never a single option for a one-word answer


def test_fixture_formats() -> None:
    sqa = load_dataset(f"strategyqa:{FIXTURES / 'strategyqa.json'}")
    assert sqa[0].passage == "Mars has a very thin atmosphere. Humans need pressure and oxygen to survive."
    assert [o.text for o in sqa[0].questions[0].options] == ["False", "True", "Unable to determine"]
    nli = load_dataset(f"esnli:{FIXTURES / 'esnli.csv'}")
    assert nli[1].questions[0].answers == ("contradiction",)
    assert nli[0].passage == "Premise: A man plays a guitar on stage. \n Hypothesis: A man plays music."
    qed = load_dataset(f"qed:{FIXTURES / 'qed.jsonl'}")
    assert qed[0].passage is None and qed[0].questions[0].text == "who wrote the novel moby dick?"
    assert qed[0].questions[0].options[-1].kind == "Irrelevant Chain"
    noah = load_dataset(f"noahqa:{FIXTURES / 'noahqa.jsonl'}")
    assert noah[0].passage == "Tom has 2 pens. He buys 3 more."
    assert [q.answer_type for q in noah[0].questions] == ["number", "tf"]
    assert len({o.text for o in noah[0].questions[0].options}) == 5  # distinct distractors


def test_babi_word_options_follow_part_of_speech() -> None:
    b15 = load_dataset(f"babi15:{FIXTURES / 'babi15.txt'}")
    assert len(b15) == 2 and len(b15[0].questions) == 4
    q = b15[0].questions[0]
    assert q.text == "What is emily afraid of?" and q.answers == ("wolf",)
    # Same POS as the answer, never its plural; matches the authors' bAbI-15 item 0 options.
    assert [o.text for o in q.options] == ["wolf", "mice", "sheep", "cats", "mouse"]
    b16 = load_dataset(f"babi16:{FIXTURES / 'babi16.txt'}")
    assert len(b16) == 3 and b16[0].questions[0].answers == ("yellow",)
    assert {"gray", "green"} <= {o.text for o in b16[0].questions[0].options}


def test_options_are_deterministic_and_seeded(tmp_path: Path) -> None:
    src = str(external(*RAW, "AQuA.jsonl"))
    a, b = convert("aqua", src, limit=30), convert("aqua", src, limit=30)
    assert a == b
    c = convert("aqua", src, limit=30, seed=1)
    assert [q.order for i in a for q in i.questions] != [q.order for i in c for q in i.questions]
    write_primitive(a, tmp_path / "aqua.json")
    again = load_dataset(str(tmp_path / "aqua.json"))
    assert [q.options for i in again for q in i.questions] == [q.options for i in a for q in i.questions]


def test_bad_raw_input() -> None:
    with pytest.raises(ConfigError):
        convert("nosuch", "x")
    with pytest.raises(DataError) as info:
        convert("creak", str(FIXTURES / "qed.jsonl"))
    assert "qed.jsonl:1" in str(info.value) and "sentence" in str(info.value)
