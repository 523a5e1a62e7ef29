"""Word-level noise (RCC §3.3): insert, delete, replace words.

Follows the RCC attacker (reference-implementations.md §2.5): tokens are the non-empty
``' '``-separated words; the last character of the text is set aside and put back after the
edit (keeps the final full stop); ``round(rate * n)`` insertions or replacements, each new word
being, with probability 0.5, a random word of the text and otherwise a WordNet synonym of a
random word; deletion keeps each word when ``uniform() > rate`` (at least one word survives).
Fixed here: the synonym is drawn by the seeded generator from a sorted list, not taken from a
set in hash order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import accumulate
from typing import Any

from rattle.items import Edit
from rattle.perturbations.base import Perturber, check_rate, on_text
from rattle.registry import register

Synonyms = Callable[[str], list[str]]
# RCC attacker: a new word is a random word of the passage with probability 0.5, otherwise a
# WordNet synonym (paper §3.3, "Word-level attacks").
P_PASSAGE_WORD = 0.5
MAX_TRIES = 10  # RCC attacker: up to 10 tries to find a candidate word


def _wordnet_synonyms(word: str) -> list[str]:
    from rattle.nlp.wordnet import synonyms

    return synonyms(word)


def _new_word(words: list[str], original: list[str], rng: random.Random, syn: Synonyms) -> str | None:
    for _ in range(MAX_TRIES):
        w = rng.choice(words)
        if rng.random() < P_PASSAGE_WORD:
            return rng.choice(original)
        cands = syn(w.strip(".,;:!?\"'()").lower())
        if cands:
            return rng.choice(cands)
    return None


# Working-list tags: the original word i kept, the original word i replaced, a new word.
Tag = tuple[str, int]
KEPT, REPLACED, NEW = "kept", "replaced", "new"


def word_noise(op: str, text: str, rate: float, rng: random.Random,
               syn: Synonyms = _wordnet_synonyms) -> tuple[str, tuple[Edit, ...]]:
    words = [w for w in text.split(" ") if w]
    if not words:
        return text, ()
    spacing = list(words)
    sig = words[-1][-1]
    words[-1] = words[-1][:-1]
    if not words[-1]:
        words.pop()
    original = list(words) or [sig]
    # Each working word remembers which original word it is or replaces, so the edits are
    # read off directly instead of diffing the texts.
    work: list[tuple[str, Tag]] = [(w, (KEPT, i)) for i, w in enumerate(words)]
    if op == "delete":
        rnd = rng.random  # the attacker's uniform(0, 1), bit for bit
        work = [x for x in work if rnd() > rate]
        if not work:
            work = [(rng.choice(original), (NEW, -1))]
    else:
        n = round(len(original) * rate)
        for _ in range(n):
            new = _new_word([w for w, _ in work] or original, original, rng, syn)
            if new is None:
                continue
            if op == "insert":
                work.insert(rng.randint(0, len(work)), (new, (NEW, -1)))
            else:
                pos = rng.randrange(len(work))
                kind, i = work[pos][1]
                work[pos] = (new, (REPLACED, i) if kind != NEW else (NEW, -1))
    out = " ".join(w for w, _ in work) + sig
    return out, _edits(words, spacing, work)


def _edits(words: list[str], spacing: list[str], work: list[tuple[str, Tag]]) -> tuple[Edit, ...]:
    """Edits in original coordinates: deleted, replaced and inserted words."""
    cum = list(accumulate(map(len, spacing), initial=0))
    offset = [c + i for i, c in enumerate(cum)]
    present = {i for _, (kind, i) in work if kind != NEW}
    edits: list[Edit] = []
    pending: list[str] = []
    next_original = 0

    def deletions_until(stop: int) -> None:
        for j in range(next_original, stop):
            if j not in present:
                edits.append(Edit(offset[j], words[j], ""))

    for w, (kind, i) in work:
        if kind == NEW:
            pending.append(w)
            continue
        if i > next_original:
            deletions_until(i)
        if pending:
            edits.append(Edit(offset[i], "", " ".join(pending)))
            pending = []
        if kind == REPLACED:
            edits.append(Edit(offset[i], words[i], w))
        next_original = i + 1
    deletions_until(len(words))
    if pending:
        # New words at the end go before the set-aside last character.
        n = len(words)
        end = offset[n] if n < len(spacing) else offset[n] - 2
        edits.append(Edit(end, "", " ".join(pending)))
    return tuple(edits)


def _factory(op: str, rate: float) -> Perturber:
    check_rate(f"words.{op}", rate)
    syn = _wordnet_synonyms

    def run(text: str, rng: random.Random) -> tuple[str, tuple[Edit, ...], dict[str, Any]]:
        new, edits = word_noise(op, text, rate, rng, syn)
        return new, edits, {}

    return on_text(run)


@register("perturbation", "words.insert")
def insert(*, rate: float = 0.2) -> Perturber:
    """Insert round(rate*n) words: a passage word or a WordNet synonym, 50/50 (RCC §3.3)."""
    return _factory("insert", rate)


@register("perturbation", "words.delete")
def delete(*, rate: float = 0.2) -> Perturber:
    """Delete each word with probability rate; at least one word survives (RCC §3.3)."""
    return _factory("delete", rate)


@register("perturbation", "words.replace")
def replace(*, rate: float = 0.2) -> Perturber:
    """Overwrite round(rate*n) random positions with a passage word or WordNet synonym (RCC §3.3)."""
    return _factory("replace", rate)
