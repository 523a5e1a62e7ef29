"""The suite contract: every hook the runner calls, with its default.

A suite plans cases, turns answers into judged records and computes metrics from records.
The runner calls exactly these hooks, in this order, and nothing else:

1. ``prepare(flows)`` — work before planning (retrieval, attack generation; models asked
   through ``flows``, so through the store);
2. ``count()`` — the number of cases, for the progress bar (None when unknown);
3. ``cases()`` — the cases, lazily;
   ``flow(case, system)`` — the flow that answers a case (default: the system's flow for its
   query; a search attack drives the system itself, many queries per case);
4. ``records(case, responses)`` — judged records of one answered case (``responses`` is what
   ``flow`` returned);
5. ``metric_stream()`` / ``metric_fields()`` — how metrics see records while they stream
   (a running accumulator, or the fields to keep of each record);
6. ``needs_rejudge()`` / ``rejudge(records, flows)`` — judging that needs its own model,
   after the target answered;
7. ``metrics(records)`` — metric values (pure: ``rattle report`` calls it without models);
8. ``extractors()`` — the rule extractors that read its replies, so the run reports their
   ``parse_rate`` and their ``judge_agreement`` on the labelled sets;
9. ``run_notes()`` — what the run should record (drops, skipped lines, judge agreement).

A composite suite (``quick``) is a :class:`CompositeSuite` of suites through the same
contract; ``parts()`` lists them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from rattle.flows import Flow, FlowRunner
from rattle.items import Judgement, Query, Response, Variant
from rattle.metrics.core import MetricValue
from rattle.records import Record
from rattle.systems import System


@dataclass(frozen=True)
class Case:
    """One conversation to run: a variant, the query built from it, and its grouping labels."""

    id: str
    variant: Variant
    query: Query
    group: Mapping[str, Any] = field(default_factory=dict)
    part: str = ""


class MetricStream(Protocol):
    """Metrics computed while records stream in, without keeping them."""

    def add(self, record: Record) -> None: ...

    def metrics(self) -> list[MetricValue]: ...


class Suite:
    """Base class of every suite: the hooks the runner calls, with their defaults.

    Subclasses set ``name``, ``paper``, ``description``, ``tables``, ``judge_name`` and
    ``datasets`` and implement ``cases``, ``records`` and ``metrics``.
    """

    name: str
    paper: str
    description: str
    tables: str
    judge_name: str
    datasets: Sequence[str]
    part: str
    notes: dict[str, Any]

    def prepare(self, flows: FlowRunner) -> None:
        """Work before planning: retrieval, attack generation. Default: nothing."""

    def count(self) -> int | None:
        """Number of cases, without planning them (progress bar); None when unknown."""
        return None

    def cases(self) -> Iterator[Case]:
        """The cases to ask, lazily and in a fixed order."""
        raise NotImplementedError

    def flow(self, case: Case, system: System) -> Flow:
        """The flow that answers ``case``: the system's flow for its query (default)."""
        return system.flow(case.query)

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        """Judged records of one answered case."""
        raise NotImplementedError

    def metric_stream(self) -> MetricStream | None:
        """A streaming accumulator for the metrics, or None to keep records (default)."""
        return None

    def metric_fields(self) -> tuple[str, ...] | None:
        """The record fields ``metrics`` reads (the rest stays on disk); None: all."""
        return None

    def needs_rejudge(self) -> bool:
        """Whether ``rejudge`` has work (a judge model, response quality). Default: no."""
        return False

    def rejudge(self, records: list[Record], flows: FlowRunner) -> list[Record]:
        """Judge again after the target answered (models through ``flows``). Default: as is."""
        return records

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        """Metric values from judged records (pure)."""
        raise NotImplementedError

    def extractors(self) -> Mapping[str, str]:
        """Rule extractors reading this suite's replies (``judges.agreement.EXTRACTOR_SETS``
        names) and each one's mode; records of such a suite say ``status: parsed`` when the
        extractor read the reply. Default: none (e.g. has-answer matching always decides)."""
        return {}

    def run_notes(self) -> dict[str, Any]:
        """What the run records about this suite (non-empty notes)."""
        return {k: v for k, v in getattr(self, "notes", {}).items() if v}

    def parts(self) -> Sequence[Suite]:
        """The suites this one is made of (itself, unless composite)."""
        return (self,)


class CompositeSuite(Suite):
    """Several suites run as one: cases in order, records dispatched by ``case.part``,
    metrics grouped by ``suite``."""

    def __init__(self, name: str, parts: Sequence[Suite], *, paper: str, description: str,
                 tables: str) -> None:
        self.name = name
        self.paper = paper
        self.description = description
        self.tables = tables
        self.part = ""
        self.notes = {}
        self._parts = tuple(parts)
        self._by_part = {p.part: p for p in self._parts}
        self.judge_name = ", ".join(f"{p.judge_name} ({p.name.split('.')[0]})" for p in self._parts)
        self.datasets = [d for p in self._parts for d in p.datasets]

    def parts(self) -> Sequence[Suite]:
        return self._parts

    def prepare(self, flows: FlowRunner) -> None:
        for p in self._parts:
            p.prepare(flows)

    def count(self) -> int | None:
        counts = [p.count() for p in self._parts]
        return None if any(c is None for c in counts) else sum(c for c in counts if c is not None)

    def cases(self) -> Iterator[Case]:
        for p in self._parts:
            yield from p.cases()

    def flow(self, case: Case, system: System) -> Flow:
        return self._by_part[case.part].flow(case, system)

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        return self._by_part[case.part].records(case, responses)

    def needs_rejudge(self) -> bool:
        return any(p.needs_rejudge() for p in self._parts)

    def rejudge(self, records: list[Record], flows: FlowRunner) -> list[Record]:
        out = list(records)
        for p in self._parts:
            if p.needs_rejudge():
                index = [i for i, r in enumerate(out) if r["part"] == p.part]
                for i, r in zip(index, p.rejudge([out[i] for i in index], flows), strict=True):
                    out[i] = r
        return out

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        out = []
        for p in self._parts:
            for m in p.metrics(records):
                out.append(MetricValue(m.name, m.value, m.ci_low, m.ci_high, m.n,
                                       m.n_unmeasured, {"suite": p.name, **m.group}))
        return out

    def extractors(self) -> Mapping[str, str]:
        return {name: mode for p in self._parts for name, mode in p.extractors().items()}

    def run_notes(self) -> dict[str, Any]:
        notes = dict(super().run_notes())
        for p in self._parts:
            notes.update(p.run_notes())
        return notes


def base_record(case: Case, sub: int, question: str, response: Response,
                judgement: Judgement) -> Record:
    """The fields every record has; suites add their own."""
    v = case.variant
    record: Record = {
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
    if response.logprobs:  # protocol=loglik: the scores the choice was read from
        record["logprobs"] = list(response.logprobs)
    return record
