"""RALM replies that leave their answer undecided, added for the sixth dev file (broad mode;
``ralm.unusable`` consults them, and ralm.py stays under 500 lines):

- ``both_asserted``: an abstention stated as a sentence of its own beside an answer stated in
  another ("I'm unable to determine this from the documents. However, it is Paris.",
  "Unanswerable from the sources. (For reference, it's the Milky Way.)", "Mercury is the only
  liquid metal. However, this question is unanswerable from the documents."): the reply asserts
  both, so neither is its answer. An abstention clause that a "but" turns within its sentence
  ("The documents don't say, but it was Shakespeare") still answers (docs/judging.md).
- ``cut_off_before_answer``: a reply cut off mid-sentence ("…, the tallest building is the")
  that neither abstains nor reports a conflict and did not open with a short finished answer.
- ``either_values``: two candidate answers offered as "either X or Y" with no conflict reported
  ("It's either about 14 million or about 37 million, depending on which document you trust").
- ``doubts_itself``: the reply takes back what it just said as a possibility ("the documents
  seem to say different things, or maybe they don't", "… don't cover it, or maybe they do").
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from rattle.judges import signals
from rattle.judges.reply import sentences

__all__ = ["both_asserted", "cut_off_before_answer", "doubts_itself", "either_values"]

# A sentence that turns to something else: "However, …", "That said, …", "不过，…", an aside
# "(For reference, …)"
_TURN = re.compile(
    r"^\W*(?:however|but|that\s+said|still|nonetheless|nevertheless|even\s+so|then\s+again|"
    r"for\s+(?:reference|the\s+record|what\s+it'?s\s+worth|context|your\s+information)|fyi|incidentally|"
    r"(?:from|based\s+on|according\s+to)\s+(?:my\s+own\s+|general\s+|common\s+|outside\s+)?knowledge|"
    r"outside\s+(?:of\s+)?the\s+(?:documents?|sources?|passages?|context)|"
    r"sin\s+embargo|no\s+obstante|cependant|toutefois|n[\u00e9e]anmoins|allerdings|jedoch|aber|"
    r"per[\u00f2o]|tuttavia|por[\u00e9e]m|contudo|\u043e\u0434\u043d\u0430\u043a\u043e|\u043d\u043e)\b|"
    r"^\W*(?:\u4e0d\u8fc7|\u4f46\u662f|\u4f46|\u7136\u800c|\u53ef\u662f|\u305f\u3060\u3057|"
    r"\u3057\u304b\u3057)", re.I)
_ASIDE = re.compile(r"^\s*\(")
# What no answer sentence does: speak of the documents or the question, or only ask.
_ABOUT_SOURCES = re.compile(r"\b(?:documents?|passages?|sources?|context|texts?|provided|given|retrieved|"
                            r"question|they|these|those|unanswerable|conflict\w*)\b|"
                            r"\u6587\u6863|\u6587\u4ef6|\u8d44\u6599|\u6587\u66f8|\u8cc7\u6599", re.I)


def _states_something(unit: str) -> bool:
    """A sentence that states an answer: two or more words (or a value), not about the
    documents or the question, not a question."""
    core = _TURN.sub("", unit.strip(" ()")).strip(" ,:;")
    if core.rstrip(" )").endswith("?") or _ABOUT_SOURCES.search(core):
        return False
    words = re.findall(r"\w+", core)
    return len(words) >= 2 or bool(re.search(r"\d", core)) or bool(re.search(r"[^\x00-\u024f]{2,}", core))


def both_asserted(body: str, abstains: Callable[[str], bool]) -> bool:
    """Two neighbouring sentences, the second turning ("However, …") or an aside in parentheses,
    one abstaining and the other stating an answer (see the module docstring)."""
    units = [s for _, s in sentences(body) if re.search(r"\w", s)]
    for a, b in itertools.pairwise(units):
        if not (_TURN.match(b) or _ASIDE.match(b)):
            continue
        if (abstains(a) and _states_something(b)) or (_states_something(a) and abstains(b)):
            return True
    return False


def cut_off_before_answer(body: str, *, reports: bool) -> bool:
    """Cut off mid-sentence ("…, and 5% of 240 is") before it said anything it was asked for:
    no abstention or conflict (``reports``), not a loop, and not opened by a short finished
    answer ("Paris. It is the capital and")."""
    if reports or not (signals.cut_off(body) or _DANGLING_DOCUMENT.search(body)) or signals.degenerate(body):
        return False
    said = sentences(body)
    first = said[0][1] if said else ""
    finished = len(said) > 1 and re.search(r"[.!?\u3002]\W*$", first)
    # "Paris. It is the capital and", and (round 7) a finished first sentence that states the
    # answer at any length: "The capital of Turkey is Ankara, not Istanbul as many people assume.
    # Ankara became the capital in 1923 when the"
    return not (finished and (len(first.split()) <= 6 or (_states_something(first) and bool(
        re.search(r"\b(?:is|are|was|were)\b", first, re.I)))))


# Cut off right after naming a document, before what it says: "Document 1 names Charles de
# Gaulle, while Document 2"
_DANGLING_DOCUMENT = re.compile(r"(?:[,;]\s*|\s)(?:while|whereas|but|and|although|though|however)\s+(?:\w+\s+){0,2}?"
                                r"(?:doc(?:ument)?s?|passages?|sources?|articles?)\s*#?\s*\d*[\s*_]*$", re.I)


_EITHER = re.compile(r"\beither\s+(?P<a>[^,;.!?\u2014\u2013]{1,40}?)\s+or\s+(?P<b>[^,;.!?\u2014\u2013]{1,40})", re.I)


_UNSETTLED = re.compile(r"\b(?:depend\w*|not\s+sure|unsure|can't\s+(?:tell|say|decide)|cannot\s+(?:tell|say|"
                        r"decide)|hard\s+to\s+(?:say|tell)|unclear|either\s+way)\b", re.I)


def _value_like(phrase: str) -> bool:
    """A candidate answer: a number or a name ("1912", "Tokyo"), not a manner ("by card")."""
    return any(w[:1].isdigit() or w[:1].isupper() for w in re.findall(r"\w+", phrase))


def either_values(body: str) -> bool:
    """"either X or Y" naming two different candidate answers (neither the keyword): values
    or names, or any two phrases where the reply says it cannot settle them ("depending on
    …"); "You can pay either by card or in cash." answers."""
    for m in _EITHER.finditer(body):
        a, b = (" ".join(re.findall(r"\w+", g.lower())) for g in (m.group("a"), m.group("b")))
        if a and b and a != b and not any(re.search(r"\b(?:un-?answerable|conflict\w*|none|neither)\b", g)
                                          for g in (a, b)) and (
                (_value_like(m.group("a")) and _value_like(m.group("b"))) or _UNSETTLED.search(body)):
            return True
    return False


_SELF_DOUBT = re.compile(r"\bor\s+(?:maybe|perhaps|possibly)\s+(?:not\b|(?:they|it|there|that|this)\s+(?:don't|"
                         r"doesn't|do\s+not|does\s+not|isn't|aren't|is\s+not|are\s+not|didn't|wasn't|do|does|"
                         r"did|is|are|was|were)\b)", re.I)


def doubts_itself(body: str) -> bool:
    """"…, or maybe they don't", "…, or perhaps not", "…, or maybe they do": what it said,
    offered only as a possibility."""
    return bool(_SELF_DOUBT.search(body))
