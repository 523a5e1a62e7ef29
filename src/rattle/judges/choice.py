"""Multiple-choice answers: which displayed option did the reply choose?

Handles ``(A)`` … ``(I)``, ``A.``/``A)``/``A:`` at the start, ``Answer: B``, ``option C``, a
bare letter, and the text of exactly one option. Refusals and replies naming no option are
unmeasured, not wrong (STYLE.md 7). Fixes to the RCC extractor (reference-implementations.md
§2.7), each deliberate: letters beyond E are recognised (QASC has up to 9 options), and there
is no first-character fallback (it matched the first displayed option almost always).
``compat=True`` counts unparsed replies as wrong, as the RCC scorer did.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rattle.items import Judgement, Question, Response
from rattle.registry import register

LETTERS = "ABCDEFGHI"
_PAREN = re.compile(r"\(([A-I])\)")
_KEYWORD = re.compile(r"\b(?:answer|option|choice)\b\s*(?:is|:|=)?\s*:?\s*\(?([A-I])\b(?![a-z'])",
                      re.IGNORECASE)
_START = re.compile(r"^\s*\**\(?([A-I])\**(?:[\.\):]|\s*$|\s+-\s)")
_LETTER_PAREN = re.compile(r"(?:^|\s)([A-I])\)")
_REFUSAL = re.compile(
    r"\b(i (?:cannot|can't|can not|am unable to|'m unable to|won't)|unable to (?:determine|answer)"
    r"|as an ai\b|i do not know|i don't know|none of the (?:above|options))",
    re.IGNORECASE,
)


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


@dataclass(frozen=True)
class Choice:
    index: int | None  # display position
    how: str


def extract_choice(reply: str, displayed: list[str]) -> Choice:
    """The display position the reply chose, and which rule found it."""
    n = len(displayed)
    valid = LETTERS[:n]
    for how, pattern in (("paren", _PAREN), ("keyword", _KEYWORD), ("start", _START),
                         ("letter-paren", _LETTER_PAREN)):
        for m in pattern.finditer(reply):
            letter = m.group(1).upper()
            if (how == "keyword" or letter == m.group(1)) and letter in valid:
                return Choice(valid.index(letter), how)
            if how == "start":
                break
    body = _norm(reply)
    if body:
        hits = [i for i, opt in enumerate(displayed)
                if (o := _norm(opt)) and re.search(r"(?:^| )" + re.escape(o) + r"(?: |$)", body)]
        if len(hits) > 1:  # keep only the hits that are not part of a longer hit
            longest = [i for i in hits if not any(
                i != j and _norm(displayed[i]) in _norm(displayed[j]) for j in hits)]
            hits = longest
        if len(hits) == 1:
            return Choice(hits[0], "text")
    if _REFUSAL.search(reply):
        return Choice(None, "refusal")
    return Choice(None, "unparsed")


@dataclass(frozen=True)
class ChoiceJudge:
    compat: bool = False
    name: str = "choice@1"

    def __call__(self, question: Question, response: Response) -> Judgement:
        if not response.ok:
            return Judgement(None, None, {"status": "error"}, response.error or "", self.name)
        displayed = [o.text for o in question.displayed]
        found = extract_choice(response.text, displayed)
        if found.index is None:
            correct = False if self.compat else None
            return Judgement(correct, None, {"status": found.how}, "", self.name)
        order = question.order or tuple(range(len(question.options)))
        chosen = order[found.index]
        kind = question.options[chosen].kind
        return Judgement(
            chosen == question.correct,
            LETTERS[found.index],
            {"status": "parsed", "how": found.how, "option": chosen, "option_type": kind,
             "position": found.index},
            "",
            self.name,
        )


@register("judge", "choice")
def choice(*, compat: bool = False) -> ChoiceJudge:
    """Which option a reply chose: (A)-(I), 'A.', 'Answer: B', option text; refusals unmeasured."""
    return ChoiceJudge(compat=compat)
