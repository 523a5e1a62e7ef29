"""Applying a registered perturbation to an item, with provenance and a derived seed.

A perturbation factory takes typed keyword arguments (its configuration) and returns a
``Perturber``: ``(item, rng) -> (new item, target, edits, resolved params)``. Resolved params
are the factory's arguments plus any value drawn at apply time (RCC draws an edit count per
variant), so ``rattle report`` can say exactly what ran.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rattle import registry
from rattle.errors import ConfigError
from rattle.items import Edit, Item, Target, Variant, attack_target, target_text, with_text
from rattle.seeding import rng_for, short_hash

TextOp = Callable[[str, random.Random], tuple[str, tuple[Edit, ...], dict[str, Any]]]
Perturber = Callable[[Item, random.Random], tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]]


def on_text(op: TextOp) -> Perturber:
    """Lift a text operation to items: edit the passage, or the question when there is none."""

    def perturb(item: Item, rng: random.Random) -> tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]:
        target = attack_target(item)
        text, edits, drawn = op(target_text(item, target), rng)
        return with_text(item, target, text), target, edits, drawn

    return perturb


def build(name: str, params: Mapping[str, Any]) -> tuple[registry.Entry, Perturber]:
    entry = registry.get("perturbation", name)
    try:
        perturber: Perturber = entry.factory(**params)
    except TypeError as exc:
        raise ConfigError(f"perturbation {name}: bad parameters {dict(params)}: {exc}") from None
    return entry, perturber


def apply(name: str, item: Item, *, seed: int, params: Mapping[str, Any] | None = None,
          perturber: Perturber | None = None) -> Variant:
    """The variant of ``item`` under perturbation ``name`` with ``params``, seeded per item."""
    given = dict(params or {})
    entry = registry.get("perturbation", name)
    if perturber is None:
        entry, perturber = build(name, given)
    rng = rng_for(seed, item.id, entry.name, given)
    new_item, target, edits, drawn = perturber(item, rng)
    resolved = {**given, **drawn}
    return Variant(
        id=f"{item.id}/{entry.name}@{entry.version}/{short_hash([seed, given], 8)}",
        parent_id=item.id,
        item=new_item,
        attack=entry.name,
        version=entry.version,
        params=resolved,
        seed=seed,
        target=target,
        edits=edits,
    )


def perturb_text(name: str, text: str, *, seed: int = 0, key: str = "text",
                 **params: Any) -> tuple[str, tuple[Edit, ...]]:
    """Perturb a bare string (the question of a one-question item); for notebooks and tests."""
    from rattle.items import Question

    item = Item(id=key, questions=(Question(text=text),), passage=None)
    variant = apply(name, item, seed=seed, params=params)
    return variant.item.question, variant.edits


def check_rate(name: str, rate: float) -> float:
    if not 0.0 <= rate <= 1.0:
        raise ConfigError(f"{name}: rate must be in [0, 1], got {rate}")
    return float(rate)
