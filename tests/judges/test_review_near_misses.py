"""Near misses a review found after the seventh round: benign elaborations after a yes, a
declined yes that is doubt, symbol options with text after them, two options asked rather than
echoed, "either" of manner, and idioms that negate nothing."""

from __future__ import annotations

import pytest

from rattle.judges.choice import extract_choice
from rattle.judges.claims import verdict
from rattle.judges.ralm import classify_reply, unusable


@pytest.mark.parametrize(("claim", "reply"), [
    ("Einstein was born in Ulm", "Yes, Einstein was born in Ulm. However, he was raised in Munich."),
    ("Beijing hosted the 2008 Summer Olympics",
     "Yes, Beijing hosted them. However, the 2008 Summer Paralympics were also held in Beijing."),
    ("The Mona Lisa was painted by Leonardo da Vinci",
     "Yes, though the Mona Lisa is located in Paris now."),
    ("The Eiffel Tower was built for the 1889 World's Fair",
     "Yes. However, building it took just over two years, and it was designed by engineers of "
     "Eiffel's company."),
])
def test_an_elaboration_after_a_yes_keeps_it(claim: str, reply: str) -> None:
    assert verdict(reply, claim=claim) is True


def test_a_turn_that_moves_the_claimed_act_still_rejects() -> None:
    claim = "Beijing hosted the Winter Olympics in 2018"
    reply = ("Yes, Beijing hosted the 2008 Summer Olympics. However, the 2018 Winter Olympics "
             "were held in Pyeongchang.")
    assert verdict(reply, claim=claim) is False


@pytest.mark.parametrize(("reply", "expected"), [
    ("I can't say yes for sure.", None),
    ("I cannot say yes with any certainty; the evidence is mixed.", None),
    ("I don't say no often, but here: no.", False),
    ("I can't say 'No' to this one — it's true.", True),
    ("I wouldn't say 'yes' here.", False),
])
def test_a_declined_verdict_word(reply: str, expected: bool | None) -> None:
    assert verdict(reply) is expected


@pytest.mark.parametrize(("reply", "index"), [
    ("φ — the golden ratio.", 2),
    ("π, because it is the ratio of circumference to diameter.", 0),
    ("τ, a full turn in radians.", 3),
])
def test_a_symbol_option_with_text_after_it(reply: str, index: int) -> None:
    assert extract_choice(reply, ["π", "e", "φ", "τ"]).index == index


@pytest.mark.parametrize(("reply", "options", "index"), [
    ("True or false: the claim is true.", ["True", "False"], 0),
    ("Yes or no? No, it is not.", ["Yes", "No"], 1),
    ("True or False.", ["True", "False"], None),
])
def test_two_options_asked_are_not_echoed(reply: str, options: list[str], index: int | None) -> None:
    assert extract_choice(reply, options).index == index


@pytest.mark.parametrize(("reply", "expected"), [
    ("You can pay either by card or in cash.", None),
    ("It is either 1912 or 1913, depending on which document you trust.", "undecided"),
    ("Either way it opened in the spring or in the summer; hard to say which.", "undecided"),
])
def test_either_names_candidate_answers_only(reply: str, expected: str | None) -> None:
    assert unusable(reply) == expected


@pytest.mark.parametrize("reply", ["No doubt the documents say it was Paris.",
                                   "Without a doubt, Document 2 says 1912.",
                                   "No wonder the passages name Marie Curie: she won twice."])
def test_idioms_with_a_negation_word_answer(reply: str) -> None:
    assert unusable(reply) is None
    assert classify_reply(reply, prompt="unans", mode="broad") == "answer"
