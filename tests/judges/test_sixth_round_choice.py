"""Choice and verdict rule families added for the sixth dev file (dev-f), each pinned by
hand-built replies of its own in other wordings (none is a dev-f reply), with a near miss the
rule must leave alone."""

from __future__ import annotations

import pytest

from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.option_text import spelled
from rattle.judges.signals import cut_off

YN = ["True", "False", "Unable to determine"]
PLANETS = ["Mercury", "Mars", "Pluto", "Venus"]
ANIMALS = ["Lion", "Unicorn", "Stag", "Eagle"]


def idx(reply: str, options: list[str], question: str = "") -> int | None:
    return extract_choice(reply, options, question=question).index


# --- a negated letter before the committed one ---------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("Pluto was demoted in 2006, so not C but A.", 0),
    ("Not (B), but rather (D) — Venus is the hottest.", 3),
    ("It's not option A but option B.", 1),
])
def test_not_x_but_y_chooses_y(reply: str, expected: int) -> None:
    assert idx(reply, PLANETS) == expected
    assert extract_choice(reply, PLANETS).how == "not-but"


def test_not_x_but_y_with_another_option_text_beside_it_is_conflicting() -> None:
    assert idx("Mars is the smallest planet — so not C but A.", PLANETS,
               "Which is the smallest planet?") is None  # (A) is Mercury


# --- a letter after a dash and a reason ----------------------------------------------------------

@pytest.mark.parametrize("reply, options, question, expected", [
    ("C – plants don't produce it; it comes from volcanoes.",
     ["Oxygen", "Glucose", "Sulfur dioxide", "Starch"], "Which is NOT made by plants?", 2),
    ("B — Paris isn't in Italy.", ["Rome", "Paris", "Milan", "Naples"], "Which city is not in Italy?", 1),
])
def test_a_reason_with_its_own_subject_after_the_dash_does_not_reject_the_letter(
        reply: str, options: list[str], question: str, expected: int) -> None:
    assert idx(reply, options, question) == expected


@pytest.mark.parametrize("reply", ["C — doesn't fit.", "A — this option is wrong.", "B - no."])
def test_a_rejection_right_after_the_dash_still_rejects(reply: str) -> None:
    assert idx(reply, PLANETS) is None


# --- a list cut off before its last item's predicate ---------------------------------------------

@pytest.mark.parametrize("reply, options", [
    ("Let me check each. Dickens wrote Oliver Twist, Austen wrote Emma, and Bronte",
     ["Charles Dickens", "Jane Austen", "Charlotte Bronte", "George Eliot"]),
    ("Going through them: Paris is in France, Rome is in Italy, or Madrid",
     ["Paris", "Rome", "Madrid", "Lisbon"]),
])
def test_a_list_cut_off_before_its_last_predicate_is_cut_off(reply: str, options: list[str]) -> None:
    assert cut_off(reply)
    assert extract_choice(reply, options).how == "cut-off"


def test_a_finished_list_is_not_cut_off() -> None:
    assert not cut_off("The primary colours are red, blue, and yellow")
    assert not cut_off("Dickens wrote Oliver Twist, Austen wrote Emma, and Bronte wrote Jane Eyre.")


# --- a bare symbol as an option text -------------------------------------------------------------

@pytest.mark.parametrize("reply, options, expected", [
    ("Δ", ["Pi", "Sigma", "Delta", "Omega"], 2),
    ("Omega.", ["α", "β", "ω"], 2),
    ("∞", ["Zero", "Infinity", "One"], 1),
])
def test_a_lone_symbol_is_read_by_its_name(reply: str, options: list[str], expected: int) -> None:
    assert idx(reply, options) == expected


def test_spelled_leaves_words_alone() -> None:
    assert (spelled("π"), spelled("Σ"), spelled("pi"), spelled("a")) == ("pi", "sigma", "pi", "a")


# --- hedges between two options ------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "I'd say B. Although the stag is common, so possibly C.",
    "Probably the unicorn (B). It could go either way, though.",
    "Bohr, Born and Heisenberg all shaped it. Difficult to choose just one.",
])
def test_a_second_guess_or_a_closing_open_choice_is_a_hedge(reply: str) -> None:
    options = ["Niels Bohr", "Max Born", "Werner Heisenberg", "Paul Dirac"] if "Bohr" in reply else ANIMALS
    assert idx(reply, options) is None


