"""Words of an attacked text and the texts a search builds from them.

A word is the core of a whitespace-separated token: the token without its leading and
trailing punctuation ("Paris." -> "Paris"). A search state is a set of changes to words of the
*original* text (word index -> new core, "" deletes the word with one adjacent space), so
word indices never shift and every candidate's edits are read off in original coordinates.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from rattle.items import Edit

_TOKEN = re.compile(r"\S+")
_CORE = re.compile(r"^\W*(.*?)\W*$", re.DOTALL)


@dataclass(frozen=True)
class Word:
    """One word: its core text and where the core starts and ends in the original text."""

    start: int
    end: int
    text: str


def split_words(text: str) -> tuple[Word, ...]:
    """The words of ``text`` in order (tokens made only of punctuation are not words)."""
    out = []
    for token in _TOKEN.finditer(text):
        m = _CORE.match(token.group())
        assert m is not None  # the pattern matches every string
        core = m.group(1)
        if core:
            start = token.start() + m.start(1)
            out.append(Word(start, start + len(core), core))
    return tuple(out)


@dataclass(frozen=True)
class Change:
    """Word ``index`` became ``after`` ("" = deleted) by transformation ``how``."""

    index: int
    after: str
    how: str


@dataclass(frozen=True)
class Candidate:
    """A text the search may ask about: the original with ``changes`` (sorted by index)."""

    text: str
    changes: tuple[Change, ...]
    edits: tuple[Edit, ...]

    def changed(self) -> frozenset[int]:
        return frozenset(c.index for c in self.changes)


def _span(text: str, word: Word, after: str) -> tuple[int, int]:
    """The characters a change replaces: the core, plus one adjacent space for a deletion."""
    if after:
        return word.start, word.end
    if word.end < len(text) and text[word.end].isspace():
        return word.start, word.end + 1
    if word.start > 0 and text[word.start - 1].isspace():
        return word.start - 1, word.end
    return word.start, word.end


def build(text: str, words: tuple[Word, ...], changes: Mapping[int, Change]) -> Candidate:
    """The candidate ``changes`` make of ``text``, with its edits in original coordinates."""
    pieces: list[str] = []
    edits: list[Edit] = []
    at = 0
    for index in sorted(changes):
        change = changes[index]
        start, end = _span(text, words[index], change.after)
        start = max(start, at)  # two deletions may claim the same space
        pieces.append(text[at:start])
        pieces.append(change.after)
        edits.append(Edit(start, text[start:end], change.after))
        at = end
    pieces.append(text[at:])
    ordered = tuple(changes[i] for i in sorted(changes))
    return Candidate("".join(pieces), ordered, tuple(edits))


def original_candidate(text: str) -> Candidate:
    return Candidate(text, (), ())
