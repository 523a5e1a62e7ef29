"""Run a suite end to end: plan → ask (through the store) → judge → metrics → run folder.

The run folder holds ``results.jsonl`` (one judged record per line, with the variant's
provenance), ``metrics.json`` (``{"run": {...}, "metrics": [...]}``), ``metrics.csv`` and
``report.html``. Files are written to a temporary name and renamed, so a killed run never
leaves a half-written output; the store keeps every answer that completed, so rerunning the
same command resumes without asking again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rattle import __version__, registry
from rattle.errors import ConfigError
from rattle.metrics.core import MetricValue
from rattle.run.executor import ExecStats, Executor
from rattle.run.store import Store
from rattle.seeding import short_hash
from rattle.suites.base import Case, Record, Suite

log = logging.getLogger(__name__)


@dataclass
class RunConfig:
    suite: str = "quick"
    model: str = "embedded"
    system: str = "llm"
    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    out: str | None = None
    workspace: str = ".rattle"
    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int | None = None
    max_tokens: int = 32
    system_prompt: str | None = None
    suite_options: dict[str, Any] = field(default_factory=dict)
    system_options: dict[str, Any] = field(default_factory=dict)
    max_requests: int | None = None
    max_cost: float | None = None
    price: str | None = None
    executor: str = "local"
    ray_address: str | None = None
    replicas: int = 2
    skip_invalid: bool = False

    def public(self) -> dict[str, Any]:
        """The config as recorded in outputs (no secrets: keys are never part of it)."""
        d = dict(self.__dict__)
        d["system_options"] = {k: v for k, v in self.system_options.items() if k != "headers"}
        return d


@dataclass
class RunOutcome:
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
        return read_records(path) if path.is_file() else []


def build_suite(config: RunConfig) -> Suite:
    entry = registry.get("suite", config.suite)
    options = {"dataset": config.dataset, "limit": config.limit, "seed": config.seed,
               "skip_invalid": config.skip_invalid, **config.suite_options}
    try:
        suite: Suite = entry.factory(**options)
    except TypeError as exc:
        raise ConfigError(f"suite {config.suite}: bad option: {exc}") from None
    return suite


def build_system(config: RunConfig) -> Any:
    from rattle.models.base import GenParams

    entry = registry.get("system", config.system)
    if config.system == "http":
        return entry.factory(**config.system_options)
    from rattle.models import load_model

    settings: dict[str, Any] = {}
    if config.base_url:
        settings["base_url"] = config.base_url
    if config.api_key_env:
        settings["api_key_env"] = config.api_key_env
    if config.concurrency:
        settings["concurrency"] = config.concurrency
    if config.executor == "ray":
        from rattle.run.ray_backend import RayBackend

        model: Any = RayBackend(config.model, settings, address=config.ray_address,
                                replicas=config.replicas)
    elif config.executor == "local":
        model = load_model(config.model, **settings)
    else:
        raise ConfigError(f"unknown executor {config.executor!r}; use local or ray")
    if config.concurrency and config.executor == "local" and config.model.split("/")[0] != "openai":
        model.concurrency = max(1, config.concurrency) if model.concurrency > 1 else 1
    opts: dict[str, Any] = {"params": GenParams(max_tokens=config.max_tokens, seed=config.seed)}
    if config.system_prompt is not None:
        opts["system_prompt"] = config.system_prompt
    opts.update(config.system_options)
    return entry.factory(model, **opts)


FAULT_ENV = "RATTLE_FAULT_KILL_AT"


def fault_point(name: str) -> None:
    """Fault injection for the reliability tests: SIGKILL this process at ``name`` when
    ``$RATTLE_FAULT_KILL_AT`` says so ("after-requests": every answer stored, no output file
    final yet; "mid-outputs": results and metrics.json written, the rest not)."""
    if os.environ.get(FAULT_ENV) == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def _write_atomic(path: Path, write: Callable[[Any], None]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        write(fh)
    os.replace(tmp, path)


def run_suite(
    config: RunConfig,
    *,
    dry_run: bool = False,
    progress: Callable[[ExecStats], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> RunOutcome:
    suite = build_suite(config)
    system = build_system(config)
    run_id = time.strftime("%Y%m%d-%H%M%S") + "-" + short_hash([config.public(), time.time()], 6)
    run_dir = Path(config.out or Path("runs") / f"{suite.name}-{run_id}")
    store = Store(config.workspace)
    prepare = getattr(suite, "prepare", None)
    if prepare is not None:
        prepare(store)
    count = getattr(suite, "count", None)
    total = count() if count is not None else None
    if on_total is not None and total is not None:
        on_total(total)
    if not dry_run:
        run_dir.mkdir(parents=True, exist_ok=True)
    make_stream = getattr(suite, "metric_stream", None)
    stream = make_stream() if make_stream is not None else None
    sink = ResultSink(run_dir / "results.jsonl.tmp", getattr(suite, "metric_fields", None),
                      enabled=not dry_run, stream=stream)
    n_cases = 0

    def flows() -> Iterator[tuple[tuple[int, Case], Any]]:
        nonlocal n_cases
        for i, case in enumerate(suite.cases()):
            n_cases = i + 1
            yield (i, case), system.flow(case.query)

    def on_result(tag: tuple[int, Case], responses: Any) -> None:
        index, case = tag
        if not dry_run:
            sink.put(index, suite.records(case, responses))

    from rattle.models.pricing import cost, price_for

    price = price_for(config.model if config.system != "http" else "http/", config.price)
    executor = Executor(system.backend, store, dry_run=dry_run, progress=progress,
                        max_requests=config.max_requests, price=price, max_cost=config.max_cost)
    started = time.time()
    t_run = time.perf_counter()
    status = "interrupted"
    if not dry_run:
        store.start_run(run_id, suite.name, config.public())

    async def drive() -> ExecStats:
        try:
            return await executor.arun(flows(), on_result)
        finally:
            await system.backend.aclose()

    try:
        stats = asyncio.run(drive())
        status = "done"
    finally:
        if not dry_run:
            store.finish_run(run_id, status, executor.stats.as_counts())
        store.close()
        sink.close()
    info = {
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
    if dry_run:
        est_prompt = executor.estimated_prompt_chars // 4
        est_completion = stats.requests_sent * config.max_tokens
        info["estimated_cost_usd"] = cost(price, est_prompt, est_completion)
        return RunOutcome(run_dir, run_id, [], stats, info, True, est_prompt + est_completion)
    fault_point("after-requests")
    os.replace(sink.path, run_dir / "results.jsonl")
    rejudge = getattr(suite, "rejudge", None) if getattr(suite, "rejudges", False) else None
    rejudged: list[Record] | None = None
    if rejudge is not None:
        # Judging that needs a model of its own (an LLM judge, response quality): after the
        # target has answered, through the store, then the records are rewritten.
        from rattle.report.load import read_records

        with Store(config.workspace) as judge_store:
            rejudged = rejudge(read_records(run_dir / "results.jsonl"), judge_store)
        sink.unmeasured = sum(r["correct"] is None for r in rejudged)
        info["judge"] = suite.judge_name
    notes = {k: v for k, v in (getattr(suite, "notes", None) or {}).items() if v}
    for part in ("rcc", "qa", "factoid"):  # the quick suite's parts
        notes.update({k: v for k, v in (getattr(getattr(suite, part, None), "notes", None) or {}).items() if v})
    if notes:
        info["suite_notes"] = notes
    t_metrics = time.perf_counter()
    if rejudged is not None:
        metrics = suite.metrics(rejudged)
    else:
        metrics = stream.metrics() if stream is not None else suite.metrics(sink.kept)
    info["records"] = sink.count
    info["unmeasured"] = sink.unmeasured
    t_outputs = time.perf_counter()
    info["seconds"] = {"plan_ask_judge": round(t_metrics - t_run, 3),
                       "metrics": round(t_outputs - t_metrics, 3)}
    sink.kept = []
    write_run(run_dir, info, rejudged, metrics)
    info["seconds"]["outputs"] = round(time.perf_counter() - t_outputs, 3)
    return RunOutcome(run_dir, run_id, metrics, stats, info)


class Row:
    """A record reduced to the fields metrics read: a tuple of values (repeated values
    shared) plus one field index shared by every row of a run."""

    __slots__ = ("_index", "_values")

    def __init__(self, index: dict[str, int], values: tuple[Any, ...]) -> None:
        self._index = index
        self._values = values

    def __getitem__(self, key: str) -> Any:
        return self._values[self._index[key]]

    def get(self, key: str, default: Any = None) -> Any:
        i = self._index.get(key)
        return default if i is None else self._values[i]

    def __contains__(self, key: str) -> bool:
        return key in self._index


class _Interner:
    """Shares equal strings and small mappings between rows (dataset names, attack names,
    item ids and group labels repeat across a million cases)."""

    def __init__(self) -> None:
        self._cache: dict[Any, Any] = {}

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            return sys.intern(value)
        if isinstance(value, dict):
            try:
                key = ("dict", tuple(value.items()))
                hash(key)
            except TypeError:
                return value
            return self._cache.setdefault(key, value)
        return value


class ResultSink:
    """Writes judged records to ``results.jsonl`` in case order as they complete.

    Cases finish out of order (concurrency); a reorder buffer holds the early ones until the
    cases before them are done, so the file is identical whatever the timing. For metrics it
    keeps only ``fields`` of each record (all fields when None).
    """

    def __init__(self, path: Path, fields: Sequence[str] | None, enabled: bool = True,
                 stream: Any = None) -> None:
        self.path = path
        self.stream = stream
        self.fields = tuple(fields) if fields else None
        self.enabled = enabled
        self._fh: Any = path.open("w", encoding="utf-8") if enabled else None
        self._pending: dict[int, list[Record]] = {}
        self._intern = _Interner()
        self._index = {k: i for i, k in enumerate(self.fields or ())}
        self._next = 0
        self.kept: list[Any] = []  # full records, or Rows when the suite names its fields
        self.count = 0
        self.unmeasured = 0

    def put(self, index: int, records: list[Record]) -> None:
        self._pending[index] = records
        while self._next in self._pending:
            for r in self._pending.pop(self._next):
                self._fh.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
                self.count += 1
                self.unmeasured += r["correct"] is None
                if self.stream is not None:
                    self.stream.add(r)
                elif self.fields is None:
                    self.kept.append(r)
                else:
                    self.kept.append(Row(self._index, tuple(self._intern(r.get(k))
                                                            for k in self.fields)))
            self._next += 1

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


# Columns with a Parquet type of their own; every other non-string value (lists, mappings,
# booleans of suite fields) is stored as JSON text, so each column has one type whatever the
# suite.
TYPED = {"sub": "int64", "seed": "int64", "version": "int64", "correct": "bool_"}
PARQUET_CHUNK = 10_000  # rows per Parquet write: bounds the memory of the export


def _flat(r: Record) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for k, v in r.items():
        if k == "group":
            for gk, gv in v.items():
                row[f"group.{gk}"] = gv
        else:
            row[k] = v
    return {k: (v if v is None or k in TYPED or isinstance(v, str)
                else json.dumps(v, ensure_ascii=False)) for k, v in row.items()}


def write_parquet(path: Path, results: Path) -> bool:
    """``results.parquet`` beside ``results.jsonl`` (streamed in chunks) when pyarrow is
    installed. Lists and mappings are stored as JSON text so each column has one type."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        log.info("pyarrow not installed; skipping %s (pip install 'rattle[analysis]')", path)
        return False
    from rattle.report.load import iter_records

    columns: dict[str, None] = {}
    for r in iter_records(results):
        for k, v in r.items():
            if k == "group":
                for gk in v:
                    columns.setdefault(f"group.{gk}", None)
            else:
                columns.setdefault(k, None)
    schema = pa.schema([(c, getattr(pa, TYPED.get(c, "string"))()) for c in columns])
    tmp = path.with_name(path.name + ".tmp")
    with pq.ParquetWriter(tmp, schema) as writer:
        chunk: list[dict[str, Any]] = []
        for r in iter_records(results):
            chunk.append(_flat(r))
            if len(chunk) >= PARQUET_CHUNK:
                writer.write_table(pa.Table.from_pylist(chunk, schema=schema))
                chunk = []
        if chunk or not columns:
            writer.write_table(pa.Table.from_pylist(chunk, schema=schema))
    os.replace(tmp, path)
    return True


