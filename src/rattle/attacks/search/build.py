"""Build an :class:`~rattle.attacks.search.engine.Attack` from option strings.

Each part is named as registered, with its options after ``?`` as on model names
(``beam?width=2``, ``similarity?threshold=0.9&metric=cosine``); parts are comma-separated,
and the items of a list option inside a part are separated by ``|``
(``protected?words=Paris|France``).
Options are checked against the part's registered factory (``rattle list constraint``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from rattle import registry
from rattle.attacks.search.constraints import Similarity
from rattle.attacks.search.engine import Attack
from rattle.errors import ConfigError
from rattle.registry import EntryKind


def parse_parts(spec: str) -> list[tuple[str, dict[str, str]]]:
    """``"a?x=1&y=p|q,b"`` -> ``[("a", {"x": "1", "y": "p,q"}), ("b", {})]``."""
    out = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        name, _, query = part.partition("?")
        options = {k: v.replace("|", ",") for k, v in parse_qsl(query, keep_blank_values=True)}
        out.append((name.strip(), options))
    return out


def _one(kind: EntryKind, spec: str, option: str) -> Any:
    parts = parse_parts(spec)
    if len(parts) != 1:
        raise ConfigError(f"{option}: name one {kind}, got {spec!r}")
    name, options = parts[0]
    return registry.create(kind, name, options, where=f"{option} {spec}")


def make_attack(*, method: str, goal: str, budget: int, transformations: str,
                constraints: str, measure_similarity: bool = True) -> Attack:
    """The attack the options name; ``measure_similarity`` reports found examples'
    similarity (all-MiniLM-L6-v2, angular) even when no similarity constraint is set."""
    made_t = tuple(registry.create("transformation", n, o, where=f"transformations {n}")
                   for n, o in parse_parts(transformations))
    made_c = tuple(registry.create("constraint", n, o, where=f"constraints {n}")
                   for n, o in parse_parts(constraints))
    names = [c.name for c in made_c]
    if len(set(names)) != len(names):
        raise ConfigError(f"constraints: each constraint at most once, got {constraints!r}")
    measure = next((c.measure for c in made_c if c.measure is not None), None)
    if measure is None and measure_similarity:
        measure = Similarity("angular")
    return Attack(made_t, made_c, _one("goal", goal, "goal"), _one("search_method", method, "method"),
                  budget, measure)
