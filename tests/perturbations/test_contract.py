"""Every registered perturbation: deterministic, records provenance, never raises on any text."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattle import registry
from rattle.items import Item, Option, Question
from rattle.perturbations.base import apply

NAMES = [e.name for e in registry.entries("perturbation")]
ITEM = Item(
    id="it-1",
    questions=(Question("Which is right?", ("b",), (Option("a"), Option("b"), Option("c")), 1),),
    passage="The quick brown fox jumps over the lazy dog near the river bank.",
)


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_with_provenance(name: str) -> None:
    a = apply(name, ITEM, seed=11)
    b = apply(name, ITEM, seed=11)
    assert a == b
    entry = registry.get("perturbation", name)
    assert a.attack == name and a.version == entry.version and a.seed == 11
    assert a.parent_id == ITEM.id and a.id.startswith(ITEM.id + "/" + name)
    assert a.edits, f"{name} made no edit on a plain sentence"
    assert apply(name, ITEM, seed=12).id != a.id


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200))
def test_never_raises_on_arbitrary_unicode(name: str, text: str) -> None:
    item = replace(ITEM, passage=text or None)
    variant = apply(name, item, seed=3)
    assert isinstance(variant.item.passage or variant.item.question, str)
