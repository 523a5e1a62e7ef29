"""Choice extraction: each step of the decision procedure, the issue's failure cases, answer
kinds (letters, yes/no options, numeric values) and the judge built on it."""

import pytest

from rattle.items import Option, Question, Response
from rattle.judges.choice import ChoiceJudge, answer_kind, extract_choice

OPTS = ["Paris", "Lyon", "Marseille", "Nice", "Le Havre", "Rouen", "Brest", "Nantes", "Lille"]
PETS = ["cat", "dog", "mouse", "rabbit", "mice"]
TF = ["False", "True", "Unable to determine"]  # A=False, B=True, C=Unable to determine
NUM = ["$1,500", "42", "3/4", "$1,200", "0.26"]

CASES = [
    # only a letter, in any frame or case
    ("(C)", OPTS, 2, "only"),
    ("c", OPTS, 2, "only"),
    ("G", OPTS, 6, "only"),
    ("**B**", OPTS, 1, "only"),
    ("B) Lyon", OPTS, 1, "only"),
    ("C. Marseille", OPTS, 2, "only"),
    ("Option D", OPTS, 3, "only"),
    # explicit statements beat the options the reply discusses
    ("(A) cat is a feline, (B) dog is a canine. The answer is (B).", PETS, 1, "answer-is"),
    ("Option (B) is wrong because dogs bark; the answer is (D).", PETS, 3, "answer-is"),
    ("Not (A). The answer is (E).", PETS, 4, "answer-is"),
    ("Answer: D", OPTS, 3, "only"),
    ("Answer: D\n\nParis (A) is the capital, but the question asks for a port.", OPTS, 3, "label"),
    ("answer is e", OPTS, 4, "answer-is"),
    ("I pick C.", OPTS, 2, "choose"),
    ("I'd go with (H) Nantes.", OPTS, 7, "choose"),
    ("Final answer: (B)", OPTS, 1, "final"),
    ('{"answer": "C", "reason": "port city"}', OPTS, 2, "json"),
    ("$\\boxed{F}$", OPTS, 5, "boxed"),
    ("Lyon is big, but (C) is correct.", OPTS, 2, "letter-is"),
    ("Paris is large. So it's (D).", OPTS, 3, "it-is"),
    ("Answer: A. Wait, no: the answer is B.", OPTS, 1, "revised-answer-is"),
    ("<think>\nMaybe (A)... or (C)?\n</think>\n\nThe answer is (C).", OPTS, 2, "answer-is"),
    ("La respuesta correcta es (B).", OPTS, 1, "answer-is"),
    ("Réponse : C", OPTS, 2, "label"),
    ("Die richtige Antwort ist E.", OPTS, 4, "answer-is"),
    ("答案是B。", OPTS, 1, "answer-is"),
    ("I'd say the answer is I, Lille.", OPTS, 8, "answer-is"),
    # a letter must stand as a letter
    ("The answer is a dog.", PETS, 1, "text-answer"),
    ("the answer is e.g. mice", PETS, 4, "text"),
    ("A dog barks.", PETS, 1, "text"),
    # the reply opens with an option's text, or mentions one letter
    ("Marseille, because it is the largest port.", OPTS, 2, "lead"),
    ("It is Marseille, in the south.", OPTS, 2, "text-answer"),
    ("The capital is Paris.", OPTS, 0, "text"),
    ("Nantes is on the Loire (H).", OPTS, 7, "mention"),
    ("Not Paris and not Lyon: it is the port city of Marseille.", OPTS, 2, "text"),
    # unmeasured
    ("A car is red.", OPTS, None, "unparsed"),
    ("I cannot answer that question.", OPTS, None, "refusal"),
    ("Unable to determine from the description.", OPTS, None, "refusal"),
    ("It's either B or C.", OPTS, None, "ambiguous"),  # choice@5: "either … or …" naming two options
    ("The answer is B or C.", OPTS, None, "ambiguous"),
    ("(A) Paris\n(B) Lyon\n(C) Marseille", OPTS, None, "echo-options"),
    ("I think it might be Lyon or Nice, I'm not sure.", OPTS, None, "ambiguous"),
    ("", OPTS, None, "empty"),
    # yes/no items
    ("Yes, it is right.", TF, 1, "yesno-yes"),
    ("No.", TF, 0, "yesno-no"),
    ("That's wrong: soup is mostly liquid.", TF, 0, "yesno-no"),
    ("No doubt this is correct.", TF, 1, "yesno-yes"),
    ("It cannot be determined from the description.", TF, 2, "yesno-undetermined"),
    ("The answer is no.", TF, 0, "yesno-answer"),
    ("(B)", TF, 1, "only"),
    ("I'm not sure.", TF, None, "hedge"),
    # numeric items: the stated value
    ("The answer is 42", NUM, 1, "value-answer"),
    ("300 items x $4 = $1,200.", NUM, 3, "value-last"),
    ("6 slices of 8 remain: 6/8 = 3/4", NUM, 2, "value-last"),
    ("The probability is 26%.", NUM, 4, "value-last"),
    ("So the answer is not 42 but $1,500.", NUM, 0, "value-last"),
    ("The answer is 41.", NUM, None, "not-an-option"),
]


@pytest.mark.parametrize(("reply", "options", "index", "how"), CASES,
                         ids=[c[0][:40] or "empty" for c in CASES])
def test_extract(reply: str, options: list[str], index: int | None, how: str) -> None:
    got = extract_choice(reply, options)
    assert (got.index, got.how) == (index, how)


def test_answer_kinds() -> None:
    assert answer_kind(["True", "False", "Unable to determine"]) == "yesno"
    assert answer_kind(["Unable to determine", "False", "True"]) == "yesno"
    assert answer_kind(["$78.20", "$61", "$65", "None of these"]) == "numeric"
    assert answer_kind(["5(√3 + 1)", "6(√3 + √2)", "7", "None of these"]) == "general"
    assert answer_kind(OPTS) == "general"


def test_letters_beyond_the_options_are_not_choices() -> None:
    assert extract_choice("(E)", OPTS[:3]).index is None


def test_longest_option_text_wins() -> None:
    opts = ["New York", "York", "Boston"]
    assert extract_choice("It is New York.", opts).index == 0
    assert extract_choice("York, in England.", opts).index == 1


def test_question_breaks_ties_between_restated_options() -> None:
    reply = "Sydney is the biggest city, but Canberra is the capital."
    opts = ["Sydney", "Canberra", "Melbourne"]
    assert extract_choice(reply, opts).index == 0  # without the question: the opening subject
    got = extract_choice(reply, opts, question="What is the capital of Australia?")
    assert (got.index, got.how) == (1, "text-question")


def test_judge_maps_display_position_to_option_and_handles_errors() -> None:
    q = Question("?", ("Lyon",), tuple(Option(t, "x") for t in OPTS[:3]), 1, (2, 0, 1))
    # display: (A) Marseille, (B) Paris, (C) Lyon
    j = ChoiceJudge()
    assert j(q, Response("(C)")).correct is True
    assert j(q, Response("(A)")).correct is False
    assert j(q, Response("(A)")).labels["option"] == 2
    assert j(q, Response("The answer is Lyon.")).labels["how"] == "text-answer"
    unm = j(q, Response("no idea, sorry"))
    assert unm.correct is None and unm.labels["status"] == "hedge"
    err = j(q, Response("", error="HTTP 500"))
    assert err.correct is None and err.labels["status"] == "error"
    assert ChoiceJudge(compat=True)(q, Response("no idea, sorry")).correct is False
