"""Run a suite end to end: plan → ask (through the store) → judge → metrics → run folder.

``run_suite`` wires the pieces: the configuration (``run.config``), the streaming sink
(``run.sink``), the executor and store, and the run-folder writer (``run.outputs``, which
hands the derived files to ``report.render``). The suite is called only through its contract
(``suites.base.Suite``). A killed run leaves either nothing or complete files; the store keeps
every answer that completed, so rerunning the same command resumes without asking again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattle import __version__
from rattle.flows import Flow
from rattle.metrics.core import MetricValue
from rattle.metrics.judging import ParseRates, parse_warnings
from rattle.records import Record
from rattle.run.config import RunConfig, build_suite, build_system
from rattle.run.executor import DryFlows, ExecStats, Executor, StoreFlows
from rattle.run.outputs import fault_point, write_run
from rattle.run.sink import ResultSink
from rattle.run.store import Store
from rattle.seeding import short_hash
from rattle.suites.base import Case, Suite

log = logging.getLogger(__name__)

__all__ = ["RunConfig", "RunOutcome", "run_suite"]


@dataclass
class RunOutcome:
    """What a run produced: its folder, metrics, request statistics and recorded info."""

    run_dir: Path
    run_id: str
    metrics: list[MetricValue]
    stats: ExecStats
    run_info: dict[str, Any]
    dry_run: bool = False
    estimated_tokens: int = 0

    @property
    def records(self) -> list[Record]:
        """The judged records, read back from ``results.jsonl`` (not kept in memory)."""
        from rattle.report.load import read_records

        path = self.run_dir / "results.jsonl"
        return read_records(path) if path.is_file() else []  # type: ignore[return-value]


def _price(config: RunConfig) -> tuple[float, float] | None:
    from rattle.models.pricing import price_for

    return price_for(config.model if config.system != "http" else None, config.price)


def _ask(suite: Suite, system: Any, executor: Executor, sink: ResultSink | None) -> int:
    """Drive every case of ``suite`` through ``executor``; records go to ``sink``."""
    n_cases = 0

    def flows() -> Iterator[tuple[tuple[int, Case], Flow]]:
        nonlocal n_cases
        for i, case in enumerate(suite.cases()):
            n_cases = i + 1
            yield (i, case), suite.flow(case, system)

    def on_result(tag: tuple[int, Case], responses: Any) -> None:
        index, case = tag
        if sink is not None:
            sink.put(index, suite.records(case, responses))

    async def drive() -> None:
        try:
            await executor.arun(flows(), on_result)
        finally:
            await system.backend.aclose()

    asyncio.run(drive())
    return n_cases


def run_suite(
    config: RunConfig,
    *,
    dry_run: bool = False,
    progress: Callable[[ExecStats], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Run ``config`` (or, with ``dry_run``, count what it would send) and write its folder."""
    suite = build_suite(config)
    system = build_system(config)
    run_id = time.strftime("%Y%m%d-%H%M%S") + "-" + short_hash([config.public(), time.time()], 6)
    run_dir = Path(config.out or Path("runs") / f"{suite.name}-{run_id}")
    store = Store(config.workspace)
    flows = DryFlows(store) if dry_run else StoreFlows(store)
    suite.prepare(flows)
    total = suite.count()
    if on_total is not None and total is not None:
        on_total(total)
    if not dry_run:
        run_dir.mkdir(parents=True, exist_ok=True)
    stream = suite.metric_stream()
    parse = ParseRates({p.part: p.name for p in suite.parts() if p.extractors()},
                       composite=len(suite.parts()) > 1)
    sink = ResultSink(run_dir / "results.jsonl.tmp", suite.metric_fields(),
                      enabled=not dry_run, stream=stream, watchers=(parse,))
    price = _price(config)
    executor = Executor(system.backend, store, dry_run=dry_run, progress=progress,
                        max_requests=config.max_requests, price=price, max_cost=config.max_cost)
    started = time.time()
    t_run = time.perf_counter()
    status = "interrupted"
    if not dry_run:
        store.start_run(run_id, suite.name, config.public())
    try:
        n_cases = _ask(suite, system, executor, None if dry_run else sink)
        status = "done"
    finally:
        if not dry_run:
            store.finish_run(run_id, status, executor.stats.as_counts())
        store.close()
        sink.close()
    stats = executor.stats
    info = _run_info(config, suite, system, stats, executor, run_id, n_cases, started)
    if dry_run:
        from rattle.models.pricing import cost

        est_prompt = executor.estimated_prompt_chars // 4
        est_completion = stats.requests_sent * config.max_tokens
        info["estimated_cost_usd"] = cost(price, est_prompt, est_completion)
        if isinstance(flows, DryFlows) and (flows.requests_sent or flows.requests_cached):
            # an attacker's or a fluency gate's requests: other models, not in the totals
            info["prepare_requests"] = {"to_send": flows.requests_sent,
                                        "cached": flows.requests_cached}
        return RunOutcome(run_dir, run_id, [], stats, info, True, est_prompt + est_completion)
    fault_point("after-requests")
    os.replace(sink.path, run_dir / "results.jsonl")
    rejudged = _rejudge(suite, config, run_dir, sink, info)
    notes = suite.run_notes()
    if notes:
        info["suite_notes"] = notes
    t_metrics = time.perf_counter()
    if rejudged is not None:
        metrics = suite.metrics(rejudged)
    else:
        metrics = stream.metrics() if stream is not None else suite.metrics(sink.kept)
    if rejudged is not None:
        parse = ParseRates(parse.parts, composite=parse.composite)
        for r in rejudged:
            parse.add(r)
    metrics = [*metrics, *parse.metrics(seed=config.seed), *_agreements(suite)]
    warnings = parse_warnings(metrics)
    for line in warnings:
        log.info("warning: %s", line)  # the CLI prints info["warnings"]
    if warnings:
        info["warnings"] = warnings
    info["records"] = sink.count
    info["unmeasured"] = sink.unmeasured
    t_outputs = time.perf_counter()
    info["seconds"] = {"plan_ask_judge": round(t_metrics - t_run, 3),
                       "metrics": round(t_outputs - t_metrics, 3)}
    sink.kept = []
    write_run(run_dir, info, rejudged, metrics, sink.columns)
    info["seconds"]["outputs"] = round(time.perf_counter() - t_outputs, 3)
    return RunOutcome(run_dir, run_id, metrics, stats, info)


