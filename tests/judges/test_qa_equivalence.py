"""The fast has-answer and F1 give what their definitions give (sliding window, Counter &)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rattle.matching import dpr_tokens, f1, has_answer, squad_normalize

# Characters whose lower case is special: final sigma (context), Kelvin sign and dotted I
# (lower to ASCII or to two characters), long s, sharp s, ligatures, combining marks.
WORDS = st.sampled_from(["Paris", "paris", "the", "ΟΔΟΣ", "Σ", "σ", "ς", "ΣΑΣ.Α", "é", "e\u0301",
                         "İ", "İstanbul", "istanbul", "\u212a", "k", "ſ", "s", "ẞ", "x-y", ",",
                         "1799", "a", "ß", "ﬁ", "fi", "  ", "\t", "'s"])
TEXTS = st.lists(WORDS, max_size=12).map(" ".join)


def window(answers: list[str], text: str) -> bool:
    tokens = dpr_tokens(text)
    for answer in answers:
        a = dpr_tokens(answer)
        if a and any(tokens[i: i + len(a)] == a for i in range(len(tokens) - len(a) + 1)):
            return True
    return False


def counter_f1(answers: list[str], prediction: str) -> float:
    pred = squad_normalize(prediction).split()
    best = 0.0
    for answer in answers:
        gold = squad_normalize(answer).split()
        same = sum((Counter(pred) & Counter(gold)).values())
        if not pred or not gold:
            score = float(pred == gold)
        elif same == 0:
            score = 0.0
        else:
            p, r = same / len(pred), same / len(gold)
            score = 2 * p * r / (p + r)
        best = max(best, score)
    return best


@settings(max_examples=1500, deadline=None)
@given(answers=st.lists(TEXTS, max_size=3), text=TEXTS)
def test_has_answer_equals_the_sliding_window(answers: list[str], text: str) -> None:
    assert has_answer(answers, text) == window(answers, text)


@settings(max_examples=300, deadline=None)
@given(answers=st.lists(TEXTS, max_size=3), text=st.text(max_size=40))
def test_has_answer_on_arbitrary_text(answers: list[str], text: str) -> None:
    assert has_answer(answers, text) == window(answers, text)
    assert has_answer([text], text) == bool(dpr_tokens(text))


@settings(max_examples=300, deadline=None)
@given(answers=st.lists(TEXTS, max_size=3), text=TEXTS)
def test_f1_equals_counter_intersection(answers: list[str], text: str) -> None:
    assert f1(answers, text) == counter_f1(answers, text)


def test_greek_final_sigma_is_lowered_per_token() -> None:
    assert has_answer(["οδος"], "ΟΔΟΣ.") and window(["οδος"], "ΟΔΟΣ.")
    assert has_answer(["Paris"], "He saw PARIS, then left") and not has_answer(["Pari"], "Paris")
