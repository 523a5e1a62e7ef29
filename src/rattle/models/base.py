"""The model protocol: one async batch call for generation, optional log-likelihood scoring.

A request's cache key hashes the model identity, the generation parameters and the messages,
so identical requests made by different attacks are asked once (DESIGN.md, Run, store, resume).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from rattle.items import Message, Usage
from rattle.seeding import canonical, short_hash


@dataclass(frozen=True)
class GenParams:
    """Decoding parameters. Greedy by default: robustness numbers must not hide sampling noise."""

    max_tokens: int = 64
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    stop: tuple[str, ...] = ()

    def canonical(self) -> str:
        text: str | None = _CANONICAL.get(self)
        if text is None:
            text = _CANONICAL[self] = canonical(self.as_dict())
        return text

    def as_dict(self) -> dict[str, Any]:
        return {
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "seed": self.seed,
            "stop": list(self.stop),
        }


_CANONICAL: dict[GenParams, str] = {}


@dataclass(frozen=True)
class ChatRequest:
    """A chat request: messages and decoding parameters; its key addresses the cache."""

    messages: tuple[Message, ...]
    params: GenParams = GenParams()

    def payload(self) -> dict[str, Any]:
        return {
            "messages": [[m.role, m.content] for m in self.messages],
            "params": self.params.as_dict(),
        }

    def key(self, model_identity: str) -> str:
        """Content address of this request for ``model_identity`` (32 hex chars).

        SHA-256 over the identity, the canonical parameters and each message as
        role + length + content (length-prefixed, so no separator can be forged).
        """
        h = hashlib.sha256()
        h.update(model_identity.encode())
        h.update(b"\x1e")
        h.update(self.params.canonical().encode())
        for m in self.messages:
            data = m.content.encode()
            h.update(f"\x1e{m.role}\x1f{len(data)}\x1f".encode())
            h.update(data)
        return h.hexdigest()[:32]

    def prompt_chars(self) -> int:
        return sum(len(m.content) for m in self.messages)


@dataclass(frozen=True)
class Completion:
    """A backend's answer to one request: text, usage, latency, or an error."""

    text: str
    usage: Usage = Usage()
    latency_s: float = 0.0
    error: str | None = None
    finish_reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class ScoreRequest:
    """Log-likelihood of each continuation after the chat ``messages`` (assistant turn opened)."""

    messages: tuple[Message, ...]
    continuations: tuple[str, ...]

    def payload(self) -> dict[str, Any]:
        return {
            "messages": [[m.role, m.content] for m in self.messages],
            "continuations": list(self.continuations),
        }

    def key(self, model_identity: str) -> str:
        return short_hash([model_identity, "loglikelihood", self.payload()], 32)

    def prompt_chars(self) -> int:
        return sum(len(m.content) for m in self.messages) + sum(map(len, self.continuations))


@runtime_checkable
class Model(Protocol):
    """What every backend provides. ``identity`` must change whenever outputs could change."""

    identity: str
    #: the name tables, reports and the summary show ("openai/gpt-4o-mini"); the cache
    #: identity stays in metrics.json (``run.model_identity``)
    display_name: str
    #: how many requests the executor hands over in one ``generate`` call
    batch_size: int
    #: how many ``generate`` calls the executor may run at once
    concurrency: int
    #: what the backend can do beyond ``generate``: {"loglikelihood"} for a :class:`Scorer`
    capabilities: frozenset[str]

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]: ...

    async def aclose(self) -> None: ...


SCORING = "loglikelihood"


@runtime_checkable
class Scorer(Model, Protocol):
    """A model that also scores continuations (``"loglikelihood" in capabilities``): local
    backends that see logits (llama.cpp, transformers, the scripted double)."""

    async def loglikelihood(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        """Sum of log-probabilities of each continuation's tokens after the messages."""
        ...


def can_score(model: Model) -> bool:
    """Whether ``model`` declares the log-likelihood scoring capability."""
    return SCORING in model.capabilities



def request_identity(provider: str, name: str, options: dict[str, Any]) -> str:
    """Identity string: provider/name plus every option that changes outputs."""
    if not options:
        return f"{provider}/{name}"
    return f"{provider}/{name}?{canonical(options)}"
