"""The rule families generalised for the third dev file and three fresh rounds
(docs/judging.md, "Third round"): each with phrasings of its own, not the files' replies."""

from __future__ import annotations

import pytest

from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.numbers import values
from rattle.judges.ralm import classify_reply, has_content, unusable
from rattle.judges.reply import first_item

PLANETS = ["Mercury", "Venus", "Earth", "Mars"]
NUMS = ["12", "15", "18", "21"]
TF = ["False", "Unable to determine", "True"]  # A False, B Unable to determine, C True


@pytest.mark.parametrize(("reply", "options", "index", "how"), [
    # a model that goes on with exercises of its own: the first answer counts
    ("C\n\nQuestion 2: Which planet is hottest?\nAnswer: B", PLANETS, 2, "only"),
    ("Answer: D\n\n### Exercise 3\nWhich is smallest? Answer: A", PLANETS, 3, "label"),
    # a leading repetition of the prompt (question, then every option) is skipped
    ("Which planet do we live on?\n(A) Mercury\n(B) Venus\n(C) Earth\n(D) Mars\nC. Earth",
     PLANETS, 2, "only"),
    # closing arrows and a last sentence that is only a letter
    ("Mars is red because of iron oxide => D", PLANETS, 3, "arrow"),
    ("It is the third planet from the Sun. C", PLANETS, 2, "last-line"),
    # a bare letter ending a concluding sentence; relative-clause negation in NOT-questions
    ("Therefore the planet we want is C.", PLANETS, 2, "conclusion"),
    ("So the one that doesn't have a moon is (A).", PLANETS, 0, "conclusion"),
    # negation over a list, a name by its last word
    ("Neither (A) nor (B) — it's Earth.", PLANETS, 2, "text-answer"),
    # the reply declines to pick; a letter offered as a second guess
    ("Honestly I can't choose one here; they all have merit.", PLANETS, None, "refusal"),
    ("It's impossible to predict which one.", PLANETS, None, "refusal"),
    ("I'd say B. Or maybe C, I'm torn.", PLANETS, None, "hedge"),
    ("Either C或D都可以。", PLANETS, None, "hedge"),
    # a unit after a degree sign is no letter; "Washington, D.C." ends on no letter
    ("Water boils at 100 °C.", ["100 °C", "90 °C", "80 °C", "0 °C"], 0, "value-last"),
    ("It is cold: about 5 °C.", ["Cold", "Hot"], 0, "text-answer"),
])
def test_letters(reply: str, options: list[str], index: int | None, how: str) -> None:
    got = extract_choice(reply, options, question="Which planet do we live on?")
    assert (got.index, got.how) == (index, how)


def test_an_option_named_by_its_last_word() -> None:
    painters = ["Claude Monet", "Edgar Degas", "Paul Cézanne", "Henri Matisse"]
    assert extract_choice("Not Monet — it was Degas who painted dancers.", painters).index == 1
    assert extract_choice("Degas.", painters).index == 1


@pytest.mark.parametrize(("reply", "index", "how"), [
    ("3 × 5 = 15. Answer: D", None, "conflicting"),  # the computed result is (B), not (D)
    ("Fifteen. Answer: A", None, "conflicting"),
    ("9 + 6 = 15 → B", 1, "arrow"),
    ("Not A, C or D — 9 + 6 = 3 × 5, so it's B.", 1, "it-is"),  # "3 × 5" is a step, not a value
    ("The answer is: A) 12 B) 15 C) 18 D) 21", None, "echo-options"),
    ("x = 12 or x = 18", None, "ambiguous"),
    ("Final answer: 15, 18", None, "ambiguous"),
    ("It's 15, or maybe 18?", None, "ambiguous"),
    ("9 + 6 = 15. Hmm, or is it 18? I'm not sure.", None, "hedge"),
])
def test_numeric_values(reply: str, index: int | None, how: str) -> None:
    got = extract_choice(reply, NUMS, question="Solve for x: x − 6 = 9")
    assert (got.index, got.how) == (index, how)


