"""Applying a registered perturbation to an item, with provenance and a derived seed.

A perturbation factory takes typed keyword arguments (its configuration) and returns a
``Perturber``: ``(item, rng) -> (new item, target, edits, resolved params)``. Resolved params
are the factory's arguments plus any value drawn at apply time (RCC draws an edit count per
variant), so ``rattle report`` can say exactly what ran.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from rattle import registry
from rattle.errors import ConfigError
from rattle.items import Edit, Item, Target, Variant, attack_target, target_text, with_text
from rattle.seeding import canonical, short_hash

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


class Perturbation:
    """A perturbation with its parameters, ready to apply to many items.

    The generator of each item is seeded from SHA-256 of (run seed, item id, name, canonical
    parameters); the parameters' canonical encoding is computed once here.
    """

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        self.params = dict(params or {})
        self.entry, self.perturber = build(name, self.params)
        self.name = self.entry.name
        self._params_key = canonical(self.params)
        self._id_suffix: dict[int, str] = {}

    def rng(self, seed: int, item_id: str) -> random.Random:
        key = f"{seed}\x1f{item_id}\x1f{self.name}\x1f{self._params_key}".encode()
        return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))

    def apply(self, item: Item, seed: int) -> Variant:
        new_item, target, edits, drawn = self.perturber(item, self.rng(seed, item.id))
        suffix = self._id_suffix.get(seed)
        if suffix is None:
            suffix = f"/{self.name}@{self.entry.version}/{short_hash([seed, self.params], 8)}"
            self._id_suffix[seed] = suffix
        return Variant(
            id=item.id + suffix,
            parent_id=item.id,
            item=new_item,
            attack=self.name,
            version=self.entry.version,
            params={**self.params, **drawn} if drawn else self.params,
            seed=seed,
            target=target,
            edits=edits,
        )


def apply(name: str, item: Item, *, seed: int, params: Mapping[str, Any] | None = None) -> Variant:
    """The variant of ``item`` under perturbation ``name`` with ``params``, seeded per item."""
    return Perturbation(name, params).apply(item, seed)


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
