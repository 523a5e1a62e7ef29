"""Choice extraction on a table of real-looking replies."""

import pytest

from rattle.items import Option, Question, Response
from rattle.judges.choice import ChoiceJudge, extract_choice

OPTS = ["Paris", "Lyon", "Marseille", "Nice", "Le Havre", "Rouen", "Brest", "Nantes", "Lille"]

CASES = [
    ("(C)", 2, "paren"),
    ("The answer is (B) Lyon.", 1, "paren"),
    ("Answer: D", 3, "keyword"),
    ("answer is e", 4, "keyword"),
    ("I think option F is correct", 5, "keyword"),
    ("A. Paris", 0, "start"),
    ("B) Lyon", 1, "start"),
    ("G", 6, "start"),
    ("**H**: Nantes", 7, "start"),
    ("(I) Lille", 8, "paren"),
    ("It is Marseille, in the south.", 2, "text"),
    ("The capital is Paris.", 0, "text"),
    ("A car is red.", None, "unparsed"),
    ("I cannot answer that question.", None, "refusal"),
    ("Unable to determine from the description.", None, "refusal"),
    ("", None, "unparsed"),
]


@pytest.mark.parametrize(("reply", "index", "how"), CASES)
def test_extract(reply: str, index: int | None, how: str) -> None:
    got = extract_choice(reply, OPTS)
    assert (got.index, got.how) == (index, how)


def test_letters_beyond_the_options_are_not_choices() -> None:
    assert extract_choice("(E)", OPTS[:3]).index is None


def test_longest_option_text_wins() -> None:
    opts = ["New York", "York", "Boston"]
    assert extract_choice("It is New York.", opts).index == 0


def test_judge_maps_display_position_to_option_and_handles_errors() -> None:
    q = Question("?", ("Lyon",), tuple(Option(t, "x") for t in OPTS[:3]), 1, (2, 0, 1))
    # display: (A) Marseille, (B) Paris, (C) Lyon
    j = ChoiceJudge()
    assert j(q, Response("(C)")).correct is True
    assert j(q, Response("(A)")).correct is False
    assert j(q, Response("(A)")).labels["option"] == 2
    unm = j(q, Response("no idea, sorry"))
    assert unm.correct is None
    err = j(q, Response("", error="HTTP 500"))
    assert err.correct is None and err.labels["status"] == "error"
    assert ChoiceJudge(compat=True)(q, Response("no idea, sorry")).correct is False