def test_numbers_in_more_forms() -> None:
    assert [v.value for v in values("Le total est de 12 500 € hors taxes.")] == [12500.0]
    assert [v.value for v in values("100 200 300")] == [100.0, 200.0, 300.0]  # no money: a list
    assert [v.value for v in values("Half of 90 is forty-five.")] == [90.0, 45.0]
    assert [v.value for v in values("It takes 3 hours, in two trips.")] == [3.0]
    # 0.625 is exactly 62.5%, before it rounds to 0.63
    assert extract_choice("5/8 = 0.625", ["0.63", "62.5%", "0.58", "6.25"]).index == 1
    # number words as options make the item numeric: the count the question asks for checks
    # the letter
    got = extract_choice("A square has 4 sides. Answer: C", ["Three", "Four", "Five", "Six"],
                         question="How many sides does a square have?")
    assert got.how == "conflicting"


@pytest.mark.parametrize(("reply", "index"), [
    ("No, it's Paris. The answer is C.", None),  # the plain opening verdict is no, (C) is True
    ("Yes. Answer: False", None),
    ("Probably yes, but strictly the text doesn't say, so it's unable to determine.", 1),
    ("The statement is wrong → False", 0),
    ("False, that's a myth. Answer: (True)", None),
    ("Nu se poate determina din text.", 1),
    ("Ezin da zehaztu.", 1),
    ("Not every bird can fly.", 0),
    ("It's the reverse: the Moon orbits Earth. That's backwards.", 0),
    ("That's an old saying, but the evidence is mixed.", None),
    ("True that he was born there, but the year is not given, so it cannot be determined.", 1),
    ("True\nFalse\nUnable to determine True False", None),
])
def test_yes_no(reply: str, index: int | None) -> None:
    assert extract_choice(reply, TF, question="The Sun orbits the Earth, is it right?").index \
        == index


def test_yes_no_against_the_question() -> None:
    q = "Is Lima the capital of Chile?"
    assert extract_choice("The capital of Chile is Santiago.", TF, question=q).index == 0
    assert extract_choice("It's the capital of Peru.", TF, question=q).index == 0
    assert extract_choice("Lima is a big city.", TF, question=q).index is None
    q = "The Battle of Hastings was in 1066, is it right?"
    assert extract_choice("Yes, in 1067. Wait, no — 1066 is correct.", TF, question=q).index == 2


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("True that it is large, but it is not the largest.", "Canada is the largest country.", False),
    ("Granted, he wrote plays, but no — Hamlet is by Shakespeare.", "Marlowe wrote Hamlet.",
     False),
    ("It's true that Rome is in Italy, although it was founded long ago.", "Rome is in Italy.",
     True),
    ("Not wrong at all — it's the capital.", "Rome is the capital of Italy.", True),
    ("No question about it.", "Rome is the capital of Italy.", True),
    ("It did.", "The Berlin Wall fell in 1989.", True),
    ("I think it's probably false.", "The Berlin Wall fell in 1991.", False),
    ("The Berlin Wall fell in 1989.", "The Berlin Wall fell in 1991.", False),
    ("Jupiter is the largest planet; Saturn is second.", "Saturn is the largest planet.", False),
    ("Rome is the capital of Italy and its largest city.", "Rome is the capital of Italy.", True),
    ("Rome is the capital of Italy? I'm not sure.", "Rome is the capital of Italy.", None),
    ("Rome is not the capital.", "Rome is the capital of Italy.", False),
    ("Paris is not in Italy.", "Paris is not in Italy.", True),
    ("Áno.", "Rome is in Italy.", True),
    ("Nē.", "Rome is in Spain.", False),
])
def test_verdicts(reply: str, claim: str, expected: bool | None) -> None:
    assert verdict(reply, claim=claim) is expected


def test_a_claim_that_opens_with_a_verdict_word_is_read_against_itself() -> None:
    claim = "True Grit is a 1969 western starring John Wayne."
    assert verdict("True Grit is a 1969 western starring John Wayne.", claim=claim) is True
    assert verdict("True Grit is a 1975 western starring John Wayne.", claim=claim) is False
    assert verdict("True Grit is a 1975 western starring John Wayne.") is True  # no claim: "True"


