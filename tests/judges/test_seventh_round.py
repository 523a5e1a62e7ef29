"""RALM rule families added for the seventh dev file (dev-g, the sixth round's held-back half),
each pinned by hand-built replies of its own in other wordings and languages (none is a dev-g
reply), with a near miss the rule must leave alone. The choice and verdict families are in
test_seventh_round_choice.py."""

from __future__ import annotations

import pytest

from rattle.judges.ralm import classify_reply, detect_conflict, has_content, unusable
from rattle.judges.ralm_structure import json_reading


def unans(text: str) -> str | None:
    return classify_reply(text, prompt="unans", mode="broad")


def conflict(text: str) -> str | None:
    return classify_reply(text, prompt="conflict", mode="broad")


# --- JSON fields with boolean-ish values decide -------------------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ('{"is_answerable": "no", "answer": null}', "abstain"),
    ('{"answer": "", "found": false}', "abstain"),
    ('{"result_type": "NO_ANSWER_IN_CONTEXT"}', "abstain"),
    ('{"has_conflict": "yes"}', "conflict"),
    ('{"status": "conflicting_sources", "answer": "N/A"}', "conflict"),
    # a flag beside a real answer: both asserted
    ('{"answer": "Canberra", "in_documents": false}', None),
    ('{"contradiction": 1, "answer": "1492"}', None),
    # near misses: the flag says the answer is there, or no flag at all
    ('{"answer": "Canberra", "answerable": true}', "answer"),
    ('{"answer": "1492", "has_conflict": false}', "answer"),
])
def test_json_flags_decide(reply: str, expected: str | None) -> None:
    assert conflict(reply) == expected


def test_json_reading_names_what_it_found() -> None:
    assert json_reading('{"sufficient_information": false}') == "abstain"
    assert json_reading('{"conflict_detected": true, "final_answer": "Everest"}') == "undecided"
    assert json_reading('{"answer": "Everest"}') is None  # no flag: read as text
    assert json_reading('Answer: {"conflict": true}') is None  # text before the object


# --- an opening about the reply's own reading is no short answer --------------------------------

@pytest.mark.parametrize("reply", [
    "Many thanks for the excerpts. Sadly, none of them addresses the speed of sound in water.",
    "Let me look. The passages only discuss the history of the bridge, not who designed it.",
    "I went through all five documents. Nothing in the passages says when the treaty was signed.",
    "Documents consulted: 3.\nFinal answer: the documents do not contain this information.",
    "The question asks for the tallest tree. The documents never mention trees at all.",
])
def test_an_opening_about_the_reading_then_an_abstention_abstains(reply: str) -> None:
    assert unans(reply) == "abstain"


def test_a_short_answer_first_still_answers() -> None:
    assert unans("Jupiter. The documents mention no other planet of that size.") == "answer"


# --- abstentions in more wordings and languages ---------------------------------------------------

@pytest.mark.parametrize("reply", [
    "None of the sources explains how the engine works, so I can't give a grounded reply.",
    "None of them records a date for the founding.",
    "I can't offer an exact answer from these passages.",
    "I find nothing about the composer in the provided texts.",
    "Les documents ne parlent pas de la date de fondation.",          # French
    "Los documentos no incluyen esa información.",                     # Spanish
    "Die Dokumente sagen nichts über den Architekten.",                # German
    "I documenti non riportano l'anno di costruzione.",               # Italian
    "Os documentos não trazem essa informação.",                       # Portuguese
    "资料中没有关于这座桥的信息。",                                        # Chinese
    "文書にはこの橋についての情報がありません。",                            # Japanese
    "문서에는 그 다리에 대한 자료가 나와 있지 않습니다.",                       # Korean
    "В документах нет сведений об архитекторе.",                       # Russian
    "الوثائق لا تذكر اسم المهندس.",                                     # Arabic
    "दस्तावेज़ों में वास्तुकार का नाम नहीं है।",                                # Hindi
    "Belgelerde mimarın adı geçmiyor.",                                 # Turkish
    "In de bronnen staat niets over de architect.",                     # Dutch
    "Dokumenty nie zawierają informacji o architekcie.",               # Polish
])
def test_abstentions_in_other_wordings_and_languages(reply: str) -> None:
    assert unans(reply) == "abstain"


@pytest.mark.parametrize("reply", [
    "Com base no Documento 2, a capital é Brasília.",  # Portuguese "no" is "in the"
    "Sí, según el documento 1 es Madrid.",
    "None of them disagrees: all say 1889.",            # agreement, not an abstention
])
def test_near_misses_of_the_abstention_lexicon_answer(reply: str) -> None:
    assert unans(reply) == "answer"


# --- negation that covers the abstention or the conflict ----------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("It's not the case that the documents lack the date: Document 1 gives 1776. Answer: 1776.", "answer"),
    ("Neither a disagreement nor a conflict here — the passages all say Oslo.", "answer"),
    ("There is neither an answer nor a conflict: the documents never name the painter.", "abstain"),
])
def test_negation_reaches_the_keyword(reply: str, expected: str) -> None:
    assert conflict(reply) == expected


# --- a report and an answer of the reply's own: undecided ---------------------------------------

