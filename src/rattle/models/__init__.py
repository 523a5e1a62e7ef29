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
    """Build the model named by ``spec``. ``settings`` are CLI-level options (base_url, ...)."""
    parsed = parse_spec(spec)
    entry = registry.get("model", parsed.provider)
    model: Model = entry.factory(parsed.name, parsed.options, **settings)
    return model
