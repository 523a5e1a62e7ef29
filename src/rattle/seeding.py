"""Randomness as an argument: every generator derives from (run seed, item id, name, params).

Derivation hashes a canonical JSON encoding with SHA-256, so the same inputs give the same
stream in any process and under any PYTHONHASHSEED (DESIGN.md, Randomness).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no whitespace, non-ASCII kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def derive_seed(*parts: Any) -> int:
    digest = hashlib.sha256(canonical(list(parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def rng_for(*parts: Any) -> random.Random:
    return random.Random(derive_seed(*parts))


def short_hash(value: Any, n: int = 10) -> str:
    return hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()[:n]


# Counter-based draws (SplitMix64, Steele, Lea & Flood 2014): word ``i`` of the stream keyed by
# ``key`` is a pure function of (key, i), so a batch computes every item's draws at once and
# gives exactly what one item computes alone. Used by the character perturbations.
GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
MASK64 = (1 << 64) - 1


def splitmix64(key: int, i: int) -> int:
    """Word ``i`` (0-based) of the SplitMix64 stream seeded with ``key``."""
    z = (key + (i + 1) * GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def below(word: int, n: int) -> int:
    """Map a 64-bit draw to ``range(n)`` by multiply-shift on its top 32 bits (n < 2**32)."""
    return ((word >> 32) * n) >> 32