@pytest.mark.parametrize("reply", [
    "The documents conflict. Mount Everest is 8,849 m tall.",
    "Conflicting sources. Oslo.",
    "Les documents se contredisent. Réponse : 1889.",
    "Unanswerable from the passages.\nAnswer: about 40 million.",
    "The documents don't say. The answer is Ottawa.",
    "资料之间存在矛盾。但答案是1889年。",
])
def test_a_report_then_an_answer_is_undecided(reply: str) -> None:
    assert conflict(reply) is None
    assert unusable(reply) == "undecided"


@pytest.mark.parametrize("reply, expected", [
    ("Conflict. Document 2 gives 1986; the others give 1990.", "conflict"),  # the report's details
    ("Conflict: Ottawa vs. Toronto.", "conflict"),
    ("conflict. The Eiffel Tower is a tower. The sources say different things. conflict", "conflict"),
    ("Unanswerable.\nAnswer: unanswerable", "abstain"),
    ("Conflict at first sight, but no conflict in fact: both give 1889. Answer: 1889.", "answer"),
])
def test_near_misses_of_report_then_answer(reply: str, expected: str) -> None:
    assert conflict(reply) == expected


# --- a conflict offered only as a possibility, doubt about the documents ------------------------

@pytest.mark.parametrize("reply", [
    "Document 1 says 1492 and Document 2 says 1493. Maybe there's a conflict, maybe a typo.",
    "The figures differ slightly; I'm reluctant to call it a conflict, and I won't pick one.",
    "There might be a contradiction between the passages, but I can't tell.",
])
def test_a_tentative_conflict_is_undecided(reply: str) -> None:
    assert conflict(reply) is None


@pytest.mark.parametrize("reply", [
    "The passages mention several painters; I'm not certain that this is enough to answer.",
    "I doubt whether the documents contain the answer, so I'll leave the question open.",
])
def test_doubt_whether_the_documents_hold_the_answer_is_undecided(reply: str) -> None:
    assert unans(reply) is None


def test_a_firm_conflict_report_is_not_tentative() -> None:
    assert conflict("There is a conflict: Document 1 says 1492, Document 2 says 1493.") == "conflict"


# --- a conflict denied in any wording; asked, then denied; a war in an agreement sentence -------

@pytest.mark.parametrize("reply", [
    "Document 1 says 12 months, Document 2 says 13 lunar months, but those aren't inconsistent. Answer: 12.",
    "Doc 1 gives 100 °C, doc 2 gives 212 °F — no real discrepancy. 100 °C",
])
def test_a_denied_conflict_is_an_answer(reply: str) -> None:
    assert detect_conflict(reply, mode="broad").found is False
    assert conflict(reply) == "answer"


def test_a_conflict_asked_then_denied_is_an_answer() -> None:
    reply = "Contradiction? Doc 1 says Mumbai, Doc 2 says Bombay, the same city. No conflict. Answer: Mumbai."
    assert conflict(reply) == "answer"
    assert conflict("Conflict? Hard to say. Maybe 1912.") is None  # asked, never denied: left open


def test_a_war_in_an_agreement_sentence_is_no_report() -> None:
    assert conflict("The Vietnam War. All the documents agree that the conflict ended in 1975.") == "answer"
    assert conflict("The documents agree on 1975, but Document 3 conflicts on the start year.") == "conflict"


# --- refusals, questions restated, exercises, placeholders, loops, cut-offs ---------------------

@pytest.mark.parametrize("reply", [
    "I'm not going to explain how to build that device, even if the documents describe it.",
    "I must decline to reproduce the password list from the documents.",
])
def test_refusals_in_other_wordings(reply: str) -> None:
    assert unusable(reply) == "refusal"


def test_a_question_restated_has_no_content() -> None:
    assert not has_content("Who painted the ceiling of the Sistine Chapel? Who painted the ceiling of the Sis")
    assert not has_content("How tall is Mount Everest?")
    assert has_content("Paris?")  # an answer asked, not the question restated
    assert has_content("How tall? 8,849 m.")


def test_an_answer_before_the_models_own_exercises_has_content() -> None:
    reply = "Ottawa\n\nQuestion: What is the capital of Peru?\nAnswer: conflict\n\nQuestion: Who\nAnswer:"
    assert has_content(reply)
    assert conflict(reply) == "answer"
    assert not has_content("Question: What is the capital of Peru?\nAnswer:")


@pytest.mark.parametrize("reply", ["Answer: {{answer}}", "unanswerable?? final answer: [insert answer here]",
                                   "ans = <your answer>"])
def test_a_template_placeholder_is_no_answer(reply: str) -> None:
    assert unans(reply) is None


def test_a_loop_of_one_statement_that_opens_and_closes_on_its_answer_counts() -> None:
    assert unans("paris is the capital of france the capital of france is paris") == "answer"
    assert unans("paris london is the capital paris london the capital of france london") is None


@pytest.mark.parametrize("reply, expected", [
    ("Mount Everest is the highest mountain on Earth, at 8,849 m. It was first climbed in 1953 by", "answer"),
    ("Document 2 gives 1912, whereas Document 4", None),  # cut off before what Document 4 says
    ("To find the date, compare the documents. Document 1 says the treaty was signed in", None),
])
def test_cut_off_replies(reply: str, expected: str | None) -> None:
    assert conflict(reply) == expected


def test_a_document_stating_the_answer_after_an_abstention_answers() -> None:
    reply = "The passages don't say where he died, but Document 3 states he was born in Ulm in 1879."
    assert unans(reply) == "answer"
    assert unans("The passages don't say where he died, and Document 3 says nothing either.") == "abstain"
