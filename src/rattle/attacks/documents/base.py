"""What a document attack produces, the context it draws on, and how documents are inserted.

A document attack is a flow (STYLE.md 10): it may yield chat requests to an attacker model and
returns an ``AddedDocument`` or a ``Dropped`` with the reason (counted in the run). Offline
generators yield nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rattle.items import Document, Item
from rattle.matching import has_answer
from rattle.models.base import Completion

Similarity = Callable[[str, str], float]


@dataclass(frozen=True)
class AddedDocument:
    """A document an attack adds to the retrieved set, with what it asserts and how it was
    made (provenance)."""

    document: Document
    kind: str
    conflict_answers: tuple[str, ...] = ()
    provenance: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Dropped:
    """An attack that produced nothing for an item, and why (counted in the run's notes)."""

    kind: str
    reason: str


Outcome = AddedDocument | Dropped
AttackFlow = Generator[Any, Completion, Outcome]


@dataclass
class AttackContext:
    """What generators may use: retrieved documents, other items, entity pools, similarity."""

    retrieved: Mapping[str, Sequence[Document]]  # item id -> top-k (+1) documents, ranked
    k: int
    items: Sequence[Item]
    similarity: Similarity | None = None
    entity_pools: Mapping[str, Sequence[str]] = field(default_factory=dict)
    nlp: Any = None


def answer_docs(item: Item, docs: Sequence[Document]) -> list[Document]:
    return [d for d in docs if has_answer(item.answers, f"{d.title} {d.text}")]


_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(text) if s.strip()]


def answer_sentence(item: Item, docs: Sequence[Document]) -> tuple[str, Document] | None:
    """The first sentence of a retrieved document that contains a gold answer."""
    for d in answer_docs(item, docs):
        for s in sentences(d.text):
            if has_answer(item.answers, s):
                return s, d
    return None


def insert(docs: Sequence[Document], added: Document, rng: random.Random) -> tuple[tuple[Document, ...], int]:
    """Insert at a uniformly drawn position among the len(docs)+1 slots.

    Deliberate: the GenADV code drew ``randint(0, len-1)``, never after the last document;
    the paper says "randomly inserted", so every slot is possible here.
    """
    position = rng.randint(0, len(docs))
    out = list(docs)
    out.insert(position, added)
    return tuple(out), position


def clip_words(text: str, keep: str, max_words: int = 100) -> str:
    """At most ``max_words`` words, whole sentences, always keeping the sentence ``keep``."""
    sents = sentences(text)
    if keep not in sents:
        sents = [keep, *sents]
    start = sents.index(keep)
    chosen = [keep]
    words = len(keep.split())
    for s in sents[start + 1 :] + sents[:start][::-1]:
        n = len(s.split())
        if words + n > max_words:
            break
        if sents.index(s) > start:
            chosen.append(s)
        else:
            chosen.insert(0, s)
        words += n
    return " ".join(chosen)