def write_run(run_dir: Path, info: dict[str, Any], records: list[Record] | None,
              metrics: list[MetricValue]) -> None:
    """Write the run folder. ``records=None``: ``results.jsonl`` is already written."""
    from rattle.report.html import write_report_to
    from rattle.report.load import iter_records
    from rattle.report.tables import write_csv

    run_dir.mkdir(parents=True, exist_ok=True)
    if records is not None:
        def write_results(fh: Any) -> None:
            for r in records:
                fh.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")

        _write_atomic(run_dir / "results.jsonl", write_results)
    results = run_dir / "results.jsonl"
    write_parquet(run_dir / "results.parquet", results)
    payload = {"run": info, "metrics": [m.as_dict() for m in metrics]}
    _write_atomic(run_dir / "metrics.json",
                  lambda fh: fh.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n"))
    fault_point("mid-outputs")
    _write_atomic(run_dir / "metrics.csv", lambda fh: write_csv(metrics, fh))
    from rattle.report.paper_tables import paper_tables

    tables_dir = run_dir / "tables"
    for table in paper_tables(metrics):
        tables_dir.mkdir(exist_ok=True)

        def write_table(fh: Any, table: Any = table) -> None:
            import csv

            w = csv.writer(fh, lineterminator="\n")
            w.writerow(table.header)
            w.writerows(table.rows)

        _write_atomic(tables_dir / f"{table.name}.csv", write_table)
    _write_atomic(run_dir / "report.html",
                  lambda fh: write_report_to(fh, info, iter_records(results), metrics))
