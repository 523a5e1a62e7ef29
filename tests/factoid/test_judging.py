"""Verdict parsing, contradiction detection, the free-form judges and their agreement."""

from __future__ import annotations

import pytest

from rattle.judges.claims import (FreeformCase, LLMJudge, RuleJudge, agreement, contradiction,
                                  labelled_cases, parse_label, verdict)

VERDICTS = [
    ("Yes, that's correct.", True),
    ("Yes.", True),
    ("Correct! The O2 was the busiest arena in 2008.", True),
    ("That is correct. Bugs Bunny is the mascot.", True),
    ("You are right! It opened in 2007.", True),
    ("Indeed, Dumas wrote it in 1844.", True),
    ("The statement is accurate.", True),
    ("No. Dumas was born in 1802.", False),
    ("No, that is not right.", False),
    ("Incorrect: the arena is indoors.", False),
    ("The statement is false.", False),
    ("That's not accurate; the final was in Paris.", False),
    ("Yes, but actually Dumas was born in 1802, not 1822.", False),  # yes-but-corrects
    ("Mostly right, although the year was 1959.", False),
    ("Partially correct: it is an indoor arena.", False),
    ("This is an exaggeration; he won eight medals.", False),
    ("I'm not sure.", None),  # hedge
    ("It is difficult to say without more context.", None),
    ("I cannot verify that claim.", None),  # refusal
    ("As an AI, I don't have access to the internet.", None),
    ("The O2 is a large venue in London.", None),  # no verdict
    ("", None),
]


@pytest.mark.parametrize(("reply", "expected"), VERDICTS, ids=[v[0][:30] or "empty" for v in VERDICTS])
def test_verdict(reply: str, expected: bool | None) -> None:
    assert verdict(reply) is expected


def test_contradiction_is_affirming_while_stating_the_fact() -> None:
    reply = ("Yes, indeed! On November 10, 2019, the final took place at the AccorHotels Arena "
             "in Paris, France.")
    claim = "FPX won the 2019 League of Legends World Championship, whose final was held in Seoul."
    assert contradiction(reply, "the final was held in Paris", verdict(reply), claim)
    assert not contradiction("No, it was held in Paris.", "the final was held in Paris", False, claim)
    assert not contradiction("Yes, FPX won.", "the final was held in Paris", True, claim)
    assert contradiction("Yes. He was born in Villers-Cotterêts in 1802.",
                         "Alexandre Dumas: who was born in 1802 in Villers-Cotterêts", True,
                         "... Alexandre Dumas, who was born in 1822 in Villers-Cotterêts, ...")


def test_rule_judge_agreement_on_the_labelled_replies() -> None:
    cases = labelled_cases()
    assert len(cases) >= 60
    assert {c.label for c in cases} == {"correct", "accepts_error", "unmeasured"}
    judge = RuleJudge()
    result = agreement([c.label for c in cases], [judge.label(c) for c in cases])
    assert result["n"] == len(cases)
    # 63 of 64: the one miss is an "is indeed ..." affirmation followed by the right birth year,
    # which the labels call accepting the error (docs/architecture.md)
    assert result["accuracy"] == pytest.approx(63 / 64) and result["kappa"] >= 0.95


def test_agreement_hand_computed() -> None:
    gold = ["correct", "correct", "accepts_error", "unmeasured"]
    pred = ["correct", "accepts_error", "accepts_error", "unmeasured"]
    # observed 3/4; chance = (2/4)(1/4) + (1/4)(2/4) + (1/4)(1/4) = 5/16
    got = agreement(gold, pred)
    assert got["accuracy"] == 0.75
    assert got["kappa"] == pytest.approx((0.75 - 5 / 16) / (1 - 5 / 16))


def test_llm_judge_prompt_and_labels() -> None:
    judge = LLMJudge("openai/judge")
    case = FreeformCase("Water boils at over 120 degrees Celsius at sea level.", False,
                        "the number is 100", "Yes.")
    prompt = judge.prompt(case)
    assert "The statement is false." in prompt and "the number is 100" in prompt
    assert judge.name == "claims.llm@1[openai/judge]"
    assert parse_label("CORRECT") == "correct"
    assert parse_label("accepts_error.") == "accepts_error"
    assert parse_label("INCORRECT") == "accepts_error"
    assert parse_label("I think UNMEASURED") == "unmeasured"
    assert parse_label("banana") == "unmeasured"