@pytest.mark.parametrize(("reply", "prompt", "label"), [
    ("Unanswerable? Nope — it's Ottawa.", "unans", "answer"),
    ("Conflict: no. The answer is 1912.", "conflict", "answer"),
    ('{"unanswerable": false, "answer": "Ottawa"}', "unans", "answer"),
    ('{"conflict": true, "answer": null}', "conflict", "conflict"),
    ("unanswerable — actually, Document 2 names Ottawa.", "unans", "answer"),
    ("Ottawa. Wait, none of the documents actually name it: unanswerable.", "unans", "abstain"),
    ("Document 3 gives Ottawa. The remaining documents do not mention it.", "unans", "answer"),
    ("Ottawa unanswerable", "unans", None),
    ("1912 conflict 1913", "conflict", None),
    ("Ottawa, if the documents mean Canada; otherwise unanswerable.", "unans", None),
    ("Around 1912, though the documents might not agree.", "conflict", None),
    ("It's unanswerable from these documents.", "unans", "abstain"),
    ("答えられない", "unans", "abstain"),
    ("Na", "unans", "answer"),  # sodium, not N/A
    ("n/a", "unans", "abstain"),
    ("I'd rather not answer that.", "unans", None),
    ("Dokumenty to neuvádzajú.", "unans", "abstain"),
    ("Dokumentuek ez dute aipatzen.", "unans", "abstain"),
    ("Die dokumente weerspreek mekaar.", "conflict", "conflict"),
    ("Documents 2 and 3: 1912. Document 1: 1913.", "conflict", "conflict"),
    ("1912. Document 4 also says 1912.", "conflict", "answer"),
    ("Ottawa is the capital of Canada. Canada is big. Ottawa is the capital of Canada. Canada is",
     "unans", "answer"),
    ("Ottawa\n\nQuestion: What is the capital of Peru?\nAnswer: unanswerable", "unans", "answer"),
])
def test_ralm(reply: str, prompt: str, label: str | None) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == label  # type: ignore[arg-type]


def test_ralm_unusable_names_the_reason_and_echoes_have_no_content() -> None:
    assert unusable("Ottawa unanswerable") == "degenerate"
    assert unusable("Ottawa, or unanswerable if the documents mean Canada") == "undecided"
    assert unusable("Unanswerable? No — Ottawa.") is None
    echo = ("Use the above documents to answer the subsequent question. Please provide the answer "
            "as a single word or term, without forming a complete sentence. Question: What is the "
            "capital of Canada? Answer: Use the above")
    assert not has_content(echo)
    assert has_content("Question: What is the capital of Canada? Answer: Ottawa")
    assert not has_content("Answer: If multiple")
    assert has_content("Answer: If")  # a one-word fragment may be an answer


def test_first_item_keeps_a_reply_that_opens_with_a_header() -> None:
    assert first_item("Question: Is it B?\nAnswer: B") == "Question: Is it B?\nAnswer: B"
    assert first_item("B\nQ2: Next?\nAnswer: C") == "B"
    assert first_item("B. Exercise 2: inline, not a new line") == "B. Exercise 2: inline, not a new line"


def test_readings_added_after_the_last_round() -> None:
    tf = TF
    assert extract_choice("Dogs are mammals.", tf, question="Is a dog a mammal?").index == 2
    assert extract_choice("Far older.", tf, question="Is Athens older than Berlin?").index == 2
    assert extract_choice("No longer — it was renamed.", tf, question="Is Bombay its name?").index \
        == 0
    assert verdict("Berlin is larger than Paris.", claim="Paris is larger than Berlin.") is False
    assert verdict("Much colder, in fact.", claim="Antarctica is colder than the Arctic.") is True
    assert verdict("Yes, except it was 1790. Actually no, 1789 is right.",
                   claim="It began in 1789.") is True
    assert extract_choice("The answer is 18. Answer: A", NUMS).how == "conflicting"
    assert classify_reply("unanswerable? no: 1789.", prompt="unans", mode="broad") == "answer"
    assert classify_reply("1789, a disputed date rather than a conflict between the documents.",
                          prompt="conflict", mode="broad") == "answer"
