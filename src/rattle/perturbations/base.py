"""Applying a registered perturbation to an item, with provenance and a derived seed.

A perturbation factory takes typed keyword arguments (its configuration) and returns a
``Perturber``: ``(item, key) -> (new item, target, edits, resolved params)``, where ``key`` is
the item's 64-bit key (SHA-256 of run seed, item id, name and parameters). Perturbers that
step a generator seed ``random.Random(key)`` (``on_text`` does it for text operations); the
character, word and visual operations draw counter-based from the key and also offer
``batch(items, keys)`` and ``many(texts, keys)`` to compute many items at once; with
``drawn_param`` (the name of the value ``many`` draws per text, or None) they declare that
they edit the item's attack target text, and ``apply_many`` hands them the texts. Resolved params
are the factory's arguments plus any value drawn at apply time (RCC draws an edit count per
variant), so ``rattle report`` can say exactly what ran.
"""

from __future__ import annotations

import gc
import hashlib
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from rattle import registry
from rattle.errors import ConfigError
from rattle.items import Edit, Item, Target, Variant, attack_target, target_text, with_text
from rattle.seeding import canonical, short_hash

TextOp = Callable[[str, random.Random], tuple[str, tuple[Edit, ...], dict[str, Any]]]
Perturber = Callable[[Item, int], tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]]


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection while a batch allocates its many small objects (variants
    and edits hold no cycles); restores the collector's previous state."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def on_text(op: TextOp) -> Perturber:
    """Lift a text operation to items: edit the passage, or the question when there is none."""

    def perturb(item: Item, key: int) -> tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]:
        target = attack_target(item)
        text, edits, drawn = op(target_text(item, target), random.Random(key))
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

    Each item's key is SHA-256 of (run seed, item id, name, canonical parameters); the
    parameters' canonical encoding is computed once here.
    """

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        self.params = dict(params or {})
        self.entry, self.perturber = build(name, self.params)
        self.name = self.entry.name
        self._params_key = canonical(self.params)
        self._id_suffix: dict[int, str] = {}

    def keys(self, seed: int, item_ids: Sequence[str]) -> list[int]:
        """Each item's 64-bit key: SHA-256 of (run seed, item id, name, canonical parameters),
        with the constant parts encoded once."""
        head = f"{seed}\x1f".encode()
        tail = f"\x1f{self.name}\x1f{self._params_key}".encode()
        sha, to_int = hashlib.sha256, int.from_bytes
        return [to_int(sha(b"".join((head, i.encode(), tail))).digest()[:8], "big") for i in item_ids]

    def apply(self, item: Item, seed: int) -> Variant:
        return self._variant(item, seed, *self.perturber(item, self.keys(seed, [item.id])[0]))

    def apply_many(self, items: Sequence[Item], seed: int) -> list[Variant]:
        """``[self.apply(item, seed) for item in items]``; batched where the perturbation can
        compute a whole batch at once (the character, word and visual operations), identical
        either way. A perturber of texts (``many`` and ``drawn_param``) gets the target texts
        directly; variants are assembled without dataclass constructors."""
        perturber = self.perturber
        with paused_gc():
            if hasattr(perturber, "many") and hasattr(perturber, "drawn_param"):
                return self._from_texts(items, seed)
            batch = getattr(perturber, "batch", None)
            if batch is None:
                return [self.apply(item, seed) for item in items]
            keys = self.keys(seed, [item.id for item in items])
            return self._variants(items, seed, batch(items, keys))

    def _from_texts(self, items: Sequence[Item], seed: int) -> list[Variant]:
        """The batch of a text perturber: ``many(texts, keys)`` gives (text, edits) or (text,
        edits, the value of ``drawn_param``) per item; each item's attack target gets its text."""
        perturber: Any = self.perturber
        drawn_param: str | None = perturber.drawn_param
        targets = list(map(attack_target, items))
        noised = perturber.many(list(map(target_text, items, targets)),
                                self.keys(seed, [item.id for item in items]))
        suffix = self._suffix(seed)
        name, version, params = self.name, self.entry.version, self.params
        merged: dict[Any, dict[str, Any]] = {}
        new = object.__new__
        out = []
        for item, target, result in zip(items, targets, noised, strict=True):
            p: dict[str, Any] | None = params
            if drawn_param is not None:
                p = merged.get(result[2])
                if p is None:
                    p = merged[result[2]] = {**params, drawn_param: result[2]}
            if target == "passage":  # with_text's copy, inlined: the common case
                copy = new(type(item))
                fields = copy.__dict__
                fields.update(item.__dict__)
                fields["passage"] = result[0]
            else:
                copy = with_text(item, target, result[0])
            variant = new(Variant)
            # Field by field in declaration order: no keyword dict to build per variant.
            d = variant.__dict__
            d["id"] = (parent := item.id) + suffix
            d["parent_id"] = parent
            d["item"] = copy
            d["attack"] = name
            d["version"] = version
            d["params"] = p
            d["seed"] = seed
            d["target"] = target
            d["edits"] = result[1]
            d["label"] = {}
            out.append(variant)
        return out

    def _suffix(self, seed: int) -> str:
        suffix = self._id_suffix.get(seed)
        if suffix is None:
            suffix = f"/{self.name}@{self.entry.version}/{short_hash([seed, self.params], 8)}"
            self._id_suffix[seed] = suffix
        return suffix

    def _variant(self, item: Item, seed: int, new_item: Item, target: Target,
                 edits: tuple[Edit, ...], drawn: dict[str, Any]) -> Variant:
        return Variant(
            id=item.id + self._suffix(seed),
            parent_id=item.id,
            item=new_item,
            attack=self.name,
            version=self.entry.version,
            params={**self.params, **drawn} if drawn else self.params,
            seed=seed,
            target=target,
            edits=edits,
        )

    def _variants(self, items: Sequence[Item], seed: int, outs: Sequence[
            tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]]) -> list[Variant]:
        """What ``_variant`` builds, for a batch: each Variant's fields are set directly (the
        frozen dataclass has no ``__post_init__``), and variants with the same drawn values
        share one parameters dict (read-only, like every Variant field)."""
        suffix = self._suffix(seed)
        name, version, params = self.name, self.entry.version, self.params
        merged: dict[tuple[tuple[str, Any], ...], dict[str, Any]] = {}
        new = object.__new__
        out = []
        for item, (new_item, target, edits, drawn) in zip(items, outs, strict=True):
            if drawn:
                key = tuple(drawn.items())
                p = merged.get(key)
                if p is None:
                    p = merged[key] = {**params, **drawn}
            else:
                p = params
            variant = new(Variant)
            variant.__dict__.update(id=item.id + suffix, parent_id=item.id, item=new_item,
                                    attack=name, version=version, params=p, seed=seed,
                                    target=target, edits=edits, label={})
            out.append(variant)
        return out


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


