"""The judge-model fallback: rules first, the model only for unparsed replies, a strict parse,
and its agreement through the same harness (driven by the shipped scripted model)."""

from __future__ import annotations

import json
from pathlib import Path

from rattle.judges.fallback import (FALLBACK_VERSION, ModelFallback, Resolved,
                                    model_agreement_for, parse_letter, parse_word)
from rattle.models.base import ChatRequest, Completion

OPTIONS = ["Paris", "Lyon", "Nice"]
ROWS = [
    {"id": "r1", "question": "Which city?", "options": OPTIONS, "reply": "(C)", "label": "C"},
    {"id": "r2", "question": "Which city?", "options": OPTIONS,
     "reply": "Me quedo con la segunda.", "label": "B"},
    {"id": "r3", "question": "Which city?", "options": OPTIONS, "reply": "Hmm.", "label": None},
    {"id": "r4", "question": "Which city?", "options": OPTIONS, "reply": "Whatever works.",
     "label": "A"},
]


def drive(flow, answer: str | None) -> tuple[list[ChatRequest], Resolved]:  # type: ignore[no-untyped-def]
    asked = []
    try:
        request = next(flow)
        asked.append(request)
        flow.send(Completion(answer or ""))
    except StopIteration as stop:
        return asked, stop.value
    raise AssertionError("the flow asked twice")


def test_rules_decide_first_and_the_model_only_when_they_cannot() -> None:
    judge = ModelFallback("scripted/echo")
    asked, got = drive(judge.flow("choice", ROWS[0]), None)
    assert asked == [] and got == Resolved("C", "rules:only")
    asked, got = drive(judge.flow("choice", ROWS[1]), "B")
    assert len(asked) == 1 and got == Resolved("B", f"fallback@{FALLBACK_VERSION}[scripted/echo]")
    prompt = asked[0].messages[-1].content
    assert "(B) Lyon" in prompt and "Me quedo con la segunda." in prompt and "A, B, C" in prompt
    assert drive(judge.flow("choice", ROWS[2]), "NONE")[1].label is None
    # an answer outside the strict format leaves the rules' result (unmeasured)
    assert drive(judge.flow("choice", ROWS[3]), "I think A")[1] == Resolved(None, "rules:unparsed")


def test_model_first_asks_about_every_reply() -> None:
    judge = ModelFallback("scripted/echo", model_first=True)
    asked, got = drive(judge.flow("verdict", {"claim": "c", "reply": "Yes."}), "REJECT")
    assert len(asked) == 1 and got.label == "reject"


def test_strict_parsers() -> None:
    assert [parse_letter(t, 3) for t in ("B", "(c)", " A. ", "D", "B or C", "NONE")] == \
        ["B", "C", "A", None, None, None]
    assert parse_word("ACCEPT", "verdict") == "accept"
    assert parse_word("conflict.", "conflict") == "conflict"
    assert parse_word("ANSWER", "verdict") is None
    assert parse_word("ABSTAIN or ANSWER", "abstain") is None


def test_agreement_with_a_scripted_judge(tmp_path: Path) -> None:
    labels = tmp_path / "labels"
    labels.mkdir()
    (labels / "choice.letter.dev.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    rules = tmp_path / "judge.yaml"
    rules.write_text("'la segunda': 'B'\n'Hmm': 'NONE'\n'.*': 'I think A'\n")
    got = model_agreement_for("choice.letter", f"scripted/rules?file={rules}", directory=labels)
    # r1 by the rules, r2 and r3 by the judge, r4 unparsed by both
    assert (got.n, got.accuracy, got.misses) == (4, 0.75, ("r4",))
    assert got.extractor.startswith(f"fallback@{FALLBACK_VERSION}[scripted/rules")