def test_a_plain_statement_is_still_read() -> None:
    assert idx("The answer is B. The unicorn has been Scotland's animal since the 1300s.", ANIMALS) == 1


# --- yes/no: Russian and Hindi -------------------------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("Нет, это неверно.", 1),
    ("Невозможно определить по условию.", 2),
    ("Сказать точно нельзя: данных нет.", 2),
    ("नहीं, यह गलत है।", 1),
    ("हाँ। यह सच है।", 0),
    ("यह निर्धारित नहीं किया जा सकता।", 2),
])
def test_russian_and_hindi_verdicts(reply: str, expected: int) -> None:
    assert idx(reply, YN) == expected


# --- yes/no: a condition that only restates the question's premise --------------------------------

@pytest.mark.parametrize("reply, question, expected", [
    ("If all cats are mammals and Tom is a cat, then yes, Tom is a mammal.",
     "All cats are mammals. Tom is a cat. Is Tom a mammal?", 0),
    ("If the shop closes at 6 every day, then no, it was not open at 7.",
     "The shop closes at 6 every day. Was it open at 7 on Monday?", 1),
])
def test_a_condition_the_question_gives_is_no_condition(reply: str, question: str, expected: int) -> None:
    assert idx(reply, YN, question) == expected


def test_a_condition_of_its_own_stays_a_hedge() -> None:
    assert idx("If you count the suburbs, yes.", YN, "Is Tokyo the largest city?") is None


# --- yes/no: hedges and self-corrections at the end ----------------------------------------------

@pytest.mark.parametrize("reply", [
    "Some say it helps, others don't. So maybe, maybe not.",
    "Maybe, maybe not.",
    "Tomatoes are botanically fruit, though cooks call them vegetables. Whether it's true depends "
    "on who you ask.",
    "No. Hmm, actually 1492 was the first voyage... So perhaps.",
])
def test_a_closing_hedge_leaves_the_verdict_open(reply: str) -> None:
    assert idx(reply, YN) is None


@pytest.mark.parametrize("reply, expected", [
    ("Yes... sorry, I misread. It was 1066, so no.", 1),
    ("No, 3 × 4 is 7... sorry, that's 3 + 4. 3 × 4 = 12, so yes.", 0),
])
def test_a_self_correction_is_read_from_its_last_revision(reply: str, expected: int) -> None:
    assert idx(reply, YN) == expected
    assert extract_choice(reply, YN).how.startswith("revised-")


def test_it_might_or_might_not_stays_undetermined() -> None:
    assert idx("The passage says he owns a car. It might be electric, it might not.", YN) == 2


# --- yes/no: the instruction echoed ----------------------------------------------------------------

@pytest.mark.parametrize("reply", ["Answer with True, False, or Unable to determine.",
                                   "Reply: True, False or Unable to determine"])
def test_every_option_offered_with_or_is_an_echo(reply: str) -> None:
    assert extract_choice(reply, YN).how == "echo-options"


def test_two_options_named_in_prose_are_no_echo() -> None:
    # a list of some options in prose, not the instruction
    options = ["Sydney", "Melbourne", "Perth", "Canberra"]
    assert idx("Canberra. Sydney, Melbourne and Perth are larger but not the capital.", options) == 3


# --- numeric: loops of one value -----------------------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("5+5=10\n5+5=10\n5+5=10\n5+5=10", 1),
    ("7 weeks 7 weeks days days 7 weeks 7", 2),
])
def test_a_loop_of_one_value_names_it(reply: str, expected: int) -> None:
    got = extract_choice(reply, ["8", "10", "7", "15"] if "weeks" in reply else ["8", "10", "12", "15"])
    assert (got.index, got.how) == (expected, "loop")


def test_a_loop_of_two_values_is_cut_off() -> None:
    assert idx("5+5=10\n5+5=11\n5+5=10\n5+5=11 the the", ["8", "10", "11", "15"]) is None


# --- numeric: counterfactual remarks ---------------------------------------------------------------

