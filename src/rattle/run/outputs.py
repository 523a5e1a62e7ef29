"""The run folder: ``results.jsonl``, ``results.parquet``, ``metrics.json``, then what
``report.render`` derives from them (CSV tables, the HTML report).

Every file is written to a temporary name and renamed, so a killed run leaves either the
previous file or the complete new one; the store keeps every answer, so a rerun rebuilds all.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rattle.files import atomic_write
from rattle.metrics.core import MetricValue
from rattle.records import Record

log = logging.getLogger(__name__)

# Columns with a Parquet type of their own; every other non-string value (lists, mappings,
# booleans of suite fields) is stored as JSON text, so each column has one type whatever the
# suite.
TYPED = {"sub": "int64", "seed": "int64", "version": "int64", "correct": "bool_"}
PARQUET_CHUNK = 10_000  # rows per Parquet write: bounds the memory of the export
FAULT_ENV = "RATTLE_FAULT_KILL_AT"


def fault_point(name: str) -> None:
    """Fault injection for the reliability tests: SIGKILL this process at ``name`` when
    ``$RATTLE_FAULT_KILL_AT`` says so ("after-requests": every answer stored, no output file
    final yet; "mid-outputs": results and metrics.json written, the rest not)."""
    if os.environ.get(FAULT_ENV) == name:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


def _flat(r: dict[str, Any]) -> dict[str, Any]:
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


def write_results(path: Path, records: Sequence[Record]) -> None:
    def write(fh: TextIO) -> None:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")

    atomic_write(path, write)


def write_run(run_dir: Path, info: dict[str, Any], records: Sequence[Record] | None,
              metrics: Sequence[MetricValue]) -> None:
    """Write the run folder. ``records=None``: ``results.jsonl`` is already written."""
    from rattle.report.render import render_run

    run_dir.mkdir(parents=True, exist_ok=True)
    if records is not None:
        write_results(run_dir / "results.jsonl", records)
    write_parquet(run_dir / "results.parquet", run_dir / "results.jsonl")
    payload = {"run": info, "metrics": [m.as_dict() for m in metrics]}
    atomic_write(run_dir / "metrics.json",
                 lambda fh: fh.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n"))
    fault_point("mid-outputs")
    render_run(run_dir, info, metrics)