def _agreements(suite: Suite) -> list[MetricValue]:
    """``judge_agreement`` of every rule extractor the suite used, on each shipped half of its
    labelled set (judges/data/labels)."""
    from rattle.judges.agreement import judge_agreement_metrics

    out: list[MetricValue] = []
    for name, mode in sorted(suite.extractors().items()):
        out.extend(judge_agreement_metrics([name], mode=mode))
    return out


def _rejudge(suite: Suite, config: RunConfig, run_dir: Path, sink: ResultSink,
             info: dict[str, Any]) -> list[Record] | None:
    """Judging that needs a model of its own (an LLM judge, response quality): after the
    target has answered, through the store; the records are then rewritten."""
    if not suite.needs_rejudge():
        return None
    from rattle.report.load import read_records

    with Store(config.workspace) as judge_store:
        records: list[Record] = read_records(run_dir / "results.jsonl")  # type: ignore[assignment]
        rejudged = suite.rejudge(records, StoreFlows(judge_store))
    sink.unmeasured = sum(r["correct"] is None for r in rejudged)
    info["judge"] = suite.judge_name
    return rejudged


def _run_info(config: RunConfig, suite: Suite, system: Any, stats: ExecStats,
              executor: Executor, run_id: str, n_cases: int, started: float) -> dict[str, Any]:
    return {
        "id": run_id,
        "suite": suite.name,
        "paper": suite.paper,
        "model": system.backend.display_name,
        "model_identity": system.backend.identity,
        "system": config.system,
        "system_identity": system.identity,
        "dataset": list(suite.datasets),
        "seed": config.seed,
        "rattle_version": __version__,
        "judge": suite.judge_name,
        "cases": n_cases,
        **stats.as_counts(),
        "cost_usd": executor.cost(),
        "wall_seconds": round(time.time() - started, 3),
        "model_seconds": round(stats.model_seconds, 3),
        "config": config.public(),
    }
