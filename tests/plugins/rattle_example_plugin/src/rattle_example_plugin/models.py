"""``reverse/<anything>``: replies with the last user message reversed (a test double)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from rattle.items import Usage
from rattle.models.base import ChatRequest, Completion, request_identity
from rattle.registry import register


class ReverseModel:
    """Reverses the last user message; ``upper`` also upper-cases it."""

    def __init__(self, name: str, *, upper: bool) -> None:
        self.upper = upper
        self.identity = request_identity("reverse", name, {"upper": upper})
        self.display_name = f"reverse/{name}"
        self.capabilities: frozenset[str] = frozenset()
        self.batch_size = 8
        self.concurrency = 1

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        out = []
        for r in requests:
            text = r.messages[-1].content[::-1]
            out.append(Completion(text.upper() if self.upper else text, Usage(1, 1)))
        return out

    async def aclose(self) -> None:
        return None


@register("model", "reverse", free=True, local=True)
def reverse(name: str, *, upper: Annotated[bool, "upper-case the reply"] = False) -> ReverseModel:
    """Replies with the last user message reversed."""
    return ReverseModel(name or "default", upper=upper)
