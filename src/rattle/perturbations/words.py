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

import difflib
import random
from collections.abc import Callable
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


def word_edits(before: list[str], after: list[str],
               spacing: list[str] | None = None) -> tuple[Edit, ...]:
    """Edits between two token lists, as character spans of the ``' '``-joined original.

    ``spacing`` gives the original tokens when ``before`` is a trimmed copy of them.
    """
    offsets = []
    pos = 0
    for w in spacing or before:
        offsets.append(pos)
        pos += len(w) + 1
    offsets.append(pos)
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    edits = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        edits.append(Edit(offsets[i1], " ".join(before[i1:i2]), " ".join(after[j1:j2])))
    return tuple(edits)


def word_noise(op: str, text: str, rate: float, rng: random.Random,
               syn: Synonyms = _wordnet_synonyms) -> tuple[str, tuple[Edit, ...]]:
    words = [w for w in text.split(" ") if w]
    if not words:
        return text, ()
    sig = words[-1][-1]
    words[-1] = words[-1][:-1]
    if not words[-1]:
        words.pop()
    original = list(words) or [sig]
    work = list(words)
    if op == "delete":
        work = [w for w in work if rng.uniform(0, 1) > rate]
        if not work:
            work = [rng.choice(original)]
    else:
        n = round(len(original) * rate)
        for _ in range(n):
            new = _new_word(work or original, original, rng, syn)
            if new is None:
                continue
            if op == "insert":
                work.insert(rng.randint(0, len(work)), new)
            else:
                work[rng.randrange(len(work))] = new
    out = " ".join(work) + sig
    # Edits are computed on the words without the set-aside last character, which every
    # variant keeps; offsets are those of the original words.
    return out, word_edits(words, work, [w for w in text.split(" ") if w])


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
