"""One registry for every pluggable kind, with versioned names and lazy imports.

A module registers its factories with ``@register(kind, name, version=...)`` when imported.
The registry imports the built-in modules of a kind only when that kind is first looked up,
so ``import rattle`` stays light (STYLE.md 2 and 5).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, get_args

from rattle.errors import UnknownNameError

Kind = Literal["perturbation", "attack", "model", "system", "judge", "metric", "suite"]
KINDS: tuple[str, ...] = get_args(Kind)

# Modules whose import registers the built-in entries of each kind. Each must import only
# light modules at top level; heavy libraries load inside the factories.
_BUILTIN_MODULES: dict[str, tuple[str, ...]] = {
    "perturbation": (
        "rattle.perturbations.chars",
        "rattle.perturbations.words",
        "rattle.perturbations.visual",
        "rattle.perturbations.prompts",
        "rattle.perturbations.options",
    ),
    "attack": ("rattle.attacks.documents.generators", "rattle.attacks.claims.generators"),
    "model": (
        "rattle.models.embedded",
        "rattle.models.openai",
        "rattle.models.scripted",
        "rattle.models.transformers",
    ),
    "system": ("rattle.systems.llm", "rattle.systems.http"),
    "judge": ("rattle.judges.choice", "rattle.judges.qa"),
    "metric": ("rattle.metrics.core", "rattle.metrics.rcc", "rattle.metrics.ralm",
               "rattle.metrics.factoid"),
    "suite": ("rattle.suites.quick", "rattle.suites.rcc", "rattle.suites.qa", "rattle.suites.ralm",
              "rattle.suites.factoid"),
}

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Entry:
    kind: str
    name: str
    version: int
    factory: Callable[..., Any]
    doc: str

    @property
    def qualified(self) -> str:
        return f"{self.name}@{self.version}"


_ENTRIES: dict[str, dict[str, Entry]] = {k: {} for k in KINDS}
_LOADED: set[str] = set()


def register(kind: Kind, name: str, *, version: int = 1) -> Callable[[F], F]:
    """Register ``factory`` under ``kind``/``name``; its docstring's first line is its summary."""

    def wrap(factory: F) -> F:
        doc = (factory.__doc__ or "").strip().splitlines()
        _ENTRIES[kind][name] = Entry(kind, name, version, factory, doc[0] if doc else "")
        return factory

    return wrap


def _load(kind: str) -> None:
    if kind in _LOADED:
        return
    for module in _BUILTIN_MODULES.get(kind, ()):
        importlib.import_module(module)
    _LOADED.add(kind)


def get(kind: Kind, name: str) -> Entry:
    """The entry for ``name`` (``name@version`` is accepted and checked)."""
    _load(kind)
    base, _, wanted = name.partition("@")
    entry = _ENTRIES[kind].get(base)
    if entry is None:
        raise UnknownNameError(kind, base, list(_ENTRIES[kind]))
    if wanted and wanted != str(entry.version):
        raise UnknownNameError(kind, name, [e.qualified for e in _ENTRIES[kind].values()])
    return entry


def entries(kind: Kind) -> list[Entry]:
    _load(kind)
    return sorted(_ENTRIES[kind].values(), key=lambda e: e.name)
