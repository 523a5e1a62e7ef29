"""What a suite is: it plans cases, turns answers into judged records, and computes metrics.

A record is a flat JSON object (one line of ``results.jsonl``); metrics are pure functions of
the records, so ``rattle report`` can recompute them without asking any model.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rattle.items import Judgement, Query, Response, Variant
from rattle.metrics.core import MetricValue

Record = dict[str, Any]


@dataclass(frozen=True)
class Case:
    """One conversation to run: a variant, the query built from it, and its grouping labels."""

    id: str
    variant: Variant
    query: Query
    group: Mapping[str, Any] = field(default_factory=dict)
    part: str = ""


class Suite(Protocol):
    name: str
    paper: str
    description: str
    judge_name: str
    datasets: Sequence[str]

    def cases(self) -> Iterator[Case]: ...

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]: ...

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]: ...


def base_record(case: Case, sub: int, question: str, response: Response,
                judgement: Judgement) -> Record:
    """The fields every record has; suites add their own."""
    v = case.variant
    return {
        "case_id": case.id,
        "part": case.part,
        "item_id": v.parent_id,
        "dataset": v.item.dataset,
        "variant_id": v.id,
        "attack": v.attack,
        "version": v.version,
        "params": dict(v.params),
        "seed": v.seed,
        "target": v.target,
        "edits": [[e.start, e.before, e.after] for e in v.edits],
        "group": dict(case.group),
        "sub": sub,
        "question": question,
        "response": response.text,
        "citations": list(response.citations),
        "error": response.error,
        "correct": judgement.correct,
        "parsed": judgement.parsed,
        "status": judgement.labels.get("status", ""),
        "labels": {k: v for k, v in judgement.labels.items() if k != "status"},
        "judge": judgement.judge,
        "tokens": [response.usage.prompt_tokens, response.usage.completion_tokens],
    }


def cluster(record: Record) -> str:
    """Bootstrap clusters are items: cases of one item are not independent."""
    return f"{record['dataset']}|{record['item_id']}"


def label_mean(name: str, records: Sequence[Record], group: Mapping[str, Any],
               seed: int = 0) -> MetricValue:
    """Mean of a judge label (``em``, ``f1``) over measured records, clustered by item."""
    from rattle.metrics.core import mean

    return mean(name, [(cluster(r), None if r["correct"] is None else float(r["labels"][name]))
                       for r in records], group=group, seed=seed)
