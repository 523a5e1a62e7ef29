"""Rule families added for the fifth dev file (dev-e), each pinned by hand-built cases of its
own (none is a dev-e reply), with a near miss the rule must leave alone."""

from __future__ import annotations

import pytest

from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.ralm import classify_reply, unusable
from rattle.judges.reply import prepare, tool_call

YN = ["True", "False", "Unable to determine"]
Q_YN = 'The answer to question "What is the largest planet?" is "Saturn", is it right?'
ANIMALS = ["Eagle", "Salmon", "Whale", "Frog"]


def idx(reply: str, options: list[str], question: str = "") -> int | None:
    return extract_choice(reply, options, question=question).index


# --- tool calls and control tokens -----------------------------------------------------------

def test_a_tool_call_alone_is_no_answer() -> None:
    call = '<tool_call>{"name": "search", "arguments": {"q": "largest planet"}}</tool_call>'
    assert tool_call(prepare(call))
    assert extract_choice(call, ANIMALS).how == "tool-call"
    assert verdict(call, claim="Jupiter is the largest planet.") is None
    assert classify_reply(call, prompt="unans", mode="broad") is None
    # a JSON answer is no tool call, nor is a call followed by words
    assert not tool_call(prepare('{"answer": "C"}'))
    assert not tool_call(prepare('{"name": "lookup", "arguments": {}} The answer is C.'))
    assert idx('{"answer": "C"}', ANIMALS) == 2


def test_control_tokens_are_no_text() -> None:
    assert prepare("B<|im_end|>") == "B"
    assert idx("[INST] [/INST] C<|endoftext|>", ANIMALS) == 2


# --- choice items ------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "It's either B (Salmon) or D (Frog), both lay eggs in water.",
    "Probably either Salmon or Frog.",
    "I'd go with A or C depending on the definition.",
])
def test_either_or_leaves_two_options_open(reply: str) -> None:
    assert idx(reply, ANIMALS) is None


def test_either_or_then_a_commitment_decides() -> None:
    assert idx("It's either B or D. On reflection the answer is D.", ANIMALS) == 3
    assert idx("Either way, the answer is C.", ANIMALS) == 2  # no two options named


FACTS = ["Ice floats on water.", "Sound travels faster than light.", "The Moon orbits Earth."]


@pytest.mark.parametrize("reply, expected", [
    ("B is false — light is far faster than sound.", 1),
    ("(B) is incorrect: light travels faster.", 1),
    ("Option B is not true, light is faster.", 1),
    ("B is false, C is false.", None),  # several called false: no one named
])
def test_the_letter_called_false_answers_a_false_question(reply: str, expected: int | None) -> None:
    assert idx(reply, FACTS, "Which statement is false?") == expected


def test_a_letter_called_false_on_an_ordinary_question_names_nothing() -> None:
    assert idx("B is false — light is far faster than sound.", FACTS,
               "Which statement is true?") is None


def test_the_question_blank_filled_by_one_option() -> None:
    options = ["a", "an", "the", "no article"]
    question = 'Which word completes "She ate ___ apple"?'
    assert idx("She ate an apple.", options, question) == 1
    assert idx("She ate the apple.", options, question) == 2
    assert idx("She ate it quickly.", options, question) is None


@pytest.mark.parametrize("reply", [
    "True, Jupiter is bigger. Hard to say though.",
    "It's false, I think. Honestly, I'm not sure.",
    "B. But I'm not certain.",
])
def test_a_closing_doubt_is_a_hedge(reply: str) -> None:
    assert idx(reply, YN, Q_YN) is None


def test_a_long_closing_sentence_with_doubt_words_is_no_hedge() -> None:
    reply = "False. I'm not sure why anyone would think Saturn is bigger than Jupiter, it isn't."
    assert idx(reply, YN, Q_YN) == 1


@pytest.mark.parametrize("reply", [
    "Sorry, I cannot verify claims about planets.",
    "As an AI language model, I can't fact-check astronomy.",
])
def test_declining_to_verify_is_a_refusal(reply: str) -> None:
    assert extract_choice(reply, YN, question=Q_YN).how == "refusal"


