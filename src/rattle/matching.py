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

_TOKEN = re.compile(r"[\w]+|[^\w\s]", re.UNICODE)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)


def dpr_tokens(text: str) -> list[str]:
    """DPR's tokens: words and single punctuation marks, NFD-normalised, lower-case."""
    return [t.lower() for t in _TOKEN.findall(unicodedata.normalize("NFD", text))]


def has_answer(answers: Sequence[str], text: str) -> bool:
    """Whether some alias occurs in ``text`` as a token subsequence (DPR)."""
    tokens = dpr_tokens(text)
    for answer in answers:
        a = dpr_tokens(answer)
        if not a:
            continue
        for i in range(len(tokens) - len(a) + 1):
            if tokens[i : i + len(a)] == a:
                return True
    return False


def squad_normalize(text: str) -> str:
    """SQuAD answer normalisation."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def exact_match(answers: Sequence[str], prediction: str) -> bool:
    """SQuAD exact match against any alias."""
    p = squad_normalize(prediction)
    return any(squad_normalize(a) == p for a in answers)


def f1(answers: Sequence[str], prediction: str) -> float:
    """SQuAD token F1, best over aliases."""
    pred = squad_normalize(prediction).split()
    best = 0.0
    for answer in answers:
        gold = squad_normalize(answer).split()
        common = Counter(pred) & Counter(gold)
        same = sum(common.values())
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
