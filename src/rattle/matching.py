"""Answer matching shared by judges, attacks and retrieval: DPR has-answer, SQuAD EM and F1.

``has_answer``: some gold alias occurs as a token subsequence of the text after Unicode NFD
normalisation and lower-casing (the DPR/RALM accuracy, RALM Appendix B; also how retrieved
documents are marked as containing the answer). ``exact_match``/``f1``: SQuAD normalisation
(lower-case, drop punctuation and articles, collapse spaces).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

_TOKEN = re.compile(r"[\w]+|[^\w\s]", re.UNICODE)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)
_DROP_PUNCT = str.maketrans("", "", string.punctuation)


def dpr_tokens(text: str) -> list[str]:
    """DPR's tokens: words and single punctuation marks, NFD-normalised, lower-case."""
    return [t.lower() for t in _TOKEN.findall(unicodedata.normalize("NFD", text))]


def _joined_tokens(text: str) -> str:
    """``" ".join(dpr_tokens(text))``: tokens hold no spaces and ``lower`` is per character
    except Greek final sigma, whose context a space bounds, so one ``lower`` does."""
    return " ".join(_TOKEN.findall(unicodedata.normalize("NFD", text))).lower()


def has_answer(answers: Sequence[str], text: str) -> bool:
    """Some alias's tokens occur as a contiguous run of the text's tokens: with tokens joined
    by single spaces, a substring bounded by spaces (same result as a sliding window).

    Most texts lack the alias altogether: its first token must then be a substring of the
    lower-cased text (``lower`` is per character but for sigma, so a token with no sigma
    lowers the same alone or in the text), checked before the text is tokenised."""
    low: str | None = None
    hay: str | None = None
    for answer in answers:
        needle = _joined_tokens(answer)
        if not needle:
            continue
        first = needle.split(" ", 1)[0]
        if "σ" not in first and "ς" not in first:
            if low is None:
                low = unicodedata.normalize("NFD", text).lower()
            if first not in low:
                continue
        if hay is None:
            hay = f" {_joined_tokens(text)} "
        if f" {needle} " in hay:
            return True
    return False


@lru_cache(maxsize=4096)  # a suite scores one reply with EM and F1 (and judges repeat it)
def squad_normalize(text: str) -> str:
    """SQuAD answer normalisation."""
    text = text.lower()
    text = text.translate(_DROP_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def exact_match(answers: Sequence[str], prediction: str) -> bool:
    """SQuAD exact match against any alias."""
    p = squad_normalize(prediction)
    return any(squad_normalize(a) == p for a in answers)


def f1(answers: Sequence[str], prediction: str) -> float:
    """SQuAD token F1, best over aliases."""
    pred = squad_normalize(prediction).split()
    pred_counts = Counter(pred)
    best = 0.0
    for answer in answers:
        gold = squad_normalize(answer).split()
        # The size of the multiset intersection, read from the (short) gold side.
        same = sum(min(n, pred_counts[t]) for t, n in Counter(gold).items())
        if not pred or not gold:
            score = float(pred == gold)
        elif same == 0:
            score = 0.0
        else:
            precision = same / len(pred)
            recall = same / len(gold)
            score = 2 * precision * recall / (precision + recall)
        best = max(best, score)
    return best