def test_lacking_the_information_to_verify_stays_undetermined() -> None:
    assert idx("I'm sorry, but I can't verify this from the given passage.", YN, Q_YN) == 2


@pytest.mark.parametrize("reply, expected", [
    ("I think the statement is true, Jupiter is larger. Final answer: A", 0),
    ("I think the statement is true, Jupiter is larger. Final answer: B", None),
    ("The claim is wrong: Jupiter is the largest. Answer: A", None),
    ('Hence the answer "Saturn" is wrong.', 1),
])
def test_a_sentence_that_gives_the_statement_a_verdict(reply: str, expected: int | None) -> None:
    assert idx(reply, YN, Q_YN) == expected


def test_a_count_stated_in_words_checks_the_letter() -> None:
    options = ["2", "3", "4", "5"]
    question = "How many vowels are in the word 'banana'?"
    assert idx("a, a, a — three of them. Answer: D", options, question) is None
    assert idx("a, a, a — three of them. Answer: B", options, question) == 1


@pytest.mark.parametrize("reply", ["Vielleicht 3 oder 5.", "Peut-être 3 ou 5.", "Может быть, 3 или 5."])
def test_two_values_joined_by_or_in_other_languages(reply: str) -> None:
    assert idx(reply, ["2", "3", "4", "5"], "What is 15 ÷ 5?") is None


# --- verdicts ----------------------------------------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("No argument here — water boils at 100 °C at sea level.", True),
    ("No dispute. It boils at 100 °C.", True),
    ("No counterexamples found. Yes, it boils at 100 °C at sea level.", True),
    ("No, it boils at 90 °C.", False),
])
def test_no_idioms_of_agreement_and_findings(reply: str, expected: bool) -> None:
    assert verdict(reply, claim="Water boils at 100 °C at sea level.") is expected


@pytest.mark.parametrize("reply", [
    "That depends on how you measure it.",
    "The figure depends on the definition of sea level.",
])
def test_depends_is_a_hedge(reply: str) -> None:
    assert verdict(reply, claim="Water boils at 100 °C at sea level.") is None


@pytest.mark.parametrize("reply", ["Yes and no. Reported values differ depending on the measurement used.",
                                   "Partly. At sea level it boils at 100 °C, but not in Denver."])
def test_a_partial_answer_still_rejects(reply: str) -> None:
    assert verdict(reply, claim="Water boils at 100 °C everywhere.") is False


@pytest.mark.parametrize("reply", [
    "Да, он полетел в космос, но в 1961 году, а не в 1962-м.",
    "Ja, er flog ins All, aber 1961, nicht 1962.",
    "Oui, il est allé dans l'espace, mais en 1961, et non en 1962.",
])
def test_a_yes_that_sets_the_claims_number_aside_in_other_languages(reply: str) -> None:
    assert verdict(reply, claim="Yuri Gagarin flew to space in 1962.") is False


# --- RALM ----------------------------------------------------------------------------------------

def test_declining_the_topic_is_a_refusal_but_not_of_the_documents() -> None:
    assert unusable("I can't assist with questions about gambling.") == "refusal"
    assert unusable("As an AI, I don't have opinions on elections.") == "refusal"
    assert classify_reply("I can't provide an answer from these documents.", prompt="unans",
                          mode="broad") == "abstain"


@pytest.mark.parametrize("reply", ["Information introuvable.", "Nicht gefunden.", "未找到。",
                                   "Tidak ditemukan."])
def test_not_found_in_other_languages_abstains(reply: str) -> None:
    assert classify_reply(reply, prompt="unans", mode="broad") == "abstain"


def test_one_document_set_aside_by_number_is_no_abstention() -> None:
    reply = "On closer reading, Passage 3 covers the 2018 race, not 2019. The others say Lewis Hamilton."
    assert classify_reply(reply, prompt="conflict", mode="broad") == "answer"
    # "the documents" as a whole set aside is still an abstention
    assert classify_reply("The documents are about 2018, not 2019, so it isn't stated.", prompt="unans",
                          mode="broad") == "abstain"


def test_undecided_whether_the_question_can_be_answered() -> None:
    assert classify_reply("I'm not sure whether the question can be answered. Maybe Lima?",
                          prompt="unans", mode="broad") is None