@pytest.mark.parametrize("reply, options, expected", [
    ("12 × 12 = 144, so (C). Had it been 12 × 11, it would have been 132 (B).",
     ["124", "132", "144", "154"], 2),
    ("Rounded it is $26 (B). If we were rounding down it would be $25 (A), but we round to nearest.",
     ["$25", "$26", "$27", "$28"], 1),
])
def test_a_letter_in_a_counterfactual_sentence_is_no_choice(reply: str, options: list[str],
                                                            expected: int) -> None:
    assert idx(reply, options) == expected


def test_two_letters_offered_plainly_stay_ambiguous() -> None:
    assert idx("It is $26 (B). It is $25 (A) when rounded down.", ["$25", "$26", "$27", "$28"]) is None


# --- numeric: the value right before the letter is the result --------------------------------------

@pytest.mark.parametrize("reply, options, question, expected", [
    ("Cats are 12, so dogs are 18 → B", ["12", "18", "20", "30"],
     "Of 30 pets, 12 are cats and the rest are dogs. How many dogs?", 1),
    ("For instance 1 minute = 60 s, so an hour has 3,600 s — the answer is C.",
     ["60", "360", "3,600", "36,000"], "How many seconds are in an hour?", 2),
])
def test_the_value_stated_after_the_lead_in_checks_the_letter(reply: str, options: list[str],
                                                             question: str, expected: int) -> None:
    assert idx(reply, options, question) == expected


def test_a_value_before_so_the_answer_is_still_checks_the_letter() -> None:
    assert idx("6 × 9 = 54, so the answer is B.", ["52", "56", "54", "58"]) is None


# --- a tool call carrying the answer ---------------------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ('{"name": "submit_answer", "arguments": {"answer": "C"}}', 2),
    ('{"tool": "choose", "args": {"letter": "A", "reason": "8 is the only even"}}', 0),
])
def test_a_tool_call_carrying_the_answer_is_read(reply: str, expected: int) -> None:
    assert idx(reply, ["8", "10", "12", "15"]) == expected


def test_a_tool_call_without_an_answer_stays_unmeasured() -> None:
    got = extract_choice('{"name": "calculator", "arguments": {"expression": "4*5"}}', ["16", "20"])
    assert (got.index, got.how) == (None, "tool-call")


# --- verdicts -------------------------------------------------------------------------------------

def test_a_verdict_word_declined_is_the_other_verdict() -> None:
    assert verdict("I can't say no to that — it really is the largest ocean.") is True
    assert verdict("I wouldn't say 'yes' here; the date is off by a year.") is False
    assert verdict("I can't say yes or no to this.") is None  # declines both


PARIS = "Paris hosted the Summer Olympics in 1924 and the Winter Olympics in 1968."


def test_a_yes_then_a_turn_that_moves_a_part_of_the_claim_elsewhere_rejects() -> None:
    assert verdict("Yes, Paris hosted the 1924 Summer Games. However, the 1968 Winter Olympics "
                   "were held in Grenoble.", claim=PARIS) is False
    assert idx("Yes, Paris hosted in 1924. But the 1968 Winter Olympics were held in Grenoble.", YN,
               "Did Paris host the Summer Olympics in 1924 and the Winter Olympics in 1968?") == 1


def test_a_turn_about_another_event_or_a_date_keeps_the_yes() -> None:
    assert verdict("Yes, Paris hosted both. However, the 1968 Winter Olympics were also held in "
                   "February.", claim=PARIS) is True
    assert verdict("Yes. However, the 2018 Winter Olympics were held in Pyeongchang.",
                   claim="Beijing hosted the Summer Olympics in 2008 and the Winter Olympics in 2022.") is True


def test_a_tool_call_carrying_a_verdict_or_an_answer_is_read_by_every_extractor() -> None:
    from rattle.judges.ralm import classify_reply

    assert verdict('{"name": "submit_verdict", "arguments": {"verdict": "no"}}') is False
    assert classify_reply('{"name": "submit_answer", "arguments": {"answer": "Paris"}}',
                          prompt="unans", mode="broad") == "answer"
    assert classify_reply('{"name": "search", "arguments": {"query": "Paris"}}',
                          prompt="unans", mode="broad") is None
