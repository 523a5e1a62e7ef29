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
