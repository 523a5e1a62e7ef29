"""Abstention and conflict detection in RALM replies (imperfect-retrieval-ralm.txt, Park & Lee,
TACL 2024, Tables 4, 7 and 9).

Two named modes:

- ``mode="paper"`` (default) looks for the strings the paper's prompts ask for: the Unans
  prompt says "If the answer cannot be found, write 'unanswerable'", the Conflict prompt says
  "respond with 'conflict'". The word counts unless it is negated ("it is not unanswerable:
  Paris", "There is no conflicting information; it is X", "no conflict").
- ``mode="broad"`` also accepts other phrasings of the same act: abstention ("the documents do
  not say", "not mentioned", "I don't know", "not enough information", "N/A") and conflict
  ("the documents disagree", "contradictory", "Document 1 says X, while Document 3 says Y").
  An abstention that goes on to answer anyway ("The documents don't say, but it is Paris")
  is an answer.

Reasoning blocks (``<think>…</think>``) are dropped in both modes: the answer is what follows.
``classify_reply`` maps a reply to the labelled sets' vocabulary (abstain / answer /
conflict; None for a reply with no content).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rattle.judges.reply import prepare

Mode = Literal["paper", "broad"]
Prompt = Literal["unans", "conflict", "normal"]
MODES: tuple[Mode, ...] = ("paper", "broad")

_NEG = (r"(?:\b(?:not|no|never|without|nothing|none|isn't|aren't|wasn't|non|hardly)\b|n't)"
        r"[\s\"'`*(\u201c\u2018-]*(?:(?:\w+|any)[\s\"'`*-]+){0,2}$")
# Paper strings (Table 9 prompts): 'unanswerable', 'conflict'.
_UNANSWERABLE = re.compile(r"\bun-?answerable\b", re.I)
_CONFLICT_WORD = re.compile(r"\bconflict(?:s|ing|ed)?\b|\bconflict-free\b", re.I)
# Broad mode: other ways of saying the answer is not in the documents.
_ABSTAIN = re.compile(
    r"\b(?:cannot|can't|can\s+not|could\s+not|couldn't|unable\s+to|impossible\s+to)\s+(?:be\s+)?"
    r"(?:answer(?:ed)?|find|found|determine[d]?|locate[d]?|identif(?:y|ied)|tell|say|know|"
    r"infer(?:red)?|provide)\b|"
    r"\b(?:do|does|did)\s+not\s+(?:mention|say|state|specify|provide|contain|include|give|list|"
    r"name|indicate|discuss|cover|have|answer)\b|\b(?:don't|doesn't|didn't)\s+(?:mention|say|"
    r"state|specify|provide|contain|include|give|list|name|indicate|discuss|cover|have|answer)\b|"
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't)\s+(?:not\s+)?(?:mentioned|stated|given|"
    r"provided|specified|found|available|included|listed|named|present|contained|discussed|"
    r"addressed)\b|\bnot\s+(?:mentioned|stated|given|provided|specified|found|available|"
    r"answerable)\b|\bnot\s+(?:in|found\s+in)\s+the\s+(?:documents?|passages?|text|context)\b|"
    r"\bno\s+(?:answer|information|info|mention|relevant\s+(?:information|documents?)|data|"
    r"details?|evidence)\b|\b(?:not\s+enough|insufficient|not\s+sufficient|lack\s+of)\s+"
    r"(?:information|context|data|evidence|details)\b|\bnone\s+of\s+the\s+(?:documents?|"
    r"passages?|texts?|sources?|articles?)\s+(?:mention|say|state|contain|provide|name|specify|"
    r"include|discuss|answer|give)|\bi\s+(?:do\s+not|don't)\s+know\b|\bi\s+(?:do\s+not|don't)\s+"
    r"have\s+enough\b|\b(?:i'?m|i\s+am)\s+not\s+sure\b|\bunclear\b|\b(?:mentions?|discuss(?:es)?|"
    r"describes?|covers?|talks?\s+about)\b[^.]{0,80}\bbut\s+not\b|^\W*(?:unknown|n/?a|none|no\s+idea|"
    r"not\s+sure|unsure)\W*$|\bnot\s+answerable\b|\bunbeantwortbar\b|\bno\s+se\s+puede\s+"
    r"responder\b|\bsin\s+respuesta\b|\bje\s+ne\s+sais\s+pas\b|\bich\s+wei\u00df\s+(?:es\s+)?nicht"
    r"\b|\u65e0\u6cd5\u56de\u7b54|\u7121\u6cd5\u56de\u7b54|\u4e0d\u77e5\u9053|\u65e0\u6cd5\u786e"
    r"\u5b9a|\u7b54\u3048\u3089\u308c\u307e\u305b\u3093", re.I | re.M)
# ... unless the reply goes on to answer anyway.
_ANSWERS_ANYWAY = re.compile(
    r"\b(?:but|however|though|although|yet)\b[\s,]*(?:based\s+on\s+(?:my|general)\s+knowledge"
    r"|from\s+(?:my|general)\s+knowledge|according\s+to\s+(?:my|general)\s+knowledge|it\s+(?:is|"
    r"was|'s)\b|the\s+answer\s+is\b|i\s+(?:believe|think)\b|it'?s\s+(?:likely|probably)\b|"
    r"(?:likely|probably)\b)", re.I)
_CONFLICT_BROAD = re.compile(
    r"\bcontradict(?:s|ory|ion|ions|ing)?\b|\bdisagree(?:s|ment|ments)?\b|\b(?:do|does)\s+not"
    r"\s+agree\b|\bdon't\s+agree\b|\binconsisten(?:t|cy|cies)\b|\bdiscrepanc(?:y|ies)\b|"
    r"\b(?:different|differing|varying|mixed|competing|contrasting)\s+(?:answers?|information|"
    r"claims?|years?|dates?|values?|names?|numbers?|figures?|accounts?|results?)\b|"
    r"\b(?:give|gives|present|presents|provide|provides|offer|offers|state|states|list|lists|"
    r"report|reports)\s+different\b|\bdifferent\s+(?:documents?|sources?|passages?)\s+(?:give|say|"
    r"state|report|list|claim|suggest|mention)|\b(?:documents?|sources?|passages?)\s+differ\b|"
    r"\bsome\s+(?:documents?|sources?|passages?)\s+(?:say|state|claim|report|list|mention|"
    r"suggest|credit|name)\b.*\b(?:others?|other\s+(?:documents?|sources?))\b|"
    r"\bkonflikt\b|\bconflicto\b|\bconflit\b|\bconflitto\b|\bconflito\b|\u51b2\u7a81|\u885d\u7a81|"
    r"\u77db\u76fe|\u043a\u043e\u043d\u0444\u043b\u0438\u043a\u0442|"
    r"\u043f\u0440\u043e\u0442\u0438\u0432\u043e\u0440\u0435\u0447", re.I)
_DOC = r"(?:doc(?:ument)?s?|passages?|sources?|articles?)\s*#?\d*(?:\s*(?:and|,|&)\s*\d+)*"
_DOC_SAYS = (r"(?:says?|states?|claims?|lists?|gives?|attributes?|credits?|names?|mentions?|"
             r"reports?|suggests?|puts?|dates?|indicates?)")
# "Document 1 says X, while Document 3 says Y"; "X, though one document says Y".
_CONTRAST_DOCS = re.compile(
    r"\b(?:but|while|whereas|however|though|although|yet|;)\W+(?:\w+\W+){0,2}?(?:(?:one|another|"
    r"other|some|a|an|the\s+other)\s+)?" + _DOC + r"\s+" + _DOC_SAYS + r"\b|\b" + _DOC + r"\s+"
    + _DOC_SAYS + r"\b[^.;]{1,80}?(?:\b(?:but|while|whereas|however|though|although|and)\b|[;,])\W*"
    r"(?:(?:one|another|other|some|the\s+other)\s+)?" + _DOC + r"\s+" + _DOC_SAYS + r"\b|"
    r"\b(?:although|though|while|whereas)\s+" + _DOC + r"\s+" + _DOC_SAYS + r"\b|"
    r"\b(?:doc(?:ument)?s|sources|passages)\b[^.]{0,80}\b(?:but|while|whereas|however|though|"
    r"although)\s+(?:one|another|others|some|the\s+other|a\s+few)\s+(?:\w+\s+)?" + _DOC_SAYS
    + r"\b", re.I)
_AGREE = re.compile(r"\b(?:all|both)\s+(?:the\s+)?(?:documents?\s+)?agree\b|\b(?:documents?|"
                    r"sources?)\s+(?:all\s+)?agree\b|\bare\s+consistent\b", re.I)


@dataclass(frozen=True)
class Detection:
    """Whether a reply abstains / reports a conflict, and the rule that decided."""

    found: bool
    how: str

    def __bool__(self) -> bool:
        return self.found


def _negated(text: str, start: int) -> bool:
    head = text[max(0, start - 40):start]
    head = re.split(r"[.;:!?\n]|\bbut\b", head)[-1]
    return bool(re.search(_NEG, head, re.I))


def _first_unnegated(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    for m in pattern.finditer(text):
        if not _negated(text, m.start()):
            return m
    return None


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        from rattle.errors import ConfigError

        raise ConfigError(f"unknown detection mode {mode!r}; use 'paper' (the papers' strings) "
                          "or 'broad' (other phrasings too)")


def detect_unanswerable(text: str, *, mode: Mode = "paper") -> Detection:
    """Does the reply abstain (the paper's 'unanswerable'; more phrasings in broad mode)?"""
    _check_mode(mode)
    body = prepare(text or "")
    if _first_unnegated(_UNANSWERABLE, body) is not None:
        return Detection(True, "unanswerable")
    if mode == "paper":
        return Detection(False, "paper: no 'unanswerable'")
    m = _first_unnegated(_ABSTAIN, body)
    if m is None:
        return Detection(False, "no abstention")
    if _ANSWERS_ANYWAY.search(body, m.end()):
        return Detection(False, "abstains, then answers")
    first = re.match(r"[^.!?\n]*[.!?\n]", body)
    if first and m.start() >= first.end() and len(first.group(0).split()) <= 8 \
            and _first_unnegated(_ABSTAIN, first.group(0)) is None:
        return Detection(False, "answers first")  # "Paris. The documents mention no other city."
    return Detection(True, "abstention phrase")


def detect_conflict(text: str, *, mode: Mode = "paper") -> Detection:
    """Does the reply report conflicting documents (the paper's 'conflict'; more phrasings in
    broad mode)?"""
    _check_mode(mode)
    body = prepare(text or "")
    if _first_unnegated(_CONFLICT_WORD, body) is not None:
        return Detection(True, "conflict")
    if mode == "paper":
        return Detection(False, "paper: no 'conflict'")
    if _first_unnegated(_CONFLICT_BROAD, body) is not None:
        return Detection(True, "conflict phrase")
    if _CONTRAST_DOCS.search(body) and not _AGREE.search(body):
        return Detection(True, "documents contrasted")
    return Detection(False, "no conflict")


def says_unanswerable(text: str, *, mode: Mode = "paper") -> bool:
    return detect_unanswerable(text, mode=mode).found


def says_conflict(text: str, *, mode: Mode = "paper") -> bool:
    return detect_conflict(text, mode=mode).found


def has_content(text: str) -> bool:
    """False for an empty reply, punctuation only, or an echo of the prompt's scaffolding
    ("Question: …\\nAnswer:" with nothing after it)."""
    body = prepare(text or "")
    if not re.search(r"\w", body):
        return False
    m = re.search(r"(?:^|\n)\s*Answer:\s*$", body)
    return not (m and re.search(r"(?:^|\n)\s*(?:Question|Documents):", body))


def classify_reply(text: str, *, prompt: Prompt = "unans", mode: Mode = "paper") -> str | None:
    """The labelled sets' label of a RALM reply: 'conflict' (Conflict prompt only),
    'abstain', 'answer', or None for a reply with no content."""
    if not has_content(text):
        return None
    if prompt == "conflict" and says_conflict(text, mode=mode):
        return "conflict"
    if says_unanswerable(text, mode=mode):
        return "abstain"
    return "answer"
