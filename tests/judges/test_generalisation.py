"""Rule families added so the extractors generalise beyond the replies they were written on
(docs/judging.md): letters checked against the text beside them, replies that leave the choice
open, options named by position, worked numeric replies, markup, more languages, RALM replies
that are unusable. Each case is hand-built; each expected value follows from the procedure."""

from __future__ import annotations

from typing import Literal

import pytest

from rattle.judges import numbers, signals
from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.ralm import classify_reply, unusable
from rattle.judges.reply import prepare

CITIES = ["New Zealand", "Australia", "South Africa", "Argentina"]
TF = ["True", "False", "Unable to determine"]  # A=True, B=False, C=Unable to determine
NUM = ["8", "9", "17", "26", "0"]


@pytest.mark.parametrize(("reply", "options", "index", "how"), [
    # a letter must agree with the option text, value or verdict beside it
    ("The answer is (A) Australia.", CITIES, None, "conflicting"),
    ("The answer is (B) Australia.", CITIES, 1, "answer-is"),
    ("D) 8", NUM, None, "conflicting"),
    ("Answer: A (8)", NUM, 0, "label"),
    ("Yes, (B).", TF, None, "conflicting"),
    ("8 + 9 = 17, so the answer is B.", NUM, None, "conflicting"),
    # options named by position, a lone letter in any language, a tick before the letter
    ("I'd go with the last option.", CITIES, 3, "choose"),
    ("The second one.", CITIES, 1, "only"),
    ("התשובה הנכונה היא B.", CITIES, 1, "lone-letter"),
    ("✅ C — South Africa\n❌ A, B, D", CITIES, 2, "letter-is"),
    ("The answer is Vitamin D.", ["Vitamin A", "Vitamin C", "Vitamin D", "Vitamin E"], 2,
     "text-answer"),
    # replies that leave the choice open, or stop
    ("Either A or C would work, depending on what you want.", CITIES, None, "ambiguous"),
    ("None of the listed countries fits; it's Japan.", CITIES, None, "none-fits"),
    ("Great question! Australia and New Zealand both had early votes, while", CITIES, None,
     "cut-off"),
    ("A. New Zealand B. Australia C. South Africa D. Argentina", CITIES, None, "echo-options"),
    ("Maybe Australia? Or was it Argentina?", CITIES, None, "hedge"),
    # markup
    ("<answer>D</answer>", CITIES, 3, "only"),  # read as "Answer: D."
    ("| Option | Verdict |\n|---|---|\n| A | ✗ |\n| B | ✓ |", CITIES, 1, "letter-is"),
])
def test_letters(reply: str, options: list[str], index: int | None, how: str) -> None:
    got = extract_choice(reply, options)
    assert (got.index, got.how) == (index, how)


@pytest.mark.parametrize(("reply", "question", "index"), [
    # the main line's value, not the aside or the remark
    ("All but 9 run away, so 9 stay. It's tempting to compute 17 - 9 = 8, but that's wrong.",
     "", 1),
    ("17 - 8 = 9. (If you subtract the other way you'd get -9.)", "", 1),
    ("So 9. The other 8 ran off.", "", 1),
    ("x = 8 (we discard -8 because x must be positive).", "Solve x^2 = 64 for x.", 0),
    ("The total is 26 sheep, since 17 + 9 = 26.", "How many sheep in total?", 3),
])
def test_worked_numeric_replies(reply: str, question: str, index: int) -> None:
    assert extract_choice(reply, NUM, question=question).index == index


def test_numeric_forms() -> None:
    assert extract_choice("0.25 = 25/100, which simplifies to 1/4.",
                          ["1/4", "25/100", "2/5"]).index == 0  # the form written
    assert extract_choice("30 cents", ["$0.30", "$0.36", "$3.00"]).index == 0
    assert extract_choice("an eighth", ["1/6", "3/4", "1/8"]).index == 2
    assert extract_choice("La risposta è 2,5.", ["2.5", "3", "2", "25"]).index == 0
    assert extract_choice("150 minutes = 2 1/2 hours.", ["1.5", "2", "2.5"]).index == 2
    assert [v.value for v in numbers.values("1,2,3 and 1,500")] == [1.0, 2.0, 3.0, 1500.0]


@pytest.mark.parametrize(("reply", "index", "how"), [
    ("Right? No — a 2–2 score is a draw.", 1, "yesno-no"),
    ("Not quite. In total darkness they can't see. So the statement is false.", 1,
     "yesno-conclusion"),
    ("Yes, except that it was 1945, not 1944.", 1, "yesno-no"),
    ("Not necessarily — he could have borrowed one.", 2, "yesno-undetermined"),
    ("The passage doesn't say whether it was correct.", 2, "yesno-undetermined"),
    ("Sim, é verdade.", 0, "yesno-yes"),
    ("Ne, to není pravda.", 1, "yesno-no"),
    ("❌", 1, "yesno-no"),
    ("(A) False", None, "conflicting"),
])
def test_yes_no_items(reply: str, index: int | None, how: str) -> None:
    got = extract_choice(reply, TF, question="World War II ended in 1944, is it right?")
    assert (got.index, got.how) == (index, how)


