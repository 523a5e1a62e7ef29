"""Systems under test: each turns a Query into backend requests and answers with Responses."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Protocol

from rattle.items import Query, Response
from rattle.models.base import Completion


class System(Protocol):
    """A system names its backend (what the executor calls) and a flow per query."""

    identity: str
    backend: Any

    def flow(self, query: Query) -> Generator[Any, Completion, tuple[Response, ...]]: ...


def to_response(completion: Completion, *, cached: bool = False) -> Response:
    citations = completion.extra.get("citations") or ()
    return Response(
        text=completion.text,
        citations=tuple(str(c) for c in citations),
        usage=completion.usage,
        latency_s=completion.latency_s,
        error=completion.error,
        cached=cached,
    )