def perturb_texts(name: str, texts: Sequence[str], *, seed: int = 0,
                  ids: Sequence[str] | None = None, **params: Any) -> list[tuple[str, tuple[Edit, ...]]]:
    """Perturb many bare strings at once (what ``nlpaug``'s ``augment(list)`` does), each with
    its edits. String ``i`` is keyed by ``ids[i]`` (default ``str(i)``) and gets exactly what
    ``perturb_text(name, texts[i], seed=seed, key=ids[i], **params)`` gives."""
    from rattle.items import Question

    perturbation = Perturbation(name, params)
    keys = ids if ids is not None else [str(i) for i in range(len(texts))]
    if len(keys) != len(texts):
        raise ConfigError(f"perturb_texts: {len(texts)} texts but {len(keys)} ids")
    many = getattr(perturbation.perturber, "many", None)
    if many is not None:
        noised = many(texts, perturbation.keys(seed, keys))
        return [(out[0], out[1]) for out in noised]
    items = [Item(id=k, questions=(Question(text=t),)) for k, t in zip(keys, texts, strict=True)]
    return [(v.item.question, v.edits) for v in perturbation.apply_many(items, seed)]


def check_rate(name: str, rate: float) -> float:
    if not 0.0 <= rate <= 1.0:
        raise ConfigError(f"{name}: rate must be in [0, 1], got {rate}")
    return float(rate)


Noised = tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]


class TextNoise:
    """The Perturber protocol for noise over an item's attack-target text: a subclass gives
    ``one(text, key)`` and ``many(texts, keys)``, each result ``(text, edits, *drawn)``, and
    ``details(drawn)`` names what was drawn for the variant's parameters (nothing by default)."""

    def one(self, text: str, key: int) -> tuple[Any, ...]:
        raise NotImplementedError

    def many(self, texts: Sequence[str], keys: Sequence[int]) -> Sequence[tuple[Any, ...]]:
        raise NotImplementedError

    def details(self, drawn: tuple[Any, ...]) -> dict[str, Any]:
        return {}

    def __call__(self, item: Item, key: int) -> Noised:
        target = attack_target(item)
        text, edits, *drawn = self.one(target_text(item, target), key)
        return with_text(item, target, text), target, edits, self.details(tuple(drawn))

    def batch(self, items: Sequence[Item], keys: Sequence[int]) -> list[Noised]:
        targets = [attack_target(item) for item in items]
        noised = self.many([target_text(i, t) for i, t in zip(items, targets, strict=True)], keys)
        return [(with_text(item, target, text), target, edits, self.details(tuple(drawn)))
                for item, target, (text, edits, *drawn) in zip(items, targets, noised, strict=True)]
