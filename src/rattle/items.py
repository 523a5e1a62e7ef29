"""The data primitive: items, their variants, and what flows between system and judge.

Frozen dataclasses, no I/O. Everything a report needs to explain a number travels with the
value: a Variant carries the edits that made it, a Judgement says what was parsed and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TypeVar

AnswerType = Literal["tf", "number", "word", "text", "open"]
Role = Literal["system", "user", "assistant"]


_T = TypeVar("_T")


@dataclass(frozen=True)
class Document:
    """A retrieved or given passage."""

    id: str
    text: str
    title: str = ""
    has_answer: bool | None = None


@dataclass(frozen=True)
class Option:
    """One answer option of a multiple-choice question; ``kind`` is RCC's ``option_type``."""

    text: str
    kind: str = ""


@dataclass(frozen=True)
class Question:
    """A question about the item's passage. Multiple-choice when ``options`` is non-empty.

    ``correct`` indexes ``options``; ``order`` is the display order (display letter ``j`` shows
    ``options[order[j]]``, RCC's ``input`` field).
    """

    text: str
    answers: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()
    correct: int | None = None
    order: tuple[int, ...] = ()
    answer_type: AnswerType = "open"

    @property
    def displayed(self) -> tuple[Option, ...]:
        if not self.options:
            return ()
        order = self.order or tuple(range(len(self.options)))
        return tuple(self.options[i] for i in order)

    @property
    def correct_letter(self) -> str | None:
        if self.correct is None or not self.options:
            return None
        order = self.order or tuple(range(len(self.options)))
        return chr(65 + order.index(self.correct))


@dataclass(frozen=True)
class Item:
    """One unit of test data: a passage (optional), one or more questions, optional documents."""

    id: str
    questions: tuple[Question, ...]
    passage: str | None = None
    documents: tuple[Document, ...] = ()
    claim: str | None = None
    dataset: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)

    @property
    def question(self) -> str:
        return self.questions[0].text if self.questions else ""

    @property
    def answers(self) -> tuple[str, ...]:
        return self.questions[0].answers if self.questions else ()


class Edit(NamedTuple):
    """One change to a text: ``before`` at ``start`` in the original became ``after``.

    A NamedTuple rather than a dataclass: perturbations create millions of them.
    """

    start: int
    before: str
    after: str


Target = Literal["passage", "question", "documents", "claim", "prompt", "options", "none"]


@dataclass(frozen=True)
class Variant:
    """An item after one perturbation or attack, with provenance.

    ``attack`` is the registered name (``original`` for the unperturbed item). ``label`` is what
    the attack intends (a claim now false, an inserted document id and position).
    """

    id: str
    parent_id: str
    item: Item
    attack: str = "original"
    version: int = 0
    params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    target: Target = "none"
    edits: tuple[Edit, ...] = ()
    label: Mapping[str, Any] = field(default_factory=dict)

    @property
    def is_original(self) -> bool:
        return self.attack == "original"

    @property
    def provenance(self) -> dict[str, Any]:
        return {
            "attack": self.attack,
            "version": self.version,
            "params": dict(self.params),
            "seed": self.seed,
            "parent_id": self.parent_id,
            "target": self.target,
            "edits": [[e.start, e.before, e.after] for e in self.edits],
            "label": dict(self.label),
        }


def original(item: Item) -> Variant:
    """The unperturbed item as a Variant (shared baseline of every attack)."""
    return Variant(id=f"{item.id}/original", parent_id=item.id, item=item)


def derived(item: Item, variant_id: str, *, documents: tuple[Document, ...] | None = None,
            attack: str = "original", version: int = 0,
            params: Mapping[str, Any] | None = None, seed: int = 0, target: Target = "none",
            edits: tuple[Edit, ...] = (), label: Mapping[str, Any] | None = None) -> Variant:
    """A variant a suite builds itself (a condition, a document set, a generated claim),
    as opposed to one from a registered perturbation: ``attack`` and ``version`` name what
    made it (``original``, version 0, when the item's text is unchanged)."""
    shown = item if documents is None else _evolve(item, documents=tuple(documents))
    return Variant(id=variant_id, parent_id=item.id, item=shown, attack=attack,
                   version=version, params=dict(params or {}), seed=seed, target=target,
                   edits=edits, label=dict(label or {}))


def _evolve(obj: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for these frozen types (no ``__post_init__``), at a tenth of the
    cost: perturbations copy an item per variant, millions of times."""
    new = object.__new__(type(obj))
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new


def with_text(item: Item, target: Target, text: str) -> Item:
    """A copy of ``item`` with ``target`` text replaced (passage, or the first question)."""
    if target == "passage":
        return _evolve(item, passage=text)
    if target == "question":
        first = _evolve(item.questions[0], text=text)
        return _evolve(item, questions=(first, *item.questions[1:]))
    if target == "claim":
        return _evolve(item, claim=text)
    raise ValueError(f"cannot replace text of target {target!r}")


def attack_target(item: Item) -> Target:
    """RCC §3.1: attack the passage, or the (first) question when there is none."""
    return "passage" if item.passage else "question"


def target_text(item: Item, target: Target) -> str:
    if target == "passage":
        return item.passage or ""
    if target == "question":
        return item.question
    if target == "claim":
        return item.claim or ""
    raise ValueError(f"no text for target {target!r}")


@dataclass(frozen=True)
class Message:
    """A chat message: role (system, user, assistant) and content."""

    role: Role
    content: str


@dataclass(frozen=True)
class Usage:
    """Tokens a request used: prompt and completion."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass(frozen=True)
class Response:
    """What a system answered. ``error`` set means the request failed after retries."""

    text: str
    citations: tuple[str, ...] = ()
    usage: Usage = Usage()
    latency_s: float = 0.0
    error: str | None = None
    cached: bool = False
    #: log-likelihood per choice when the answer came from scoring
    logprobs: tuple[float, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Judgement:
    """A judge's verdict. ``correct is None`` means unmeasured: never counted as wrong."""

    correct: bool | None
    parsed: str | None = None
    labels: Mapping[str, Any] = field(default_factory=dict)
    explanation: str = ""
    judge: str = ""


@dataclass(frozen=True)
class Query:
    """What a suite asks a system: user turns sent one by one in one conversation.

    ``question`` and ``documents`` are given separately as well, for systems that take them
    apart (an HTTP service, a RAG reader).
    """

    turns: tuple[str, ...]
    question: str = ""
    documents: tuple[Document, ...] = ()
    #: when set, the last turn is answered by log-likelihood scoring of these continuations
    #: (the response text is then "(X)", the letter of the most likely one)
    choices: tuple[str, ...] = ()

