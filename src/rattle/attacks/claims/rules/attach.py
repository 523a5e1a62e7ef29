"""Where a clause about an entity goes (distraction injection and multihop extension).

Issue 15 found clauses attached to the wrong noun ("The Great Fire of London, the capital of
Ireland, began ...") and entities described twice. A clause about a mention therefore attaches
only where the dependency parse makes the mention the head of its own noun phrase: not inside
a longer name, not a modifier of another noun ("the Paris Agreement", "George Orwell's novel"),
and not an entity the sentence already describes with an appositive or a relative clause (at
most one per entity). It goes after the whole phrase; when the phrase continues past the name
("The Eiffel Tower in Paris"), only a relative clause ("which ...") can follow it without
attaching to the last noun. A clause never restates an entity the sentence already names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rattle.attacks.claims.rules.common import name_spans

RELATIVE = re.compile(r"^(?:who|whom|whose|which|that|where|when)\b")
_PHRASE_DEPS = {"prep", "acl", "cc", "conj", "nummod", "npadvmod", "compound", "amod"}
_MODIFIER_DEPS = {"compound", "amod", "nmod", "poss", "npadvmod"}


@dataclass(frozen=True)
class Attachment:
    """A mention ``claim[start:end]`` and where a clause about it is inserted."""

    start: int
    end: int
    point: int  # offset the clause is inserted at (after the mention's whole phrase)
    relative_only: bool  # the phrase goes on past the mention: only "which/who ..." fits


# Words a name may carry before the entity's own name ("the Eiffel Tower", "Sir Sydney Smith").
_PREFIXES = {"", "the", "sir", "dame", "lord", "lady", "dr", "dr.", "saint", "st", "st.", "king",
             "queen"}


def _parenthetical(doc: Any, head: Any, clause: Any) -> bool:
    """A participial clause set off by commas after ``head`` (", commonly known as The O2,"):
    it describes the head; one at the end of the sentence may describe the whole clause."""
    if clause.i < head.i or not any(t.text == "," for t in doc[head.i:clause.i]):
        return False
    after = int(clause.right_edge.i) + 1
    return after < len(doc) and str(doc[after].text) == ","


def _tokens(doc: Any, start: int, end: int) -> list[Any]:
    return [t for t in doc if start <= t.idx < end]


def attachment(claim: str, doc: Any, start: int, end: int) -> Attachment | None:
    """How a clause about the mention ``claim[start:end]`` attaches, or None."""
    for a, b in name_spans(doc):
        if a <= start and end <= b and (a, b) != (start, end) and (
                claim[a:start].strip().lower() not in _PREFIXES or claim[end:b].strip()):
            return None  # inside a longer name ("Great Fire of London")
    tokens = _tokens(doc, start, end)
    if not tokens:
        return None
    heads = [t for t in tokens if not start <= t.head.idx < end or t.head.i == t.i]
    if len(heads) != 1:
        return None
    head = heads[0]
    if head.dep_ in _MODIFIER_DEPS or (head.i + 1 < len(doc) and doc[head.i + 1].tag_ == "POS"):
        return None  # a modifier of another noun, or a possessive
    if any(c.dep_ in ("appos", "relcl") or (c.dep_ == "acl" and _parenthetical(doc, head, c))
           for c in head.children):
        return None  # already described (at most one appositive or relative clause)
    after = claim[end:].lstrip()
    if after.startswith(",") and any(t.dep_ == "appos" and t.head.i == head.i for t in doc):
        return None
    if re.match(r"\s*,\s*[A-Z]", claim[end:]) and not RELATIVE.match(claim[end:].lstrip(" ,")):
        return None  # the name goes on after a comma: "Impression, Sunrise", "Basel, Switzerland"
    if head.dep_ == "appos" and head.head.pos_ == "NOUN" and head.head.i < head.i:
        head = head.head  # "the song Bohemian Rhapsody by the band Queen": the song's phrase
    right = head.i
    for c in head.children:
        if c.i > head.i and c.dep_ in _PHRASE_DEPS and not any(
                t.text in (",", ";", "(") for t in doc[head.i + 1:c.i]):
            right = max(right, c.right_edge.i)
    last = doc[right]
    point = last.idx + len(last.text)
    if right + 1 < len(doc) and doc[right + 1].idx == point and doc[right + 1].text not in (
            ",", ".", ";", ":", "!", "?", ")"):
        return None  # the phrase runs on into a word ("Paris's", "Paris-based")
    return Attachment(start, end, max(point, end), point > end)


def fits(clause: str, at: Attachment) -> bool:
    """Whether ``clause`` can follow the attachment point (a relative clause always can)."""
    return not at.relative_only or bool(RELATIVE.match(clause))


_CAPITALISED = re.compile(r"\b[A-Z][\w'’.-]*[a-z]\w*")


_STOP = {"a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "and", "or", "who", "which",
         "that", "whose", "was", "is", "are", "were", "with", "from", "as", "its", "his", "her"}


def restates(clause: str, text: str, allowed: str = "") -> bool:
    """Whether ``clause`` names something ``text`` already names (a capitalised word of the
    clause, not its first word, found in the text), apart from ``allowed``, or says what the
    text says (most of its content words are already there)."""
    words = {m.group(0) for m in _CAPITALISED.finditer(clause) if m.start() > 0}
    words -= set(allowed.split())
    present = set(re.findall(r"[\w'’.-]+", text))
    if words & present:
        return True
    content = {w.lower() for w in re.findall(r"[\w'’-]+", clause)} - _STOP
    lower = {w.lower() for w in present}
    return bool(content) and len(content & lower) >= 0.6 * len(content)
