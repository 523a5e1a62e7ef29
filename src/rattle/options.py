"""Typed options: a registered factory's signature is its configuration.

Every option a user can set — ``--param key=value``, ``?key=value`` on a model name, a key of
an experiment file — is a keyword parameter of the registered factory, with its type, its
default and a one-line doc (``Annotated[int, "variants per attack and item"]``). One mechanism
reads the signature (:func:`option_specs`), casts text to the declared type and rejects what
the factory does not declare (:func:`bind`), so every error names the valid keys and types.
"""

from __future__ import annotations

import inspect
import json
import types
import typing
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from rattle.errors import ConfigError

_MISSING = inspect.Parameter.empty


@dataclass(frozen=True)
class OptionSpec:
    """One option of a registered factory."""

    name: str
    type: Any
    default: Any
    doc: str

    @property
    def required(self) -> bool:
        return self.default is _MISSING

    def type_name(self) -> str:
        return type_name(self.type)

    def describe(self) -> str:
        """``samples: int = 2 (variants per attack and item)``."""
        text = f"{self.name}: {self.type_name()}"
        if not self.required:
            text += f" = {self.default!r}" if not isinstance(self.default, str) else f" = {self.default}"
        return text + (f"  {self.doc}" if self.doc else "")


def type_name(tp: Any) -> str:
    """A short human name for an annotation: ``int``, ``multi|single|loglik``, ``str?``."""
    origin = get_origin(tp)
    if origin is typing.Annotated:
        return type_name(get_args(tp)[0])
    if origin is Literal:
        return "|".join(str(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        inner = [a for a in get_args(tp) if a is not type(None)]
        name = "|".join(type_name(a) for a in inner)
        return name + "?" if len(inner) < len(get_args(tp)) else name
    if origin in (tuple, list):
        args = [a for a in get_args(tp) if a is not Ellipsis]
        return f"list of {type_name(args[0])}" if args else "list"
    return getattr(tp, "__name__", str(tp))


def option_specs(factory: Callable[..., Any], *, skip: Collection[str] = ()) -> list[OptionSpec]:
    """The keyword options of ``factory`` (positional parameters and ``skip`` excluded)."""
    hints = typing.get_type_hints(factory, include_extras=True)
    out = []
    for p in inspect.signature(factory).parameters.values():
        if p.kind is not inspect.Parameter.KEYWORD_ONLY or p.name in skip:
            continue
        tp = hints.get(p.name, Any)
        doc = ""
        if get_origin(tp) is typing.Annotated:
            doc = next((m for m in get_args(tp)[1:] if isinstance(m, str)), "")
        out.append(OptionSpec(p.name, tp, p.default, doc))
    return out


def _bool(value: str) -> bool:
    low = value.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def coerce(value: Any, tp: Any) -> Any:
    """``value`` (text from a command line or URL, or a parsed YAML/JSON value) as ``tp``.

    Raises ``ValueError`` when it cannot be one."""
    origin = get_origin(tp)
    if origin is typing.Annotated:
        return coerce(value, get_args(tp)[0])
    if tp is Any:
        return value
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        nullable = type(None) in args
        if nullable and (value is None or (isinstance(value, str)
                                           and value.lower() in ("none", "null"))):
            return None
        for arg in (a for a in args if a is not type(None)):
            try:
                return coerce(value, arg)
            except ValueError:
                continue
        raise ValueError(value)
    if origin is Literal:
        for allowed in get_args(tp):
            if value == allowed or (isinstance(value, str) and str(allowed) == value):
                return allowed
        raise ValueError(value)
    if origin in (tuple, list):
        items = [a for a in get_args(tp) if a is not Ellipsis]
        inner = items[0] if items else Any
        parts: list[Any] = list(value) if isinstance(value, (list, tuple)) else [
            x.strip() for x in str(value).split(",") if x.strip()]
        values = [coerce(x, inner) for x in parts]
        return tuple(values) if origin is tuple else values
    if tp is bool:
        if isinstance(value, bool):
            return value
        return _bool(str(value))
    if tp is int:
        if isinstance(value, bool):
            raise ValueError(value)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return int(str(value).strip())
    if tp is float:
        if isinstance(value, bool):
            raise ValueError(value)
        return float(value)
    if tp is str:
        if isinstance(value, (dict, list)):
            return json.dumps(value)
        return str(value)
    if tp in (dict, Mapping) or get_origin(tp) in (dict, Mapping):
        if isinstance(value, Mapping):
            return dict(value)
        parsed = json.loads(str(value))
        if not isinstance(parsed, dict):
            raise ValueError(value)
        return parsed
    return value


def valid_keys(specs: list[OptionSpec]) -> str:
    return ", ".join(f"{s.name} ({s.type_name()})" for s in specs) or "(none)"


def bind(factory: Callable[..., Any], raw: Mapping[str, Any], *, where: str,
         skip: Collection[str] = (), lenient: Collection[str] = ()) -> dict[str, Any]:
    """Check ``raw`` against ``factory``'s options and cast every value to its type.

    ``where`` names the thing configured ("suite rcc.robustness", "model openai/gpt-4o-mini")
    in errors. Keys in ``lenient`` (run-wide settings such as ``base_url``) are dropped when the
    factory does not declare them; any other unknown key is an error naming the valid keys.
    """
    specs = {s.name: s for s in option_specs(factory, skip=skip)}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        spec = specs.get(key)
        if spec is None:
            if key in lenient:
                continue
            raise ConfigError(f"{where}: unknown option {key!r}; valid options: "
                              f"{valid_keys(list(specs.values()))}")
        if value is None and spec.default is None:
            out[key] = None
            continue
        try:
            out[key] = coerce(value, spec.type)
        except (ValueError, TypeError):
            raise ConfigError(f"{where}: option {key}={value!r} is not a valid "
                              f"{spec.type_name()}") from None
    missing = [s.name for s in specs.values() if s.required and s.name not in out]
    if missing:
        raise ConfigError(f"{where}: missing option(s) {', '.join(missing)}; valid options: "
                          f"{valid_keys(list(specs.values()))}")
    return out


def non_defaults(factory: Callable[..., Any], **values: Any) -> dict[str, Any]:
    """The ``values`` that differ from ``factory``'s defaults (what the user set): they name
    a model in tables and make its identity."""
    defaults = {s.name: s.default for s in option_specs(factory)}
    return {k: v for k, v in values.items() if k not in defaults or v != defaults[k]}
