"""Choice and verdict rule families added for the seventh dev file (dev-g), each pinned by
hand-built replies of its own in other wordings and languages (none is a dev-g reply), with a
near miss the rule must leave alone."""

from __future__ import annotations

import pytest

from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.reply import after_revision, json_answer, prepare, tool_call
from rattle.judges.signals import cut_off

YN = ["True", "False", "Unable to determine"]
METALS = ["Iron", "Copper", "Zinc", "Lead"]
NUMS = ["21", "24", "27", "30"]
Q_YN = "Is the Pacific the largest ocean, is it right?"


def got(reply: str, options: list[str], question: str = "") -> tuple[int | None, str]:
    c = extract_choice(reply, options, question=question)
    return c.index, c.how


def idx(reply: str, options: list[str], question: str = "") -> int | None:
    return extract_choice(reply, options, question=question).index


# --- self-corrections in more wordings ----------------------------------------------------------

@pytest.mark.parametrize("reply, claim, expected", [
    ("Yes, it was built in 1889... um, no. It opened in 1887, so the statement is false.",
     "The Eiffel Tower opened in 1889.", False),
    ("Correct. I stand corrected, though: it is in Lyon, so the claim is wrong.",
     "The Lumière museum is in Paris.", False),
    ("No. Let me correct myself: it is indeed 100 °C at sea level. The statement is correct.",
     "Water boils at 100 °C at sea level.", True),
])
def test_a_correction_in_any_wording_decides(reply: str, claim: str, expected: bool) -> None:
    assert verdict(reply, claim=claim) is expected


def test_a_hesitation_with_nothing_to_revise_is_no_revision() -> None:
    assert after_revision("Hmm, no. That is a myth.") is None
    assert after_revision("Oh no, that's a myth.") is None
    assert after_revision("True... hmm, no: it is false.") == "it is false."


def test_a_self_correction_on_a_yes_no_item() -> None:
    reply = "False — the Atlantic is bigger. Uh, no: the Pacific is the largest. Self-correction: A."
    assert idx(reply, YN, Q_YN) == 0


# --- a yes or no stated as a noun phrase ---------------------------------------------------------

@pytest.mark.parametrize("reply, claim, expected", [
    ("That gets a firm no from me: the Great Wall is not visible from the Moon.",
     "The Great Wall is visible from the Moon.", False),
    ("My answer is, I think, a resounding yes.", "Paris is the capital of France.", True),
    ("It's an unequivocal yes — Lincoln was the 16th president.",
     "Abraham Lincoln was the 16th President.", True),
])
def test_a_verdict_as_a_noun_phrase(reply: str, claim: str, expected: bool) -> None:
    assert verdict(reply, claim=claim) is expected


@pytest.mark.parametrize("reply, expected", [
    ("I'd put this down as a clear False: the Atlantic is smaller.", 1),
    ("The answer here is a definite yes.", 0),
])
def test_a_noun_phrase_verdict_on_a_yes_no_item(reply: str, expected: int) -> None:
    assert idx(reply, YN, Q_YN) == expected


def test_a_noun_phrase_that_is_no_verdict_stays() -> None:
    assert prepare("It is a true story.") == "It is a true story."
    assert prepare("That was a no-brainer.") == "That was a no-brainer."


# --- JSON yes/no words, LaTeX text, tools named for answering -----------------------------------

def test_json_yes_no_words_and_tools_named_for_answering() -> None:
    assert verdict('{"is_correct": "false", "why": "It is in Asia."}') is False
    assert verdict('{"accurate": "yes"}') is True
    assert verdict('{"verdict": "no"}') is False
    assert json_answer('{"name": "submit_answer", "arguments": "C"}') == "C"
    assert not tool_call('{"function": "respond", "parameters": "Lake Baikal"}')
    assert tool_call('{"function": "search", "parameters": "Lake Baikal"}')  # not an answer tool


def test_latex_text_is_read() -> None:
    assert idx(r"Since the Pacific is largest: $\boxed{\textbf{True}}$", YN, Q_YN) == 0
    assert idx(r"\boxed{\mathrm{False}}", YN, Q_YN) == 1


# --- yes/no items: leaving the choice open -------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "I'm split between True and Unable to determine, honestly.",
    "There's a case to be made either way, so I'd rather not commit to one.",
    "Could be either True or False — the premise is ambiguous.",
    "None of the given options fits: the question assumes a single largest ocean.",
    "It's hard to pick just one here.",
])
def test_a_yes_no_reply_that_leaves_the_choice_open(reply: str) -> None:
    assert idx(reply, YN, Q_YN) is None


@pytest.mark.parametrize("reply, expected", [
    ("It is impossible to tell from the premise alone.", 2),  # "cannot be determined"
    ("It depends on nothing: it's simply true.", 0),
])
def test_near_misses_of_leaving_it_open(reply: str, expected: int) -> None:
    assert idx(reply, YN, Q_YN) == expected


def test_after_it_depends_no_correction_is_read() -> None:
    q = "The bag weighs more than 1 kg. Does it weigh more than 3 kg?"
    assert idx("That depends on the contents; with books it could be over 3 kg, with feathers not.", YN, q) is None


def test_cannot_be_determined_in_another_language_is_no_no() -> None:
    q = "Sam owns a car. Is it red?"
    assert idx("Non si può determinare: il colore non è indicato. Risposta: C", YN, q) == 2
    assert idx("Não é possível determinar. Resposta: C", YN, q) == 2
    assert idx("No, it is blue. Answer: C", YN, q) is None  # a plain "no" still disagrees


