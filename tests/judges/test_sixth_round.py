"""Rule families added for the sixth dev file (dev-f, the fifth round's held-back half), each
pinned by hand-built replies of its own in other wordings (none is a dev-f reply), with a near
miss the rule must leave alone. The choice and verdict families are in
test_sixth_round_choice.py."""

from __future__ import annotations

import pytest

from rattle.judges.ralm import classify_reply, unusable


def unans(text: str) -> str | None:
    return classify_reply(text, prompt="unans", mode="broad")


def conflict(text: str) -> str | None:
    return classify_reply(text, prompt="conflict", mode="broad")


# --- RALM: an apology or a denied conflict before the abstention --------------------------------

@pytest.mark.parametrize("reply", [
    "I'm sorry, but none of the passages mention the architect of the bridge.",
    "Apologies — the documents don't give a date for the treaty.",
    "Regrettably, the provided context does not include the author's name.",
])
def test_an_apology_before_an_abstention_is_no_answer(reply: str) -> None:
    assert unans(reply) == "abstain"


@pytest.mark.parametrize("reply", [
    "The sources don't disagree; they just never name the inventor, so I can't answer.",
    "The passages aren't in conflict — none of them gives the date.",
])
def test_a_denied_conflict_then_an_abstention_abstains(reply: str) -> None:
    assert conflict(reply) == "abstain"


def test_a_short_answer_before_the_documents_still_answers_first() -> None:
    assert unans("Canberra — the documents don't say it outright.") == "answer"
    assert conflict("Document 1: Ottawa. Document 2 doesn't name a city. They agree.") == "answer"


# --- RALM: the keyword the reply needn't say ----------------------------------------------------

@pytest.mark.parametrize("reply, prompt", [
    ("There's no need to write unanswerable: Document 3 gives the year as 1815.", "unans"),
    ("I don't have to answer 'unanswerable' here, since Document 1 names Marie Curie.", "unans"),
    ("No reason to call this a conflict: all three documents say 1889.", "conflict"),
])
def test_a_keyword_the_reply_needs_not_say_is_negated(reply: str, prompt: str) -> None:
    assert classify_reply(reply, prompt=prompt, mode="broad") == "answer"  # type: ignore[arg-type]
    assert classify_reply(reply, prompt=prompt, mode="paper") == "answer"  # type: ignore[arg-type]


def test_the_keyword_said_is_still_read() -> None:
    assert unans("There is no answer in the documents, so: unanswerable.") == "abstain"


# --- RALM: Arabic conflict reports --------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "الوثائق متضاربة: الأولى تقول 1990 والثانية 1992.",
    "تتعارض الوثيقتان حول عدد السكان.",
])
def test_arabic_conflict_words(reply: str) -> None:
    assert conflict(reply) == "conflict"


def test_arabic_negated_conflict_answers() -> None:
    assert conflict("لا يوجد تعارض بين الوثائق، والعاصمة هي القاهرة.") == "answer"


# --- RALM: replies cut off before they answer ---------------------------------------------------

@pytest.mark.parametrize("reply", [
    "According to Document 2, the first person to reach the summit was",
    "To compute this we add the two figures. The first is 120 and the second is",
])
def test_a_reply_cut_off_before_its_answer_is_unmeasured(reply: str) -> None:
    assert unusable(reply) == "cut-off"
    assert unans(reply) is None


def test_a_short_answer_then_a_cut_off_stands_and_a_cut_off_abstention_abstains() -> None:
    assert unans("Paris. It is the capital and") == "answer"
    assert unans("The documents do not mention who") == "abstain"


# --- RALM: an abstention beside an answer in another sentence -----------------------------------

@pytest.mark.parametrize("reply", [
    "The documents do not mention the inventor. However, the telephone was invented by Bell.",
    "Not answerable from these passages. (FYI, the answer is Canberra.)",
    "The tallest mountain is Everest. But the question is unanswerable from the provided documents.",
    "No se menciona en los documentos. Sin embargo, la capital es Lima.",
])
def test_an_abstention_and_an_answer_in_separate_sentences_are_undecided(reply: str) -> None:
    assert unusable(reply) == "undecided"
    assert unans(reply) is None


def test_an_abstention_turned_within_its_sentence_answers() -> None:
    # the convention of the first dev file (abstain-dev-013), kept
    assert unans("The documents don't say who wrote Hamlet, but it was William Shakespeare.") == "answer"
    # the second sentence speaks of the documents: no answer beside the abstention
    assert unans("The documents do not mention the inventor. However, they do discuss early "
                 "telegraphs.") == "abstain"


# --- RALM: doubt whether the documents answer ---------------------------------------------------

@pytest.mark.parametrize("reply", [
    "I'm not certain the passages answer this. Document 1 hints at Newton, I think.",
    "I doubt this can really be answered from what's here; maybe 1905?",
])
def test_doubt_whether_the_question_can_be_answered_is_undecided(reply: str) -> None:
    assert unusable(reply) == "undecided"


def test_plain_doubt_stays_an_abstention() -> None:
    assert unans("I'm not sure.") == "abstain"


# --- RALM: two candidates left open, a report doubted, word salad --------------------------------

@pytest.mark.parametrize("reply", [
    "It's either 1912 or 1913 depending on the source — your call.",
    "Either Lyon or Marseille, I can't decide.",
])
def test_either_of_two_candidates_is_undecided(reply: str) -> None:
    assert unusable(reply) == "undecided"


def test_either_with_a_conflict_reported_is_a_conflict() -> None:
    assert conflict("Either 1912 or 1913 — the documents disagree.") == "conflict"
    assert conflict("Conflict: Nadal or Ruud depending on the document") == "conflict"


@pytest.mark.parametrize("reply", [
    "The documents contradict each other on the year, or perhaps not — I can't be sure.",
    "The passages don't cover it, or maybe they do — hard to tell.",
])
def test_a_report_the_reply_doubts_at_once_is_undecided(reply: str) -> None:
    assert conflict(reply) is None


def test_word_salad_of_doubled_words_is_degenerate_a_loop_of_one_answer_is_not() -> None:
    assert unusable("Oslo Oslo capital capital the the") == "degenerate"
    assert unusable("Eiffel Eiffel tower tower built 1889 ##") == "degenerate"
    assert unans("Madrid Madrid Madrid") == "answer"
