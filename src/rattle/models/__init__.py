"""Model backends behind one protocol; ``load_model("provider/name?opts")`` builds one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from rattle import registry
from rattle.errors import ConfigError
from rattle.models.base import ChatRequest, Completion, GenParams, Model, ScoreRequest

__all__ = [
    "ChatRequest",
    "Completion",
    "GenParams",
    "Model",
    "ModelSpec",
    "ScoreRequest",
    "load_model",
    "parse_spec",
]


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model name: provider, the name after the slash, the ?key=value options."""

    provider: str
    name: str
    options: dict[str, str]


def parse_spec(spec: str) -> ModelSpec:
    """``provider/name?k=v&k2=v2``; a bare ``embedded`` is the embedded default."""
    text = spec.strip()
    if not text:
        raise ConfigError("empty model name; use e.g. --model embedded or --model openai/gpt-4o-mini")
    head, _, query = text.partition("?")
    provider, _, name = head.partition("/")
    options = dict(parse_qsl(query, keep_blank_values=True)) if query else {}
    return ModelSpec(provider=provider, name=name, options=options)


def load_model(spec: str, **settings: Any) -> Model:
    """Build the model named by ``spec`` (``provider/name?key=value&...``).

    The options after ``?`` are checked and cast against the provider's registered factory
    (``rattle list model`` shows them); ``settings`` are run-wide options (``base_url``,
    ``api_key_env``, ``concurrency`` from the command line) that a provider takes if it
    declares them. Options in the name win over settings.
    """
    parsed = parse_spec(spec)
    model: Model = registry.create("model", parsed.provider, {**settings, **parsed.options},
                                   args=(parsed.name,), where=f"model {spec}",
                                   lenient=tuple(k for k in settings if k not in parsed.options))
    return model