# --- elimination -----------------------------------------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("Iron rusts, copper conducts, lead is toxic; the one left is C.", 2),
    ("A, B and D can be ruled out, so what remains is C.", 2),
    ("The sole remaining candidate, B (Copper), fits.", 1),
    ("Iron and zinc are out. The last remaining choice is (B).", 1),
])
def test_elimination_ends_on_the_option_left(reply: str, expected: int) -> None:
    assert idx(reply, METALS) == expected


@pytest.mark.parametrize("reply, expected", [
    ("So A is eliminated, and D is out too. B (Copper) is the best conductor here.", 1),
    ("So A, C and D are all wrong. (B) remains.", 1),
])
def test_a_rejected_letter_is_no_statement(reply: str, expected: int) -> None:
    assert idx(reply, METALS) == expected


def test_elimination_cut_off_before_the_choice_is_unmeasured() -> None:
    assert idx("So A is out, and so D is out. Between B and C", METALS) is None
    assert idx("So B.", METALS) == 1  # a plain "so" statement still chooses


def test_a_comparison_before_the_letter_is_no_result() -> None:
    q = "Which is a multiple of 3 greater than 25?"
    assert got("21 and 24 are too small, and 27 is greater than 24 → C.", NUMS, q) == (2, "arrow")
    assert got("27 is too big. 9 × 3 = 24 → C.", NUMS, q)[0] is None  # a stated result still disagrees


def test_a_letter_framed_by_its_own_value_is_a_mention() -> None:
    q = "Which is divisible by 7?"
    assert idx("21, 24 and 30 fail... wait, 21 = 3 × 7. A (21) is divisible by 7.", NUMS, q) == 0
    assert idx("B (24) is not divisible by 7. D (30) is not either.", NUMS, q) is None  # both rejected


# --- JSON letter against its text or value ---------------------------------------------------------

@pytest.mark.parametrize("reply", [
    '{"choice": "A", "text": "Copper"}',
    '{"answer": "D", "option_text": "zinc"}',
])
def test_a_json_letter_that_disagrees_with_its_text(reply: str) -> None:
    assert got(reply, METALS) == (None, "conflicting")


def test_a_json_letter_that_agrees_with_its_text_or_value() -> None:
    assert got('{"answer": "B", "answer_text": "Copper"}', METALS)[0] == 1
    assert got('{"answer": "C", "value": 27}', NUMS)[0] == 2
    assert got('{"answer": "C", "value": 24}', NUMS) == (None, "conflicting")


# --- word salad naming several options ------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "copper the iron answer B zinc D the the",
    "30 30 thirty answer 27 is the =",
])
def test_salad_naming_several_options_is_unmeasured(reply: str) -> None:
    options = METALS if "copper" in reply else NUMS
    assert idx(reply, options) is None


def test_a_plain_reply_naming_one_option_is_no_salad() -> None:
    assert idx("9 times 3 makes 27 which is option C", NUMS) == 2


# --- a subject left without its predicate --------------------------------------------------------

def test_a_subject_without_its_predicate_is_cut_off() -> None:
    assert cut_off("Iron rusts. Zinc coats steel. The metal which conducts")
    assert cut_off("The one that fits")
    assert not cut_off("The metal that conducts best is copper.")
    assert not cut_off("Copper, the metal that conducts")  # no sentence of its own


# --- verdicts: the statement named, the prompt echoed, both verdicts -----------------------------

@pytest.mark.parametrize("reply, claim, expected", [
    ("Triangles can be acute, right or obtuse; this one has angles summing to 180°, so the claim is false.",
     "A triangle's angles sum to 200°.", False),
    ("It holds up in most textbooks. Still, the statement is inaccurate: the figure is 206.",
     "An adult human has 212 bones.", False),
    ("It sounds right at first; however, the claim is false.", "Gold is a gas.", False),
])
def test_a_closing_verdict_on_the_statement_decides(reply: str, claim: str, expected: bool) -> None:
    assert verdict(reply, claim=claim) is expected


def test_an_opening_verdict_is_not_overruled_by_a_pronoun() -> None:
    assert verdict("No. It is in Asia; the claim is misleading.", claim="Tokyo is in Europe.") is False


@pytest.mark.parametrize("reply", [
    "Gold is a metal. Is the following statement correct? Gold is a metal.",
    "Is the following statement correct? Answer Yes or No first.",
])
def test_the_prompt_echoed_is_no_verdict(reply: str) -> None:
    assert verdict(reply, claim="Gold is a metal.") is None


def test_the_prompt_echoed_then_a_verdict_is_read() -> None:
    assert verdict("Is the following statement correct? Yes, gold is a metal.", claim="Gold is a metal.") is True


@pytest.mark.parametrize("reply", [
    "That claim is true and false.",
    "It's incorrect and correct.",
    "gold gold metal 对 wrong 是 correct ## ##",
])
def test_both_verdicts_at_once_are_unmeasured(reply: str) -> None:
    assert verdict(reply, claim="Gold is a metal.") is None


def test_yes_and_no_stays_a_partial_answer() -> None:
    assert verdict("Yes and no: gold is a metal, but not a base metal.", claim="Gold is a base metal.") is False
