"""``llm``: a model plus a system prompt, answering single- or multi-turn queries.

In a multi-turn query each user turn is sent with the whole conversation so far, including the
model's own earlier answers (the RCC protocol, §3.2): later requests therefore depend on
earlier answers and the flow yields them one at a time.
"""

from __future__ import annotations

import json
from collections.abc import Generator
from typing import Any

from rattle.items import Message, Query, Response
from rattle.models.base import ChatRequest, Completion, GenParams, Model, ScoreRequest
from rattle.registry import register
from rattle.seeding import short_hash
from rattle.systems import to_response

# An explicit, short system prompt: small instruction models drift without one
# (offline-stack.md §1: SmolLM2 answers "capital of France" wrongly under its default prompt).
DEFAULT_SYSTEM_PROMPT = "You are a helpful assistant. Answer concisely."


class LLMSystem:
    """A model plus a system prompt: single- or multi-turn conversations, or option
    log-likelihood scoring when the query lists choices."""

    def __init__(
        self,
        model: Model,
        *,
        system_prompt: str | None = DEFAULT_SYSTEM_PROMPT,
        params: GenParams = GenParams(),
    ) -> None:
        self.backend = model
        self.system_prompt = system_prompt
        self.params = params
        self.identity = f"llm[{model.identity}|{short_hash([system_prompt, params.as_dict()])}]"

    def flow(self, query: Query) -> Generator[Any, Completion, tuple[Response, ...]]:
        history: list[Message] = []
        if self.system_prompt:
            history.append(Message("system", self.system_prompt))
        out: list[Response] = []
        for k, turn in enumerate(query.turns):
            history.append(Message("user", turn))
            if query.choices and k == len(query.turns) - 1:
                completion = yield ScoreRequest(tuple(history), query.choices)
                out.append(scored_response(completion))
                break
            completion = yield ChatRequest(tuple(history), self.params)
            out.append(to_response(completion))
            if not completion.ok:
                # The conversation cannot go on without this answer: later turns are unmeasured.
                for _ in query.turns[len(out):]:
                    out.append(Response("", error=f"earlier turn failed: {completion.error}"))
                break
            history.append(Message("assistant", completion.text))
        return tuple(out)


def scored_response(completion: Completion) -> Response:
    """The choice with the highest log-likelihood, as "(X)"; scores kept in the text's tail."""
    if not completion.ok or not completion.text:  # failed, or a dry run's placeholder
        return to_response(completion)
    scores = json.loads(completion.text)
    best = max(range(len(scores)), key=lambda i: scores[i])
    return Response(f"({chr(65 + best)})", latency_s=completion.latency_s,
                    logprobs=tuple(float(x) for x in scores))


@register("system", "llm")
def llm(model: Model, **options: Any) -> LLMSystem:
    """A model plus a system prompt; single- or multi-turn conversations."""
    return LLMSystem(model, **options)


@register("system", "rag")
def rag(model: Model, **options: Any) -> LLMSystem:
    """In-context RALM reader: the suite's documents are concatenated before the question.

    Retrieval is a separate step owned by the suite (``--corpus``, ``--retriever``, or the
    data's pre-retrieved ``ctxs``), so documents can be added, removed or reordered between
    retrieval and generation.
    """
    return LLMSystem(model, **options)
