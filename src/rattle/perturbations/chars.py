"""Character-level noise (RCC §3.3, Appendix B Table 18): repeat, delete, insert.

Words are the ``' '``-separated tokens of the text; a word is eligible when it has more than one
character, and ``ceil(rate * eligible)`` eligible words are picked (reference-implementations.md
§2.5). The count ``c`` of characters affected is drawn once per variant from {1, 2, 3} with
probabilities (0.4, 0.4, 0.2) (Table 18) unless given.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from itertools import accumulate, compress
from typing import Any

from rattle.errors import ConfigError
from rattle.items import Edit
from rattle.perturbations.base import Perturber, check_rate, on_text
from rattle.registry import register

# Table 18: number of deletions / repetitions c in {1, 2, 3} with probability [0.4, 0.4, 0.2].
COUNTS = (1, 2, 3)
COUNT_WEIGHTS = (0.4, 0.4, 0.2)
# The symbols the RCC authors' attacker inserts (reference-implementations.md §2.5), including
# the full-width tilde U+FF5E.
INSERT_SYMBOLS = ("#", "@", "\uff5e", "$", "%", "^", "&", "*", "-", "+", "=", "}", "{", "<", ">")


def _delete(word: str, count: int, rnd: Callable[[], float]) -> str:
    if count >= len(word):
        return word
    start = int(rnd() * (len(word) - count + 1))
    return word[:start] + word[start + count :]


def _repeat(word: str, count: int, rnd: Callable[[], float]) -> str:
    i = int(rnd() * len(word))
    return word[:i] + word[i] * (count + 1) + word[i + 1 :]


def _insert(word: str, count: int, rnd: Callable[[], float]) -> str:
    out = word
    n = len(INSERT_SYMBOLS)
    for _ in range(count):
        pos = 1 + int(rnd() * len(out))  # never before the first character (RCC attacker)
        out = out[:pos] + INSERT_SYMBOLS[int(rnd() * n)] + out[pos:]
    return out


_OPS = {"repeat": _repeat, "delete": _delete, "insert": _insert}


def eligible_words(words: list[str]) -> list[int]:
    """Indices of words longer than one character (RCC attacker)."""
    return list(compress(range(len(words)), map((1).__lt__, map(len, words))))


def choose(pool: list[int], k: int, rnd: Callable[[], float]) -> list[int]:
    """``k`` distinct entries of ``pool`` (partial Fisher-Yates), in ascending order."""
    pool = list(pool)
    m = len(pool)
    for j in range(k):
        r = j + int(rnd() * (m - j))
        pool[j], pool[r] = pool[r], pool[j]
    return sorted(pool[:k])


def char_noise(op: str, text: str, rate: float, count: int, rng: random.Random) -> tuple[str, tuple[Edit, ...]]:
    """Apply ``op`` to ``ceil(rate * eligible)`` words of ``text``; returns text and edits.

    Draws use ``rng.random()`` directly (``int(random() * n)``): a fraction of the cost of
    ``randint`` and identical in every process for a given seed.
    """
    words = text.split(" ")
    eligible = eligible_words(words)
    k = math.ceil(len(eligible) * rate)
    if k == 0:
        return text, ()
    rnd = rng.random
    chosen = choose(eligible, k, rnd)
    fn = _OPS[op]
    cum = list(accumulate(map(len, words), initial=0))
    edits = []
    for i in chosen:
        before = words[i]
        after = fn(before, count, rnd)
        if after != before:
            words[i] = after
            edits.append(Edit(cum[i] + i, before, after))
    return " ".join(words), tuple(edits)


def _factory(op: str, rate: float, count: int | None) -> Perturber:
    check_rate(f"chars.{op}", rate)
    if count is not None and count not in COUNTS:
        raise ConfigError(f"chars.{op}: count must be 1, 2 or 3, got {count}")

    def run(text: str, rng: random.Random) -> tuple[str, tuple[Edit, ...], dict[str, Any]]:
        c = count
        if c is None:
            c = 1 if op == "insert" else rng.choices(COUNTS, COUNT_WEIGHTS)[0]
        new, edits = char_noise(op, text, rate, c, rng)
        return new, edits, {"count": c}

    return on_text(run)


@register("perturbation", "chars.repeat")
def repeat(*, rate: float = 0.5, count: int | None = None) -> Perturber:
    """Repeat one character of each chosen word c more times (RCC Table 18)."""
    return _factory("repeat", rate, count)


@register("perturbation", "chars.delete")
def delete(*, rate: float = 0.5, count: int | None = None) -> Perturber:
    """Delete a run of c characters from each chosen word (RCC Table 18)."""
    return _factory("delete", rate, count)


@register("perturbation", "chars.insert")
def insert(*, rate: float = 0.5, count: int | None = 1) -> Perturber:
    """Insert one symbol (#, @, ～, $, ...) into each chosen word, never first (RCC Table 18)."""
    return _factory("insert", rate, count)
