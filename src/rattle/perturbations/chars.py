"""Character-level noise (RCC §3.3, Appendix B Table 18): repeat, delete, insert.

Words are the ``' '``-separated tokens of the text; a word is eligible when it has more than one
character, and ``ceil(rate * eligible)`` eligible words are picked (reference-implementations.md
§2.5). The count ``c`` of characters affected is drawn once per variant from {1, 2, 3} with
probabilities (0.4, 0.4, 0.2) (Table 18) unless given.
"""

from __future__ import annotations

import math
import random
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


def _delete(word: str, count: int, rng: random.Random) -> str:
    if count >= len(word):
        return word
    start = rng.randint(0, len(word) - count)
    return word[:start] + word[start + count :]


def _repeat(word: str, count: int, rng: random.Random) -> str:
    i = rng.randrange(len(word))
    return word[:i] + word[i] * (count + 1) + word[i + 1 :]


def _insert(word: str, count: int, rng: random.Random) -> str:
    out = word
    for _ in range(count):
        pos = rng.randint(1, len(out))  # never before the first character (RCC attacker)
        out = out[:pos] + rng.choice(INSERT_SYMBOLS) + out[pos:]
    return out


_OPS = {"repeat": _repeat, "delete": _delete, "insert": _insert}


def char_noise(op: str, text: str, rate: float, count: int, rng: random.Random) -> tuple[str, tuple[Edit, ...]]:
    """Apply ``op`` to ``ceil(rate * eligible)`` words of ``text``; returns text and edits."""
    words = text.split(" ")
    eligible = [i for i, w in enumerate(words) if len(w) > 1]
    k = math.ceil(len(eligible) * rate)
    if k == 0:
        return text, ()
    chosen = sorted(rng.sample(eligible, k))
    fn = _OPS[op]
    offsets = []
    pos = 0
    for w in words:
        offsets.append(pos)
        pos += len(w) + 1
    edits = []
    for i in chosen:
        before = words[i]
        after = fn(before, count, rng)
        if after != before:
            words[i] = after
            edits.append(Edit(offsets[i], before, after))
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
