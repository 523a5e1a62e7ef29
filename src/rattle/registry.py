"""One registry for every pluggable kind, with versioned names, typed options and plugins.

A module registers its factories with ``@register(kind, name, version=...)`` when imported.
Which modules to import is declared, not listed here: every package (rattle itself included)
names its modules as entry points in the group ``rattle.<kind>`` of its ``pyproject.toml``::

    [project.entry-points."rattle.perturbation"]
    my-perturbations = "my_package.perturbations"

The registry imports a kind's modules only when that kind is first looked up, so ``import
rattle`` stays light (STYLE.md 2 and 5). A factory's keyword parameters are its options
(``rattle.options``): their types, defaults and docs are what ``rattle list`` shows and what
``--param``, model-name options and experiment files are checked against.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Literal, TypeVar, get_args

from rattle.errors import ConfigError, UnknownNameError

log = logging.getLogger(__name__)

EntryKind = Literal["perturbation", "attack", "model", "system", "judge", "metric", "suite",
                    "retriever", "dataset_format", "executor",
                    # the parts of a goal-directed search attack (rattle.attacks.search)
                    "transformation", "constraint", "goal", "search_method"]
KINDS: tuple[str, ...] = get_args(EntryKind)
GROUP_PREFIX = "rattle."

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Entry:
    """A registered factory: its kind, name, version, one-line doc and declared metadata
    (e.g. ``free=True`` for a model provider that costs nothing per token)."""

    kind: str
    name: str
    version: int
    factory: Callable[..., Any]
    doc: str
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def qualified(self) -> str:
        return f"{self.name}@{self.version}"

    def options(self) -> list[Any]:
        """The entry's typed options (``rattle.options.OptionSpec``)."""
        from rattle.options import option_specs

        return option_specs(self.factory)


_ENTRIES: dict[str, dict[str, Entry]] = {k: {} for k in KINDS}
_LOADED: set[str] = set()


def register(kind: EntryKind, name: str, *, version: int = 1,
             **meta: Any) -> Callable[[F], F]:
    """Register ``factory`` under ``kind``/``name``; its docstring's first line is its summary."""
    if kind not in _ENTRIES:
        raise ConfigError(f"unknown registry kind {kind!r}; use one of: {', '.join(KINDS)}")

    def wrap(factory: F) -> F:
        doc = (factory.__doc__ or "").strip().splitlines()
        _ENTRIES[kind][name] = Entry(kind, name, version, factory, doc[0] if doc else "",
                                     dict(meta))
        return factory

    return wrap


def _load(kind: str) -> None:
    """Import every module declared for ``kind`` (entry-point group ``rattle.<kind>``)."""
    if kind in _LOADED:
        return
    _LOADED.add(kind)
    for ep in sorted(entry_points(group=GROUP_PREFIX + kind), key=lambda e: e.value):
        try:
            importlib.import_module(ep.value)
        except ImportError as exc:
            # A plugin whose dependencies are missing must not break rattle itself.
            log.warning("cannot load %s plugin %s (%s): %s", kind, ep.name, ep.value, exc)


def get(kind: EntryKind, name: str) -> Entry:
    """The entry for ``name`` (``name@version`` is accepted and checked)."""
    _load(kind)
    base, _, wanted = name.partition("@")
    entry = _ENTRIES[kind].get(base)
    if entry is None:
        raise UnknownNameError(kind, base, list(_ENTRIES[kind]))
    if wanted and wanted != str(entry.version):
        raise UnknownNameError(kind, name, [e.qualified for e in _ENTRIES[kind].values()])
    return entry


def entries(kind: EntryKind) -> list[Entry]:
    """Every entry of ``kind``, sorted by name."""
    _load(kind)
    return sorted(_ENTRIES[kind].values(), key=lambda e: e.name)


def create(kind: EntryKind, name: str, options: Mapping[str, Any] | None = None, *,
           args: tuple[Any, ...] = (), where: str | None = None,
           lenient: tuple[str, ...] = ()) -> Any:
    """Build the entry ``name`` with ``options`` checked and cast against its signature.

    ``args`` go to the factory's positional parameters as they are (a model name, the model of
    a system); ``lenient`` keys of ``options`` (run-wide settings) are dropped when the
    factory does not declare them, any other unknown key is an error naming the valid ones.
    """
    from rattle.options import bind

    entry = get(kind, name)
    bound = bind(entry.factory, dict(options or {}), where=where or f"{kind} {name}",
                 lenient=lenient)
    return entry.factory(*args, **bound)
