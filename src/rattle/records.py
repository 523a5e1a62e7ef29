"""Judged records: one flat JSON object per line of ``results.jsonl``.

``Record`` names every field that suites write and metrics read; metrics are pure functions
of records, so ``rattle report`` recomputes them without any model. The bootstrap clusters
cases by item (``cluster_key``): cases of one item are not independent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict


class Record(TypedDict, total=False):
    """One judged case (or one sub-question of a multi-turn case)."""

    # Provenance (every suite; ``suites.base.base_record``)
    case_id: str
    part: str
    item_id: str
    dataset: str
    variant_id: str
    attack: str
    version: int
    params: dict[str, Any]
    seed: int
    target: str
    edits: list[list[Any]]
    group: dict[str, Any]
    sub: int
    # What was asked and answered, and the judgement
    question: str
    response: str
    citations: list[str]
    error: str | None
    correct: bool | None
    parsed: Any
    status: str
    labels: dict[str, Any]
    judge: str
    tokens: list[int]
    logprobs: list[float]  # protocol=loglik: each displayed option's log-likelihood
    # Suite fields: the answer read from the reply and the gold answer (an option index and
    # letter for RCC, texts for QA), the chosen display position
    answer: Any
    gold: Any
    position: int | None
    option_type: str | None
    display: list[int]  # RCC: option indices in display order
    # RALM: documents shown and the added one
    documents: list[str]
    added: str | None
    # Factoid: the sentence asked about, its truth, the correction and expected answers
    claim: str
    claim_true: bool | None
    correction: str
    answers: list[str]
    quality: dict[str, Any]


def cluster_key(dataset: str, item_id: str) -> str:
    """The bootstrap cluster of an item: every case of it resamples together."""
    return f"{dataset}|{item_id}"


def cluster(record: Mapping[str, Any] | Record) -> str:
    """The bootstrap cluster of a record (its item)."""
    return cluster_key(record["dataset"], record["item_id"])