def test_a_reply_that_sets_a_word_of_the_claim_aside() -> None:
    q = "Tigers are native to Africa, is it right?"
    assert extract_choice("They're native to Asia, not Africa.", TF, question=q).index == 1
    # restating the claim with another name in its place sets the claim's word aside too
    assert extract_choice("They're native to Asia.", TF, question=q).index == 1
    assert extract_choice("They're big cats.", TF, question=q).index is None
    assert extract_choice("They're native to Africa and Asia.", TF, question=q).index is None
    assert verdict("Dumas was born in 1802, not 1822.", claim="Dumas was born in 1822.") is False
    assert verdict("Dumas was born in 1802, not 1822.") is None


@pytest.mark.parametrize(("reply", "expected"), [
    ("Right year, wrong city: it was Berlin, not Rome.", False),
    ("Correct me if I'm wrong, but it was Emily Brontë. So the statement is not correct.", False),
    ("I believe so, but I could be wrong.", True),
    ("Yes. Wait, no — the Treaty was signed in 1919, not 1918.", False),
    ("Verdict: ✅", True),
    ("Yes No The 2016 Olympic Games were held in Rio", None),
    ("Orwell is indeed the author, but I'd need to double-check the year before I could "
     "confirm the statement.", None),
    ("That's just a saying.", False),
    ("Surprisingly true: both have seven.", True),
])
def test_verdicts(reply: str, expected: bool | None) -> None:
    assert verdict(reply) is expected


def test_verdict_loop_that_says_no_then_the_claim() -> None:
    reply = ("No, Othello is set in Denmark. Othello is a play by William Shakespeare. The play "
             "is set in Denmark and it is very sad. Othello is set in")
    assert verdict(reply) is False  # without the claim: the opener decides
    assert verdict(reply, claim="Shakespeare's Othello is set primarily in Denmark.") is None


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    ("Nicht beantwortbar.", "unans", "abstain"),
    ("La información no está en los documentos.", "unans", "abstain"),
    ("I don't see the author's name anywhere in the provided documents.", "unans", "abstain"),
    ("Isaac Newton is usually credited, though the documents don't say so.", "unans", "answer"),
    ("Unanswerable questions aside, the answer is Winston Churchill.", "unans", "answer"),
    ("Charles III, although the documents never state this, so it might be unanswerable.",
     "unans", None),
    ("Jupiter Jupiter unanswerable the Great Red Spot is a planet planet", "unans", None),
    ("unanswerable unanswerable. The question is about Nintendo. unanswerable", "unans",
     "abstain"),
    ("I can't help with that request.", "unans", None),
    ("Answer: Answer:", "unans", None),
    ("Document 1: 1905. Document 2: 1906.", "conflict", "conflict"),
    ("It's 1905; Document 2's 1906 appears to be a typo.", "conflict", "conflict"),
    ("Widersprüchliche Angaben: 100 km/h laut Dokument 1, 120 km/h laut Dokument 2.", "conflict",
     "conflict"),
    ("Slightly different values, but that's just rounding, not a real conflict. About 300,000.",
     "conflict", "answer"),
    ("There's disagreement among historians, but the documents all say 1453.", "conflict",
     "answer"),
    ("Maybe a conflict? Not sure. Possibly 1776.", "conflict", None),
])
def test_ralm_broad(reply: str, prompt: Literal["unans", "conflict"], label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label


def test_paper_mode_keeps_the_papers_strings() -> None:
    # the broad mode's unmeasured replies are still read by the strings in paper mode
    assert unusable("I can't help with that request.") == "refusal"
    assert classify_reply("I can't help with that request.", mode="paper") == "answer"
    assert classify_reply("Nicht beantwortbar.", mode="paper") == "answer"
    assert classify_reply("Answer: Answer:", mode="paper") is None  # no content either way


def test_signals_and_markup() -> None:
    assert signals.cut_off("The answer is the bird that") and signals.cut_off("Then add:")
    assert not signals.cut_off("5 × 2.732 = 13.66 ≈ 13.7 → A")
    assert signals.degenerate("Avatar Avengers Endgame Avatar conflict Avatar Titanic")
    assert not signals.degenerate("(2√3)^2 = 2^2 · (√3)^2 = 4 · 3 = 12")
    assert signals.undecided("Both A and D are good options.")
    assert not signals.undecided("The answer is B. A or C are wrong.")
    assert signals.none_fits("So the question seems to be missing the right option.")
    assert not signals.none_fits("None of the other options fit.")
    assert prepare("<p>The answer is <strong>C</strong>.</p>") == "The answer is C."
