"""The run folder: ``results.jsonl``, ``results.parquet``, ``metrics.json``, then what
``report.render`` derives from them (CSV tables, the HTML report).

Every file is written to a temporary name and renamed, so a killed run leaves either the
previous file or the complete new one; the store keeps every answer, so a rerun rebuilds all.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
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
# ``json.dumps(v, ensure_ascii=False[, sort_keys=True])`` builds an encoder per call; these are
# the same encoders, built once (the same text).
TO_JSON = json.JSONEncoder(ensure_ascii=False).encode
RECORD_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode


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
                else TO_JSON(v)) for k, v in row.items()}


class Columns:
    """The Parquet columns of a run's records, in the order of their first appearance in
    ``results.jsonl`` (keys sorted within a record, as the file writes them; ``group`` spread
    into ``group.<key>`` in its place). The sink feeds it every record it writes, so the export
    reads the file once."""

    def __init__(self) -> None:
        self.names: dict[str, None] = {}
        self._keys: set[str] = set()
        self._group: set[str] = set()

    def add(self, r: Mapping[str, Any] | Record) -> None:
        group: Any = r.get("group")
        if self._keys.issuperset(r) and (not isinstance(group, dict)
                                         or self._group.issuperset(group)):
            return  # nothing new: the common case, checked in C
        for k in sorted(r):
            if k == "group":
                for gk in sorted(group):
                    self.names.setdefault(f"group.{gk}", None)
                    self._group.add(gk)
            else:
                self.names.setdefault(k, None)
        self._keys.update(r)


def _column(pa: Any, name: str, values: list[Any]) -> Any:
    """One Arrow array from Python values, built from buffers: ``pa.array`` and
    ``Table.from_pylist`` import pandas (0.3 s) to check their input. Values of an unexpected
    type take ``pa.array``, which converts or raises as ``from_pylist`` did."""
    import numpy as np

    kind = TYPED.get(name, "string")
    want = {"string": str, "int64": int, "bool_": bool}[kind]
    present = [v is not None for v in values]
    if not all(v is None or type(v) is want for v in values):
        return pa.array(values, type=getattr(pa, kind)())
    n = len(values)
    valid = None if all(present) else pa.py_buffer(np.packbits(np.array(present, bool),
                                                                bitorder="little"))
    if kind == "string":
        try:
            encoded = [v.encode() if v is not None else b"" for v in values]
        except UnicodeEncodeError:  # a lone surrogate: Arrow's own error
            return pa.array(values, type=pa.string())
        offsets = np.zeros(n + 1, np.int64)
        np.cumsum(np.fromiter(map(len, encoded), np.int64, n), out=offsets[1:])
        if offsets[-1] < 2**31:
            return pa.Array.from_buffers(pa.string(), n, [valid, pa.py_buffer(
                offsets.astype(np.int32)), pa.py_buffer(b"".join(encoded))])
        return pa.array(values, type=pa.string())  # over 2 GiB: let Arrow chunk it
    if kind == "bool_":
        bits = np.packbits(np.array([bool(v) for v in values], bool), bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), n, [valid, pa.py_buffer(bits)])
    try:
        ints = np.array([v if v is not None else 0 for v in values], np.int64)
    except OverflowError:
        return pa.array(values, type=pa.int64())
    return pa.Array.from_buffers(pa.int64(), n, [valid, pa.py_buffer(ints)])


def _table(pa: Any, schema: Any, rows: list[dict[str, Any]]) -> Any:
    arrays = [_column(pa, f.name, [row.get(f.name) for row in rows]) for f in schema]
    return pa.Table.from_arrays(arrays, schema=schema)


def write_parquet(path: Path, results: Path, columns: Columns | None = None) -> bool:
    """``results.parquet`` beside ``results.jsonl`` (streamed in chunks) when pyarrow is
    installed. Lists and mappings are stored as JSON text so each column has one type.
    ``columns``: what the sink saw while writing ``results.jsonl`` (else the file is read
    twice: once for the columns, once for the rows)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        log.info("pyarrow not installed; skipping %s (pip install 'rattle[analysis]')", path)
        return False
    from rattle.report.load import iter_records

    if columns is None:
        columns = Columns()
        for r in iter_records(results):
            columns.add(r)
    schema = pa.schema([(c, getattr(pa, TYPED.get(c, "string"))()) for c in columns.names])
    tmp = path.with_name(path.name + ".tmp")
    with pq.ParquetWriter(tmp, schema) as writer:
        chunk: list[dict[str, Any]] = []
        for r in iter_records(results):
            chunk.append(_flat(r))
            if len(chunk) >= PARQUET_CHUNK:
                writer.write_table(_table(pa, schema, chunk))
                chunk = []
        if chunk or not columns.names:
            writer.write_table(_table(pa, schema, chunk))
    os.replace(tmp, path)
    return True


def write_results(path: Path, records: Sequence[Record]) -> None:
    def write(fh: TextIO) -> None:
        for r in records:
            fh.write(RECORD_JSON(r) + "\n")

    atomic_write(path, write)


def write_run(run_dir: Path, info: dict[str, Any], records: Sequence[Record] | None,
              metrics: Sequence[MetricValue], columns: Columns | None = None) -> None:
    """Write the run folder. ``records=None``: ``results.jsonl`` is already written (with
    ``columns``, its Parquet columns as the sink collected them)."""
    from rattle.report.render import render_run

    run_dir.mkdir(parents=True, exist_ok=True)
    if records is not None:
        write_results(run_dir / "results.jsonl", records)
        columns = None
    write_parquet(run_dir / "results.parquet", run_dir / "results.jsonl", columns)
    payload = {"run": info, "metrics": [m.as_dict() for m in metrics]}
    atomic_write(run_dir / "metrics.json",
                 lambda fh: fh.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n"))
    fault_point("mid-outputs")
    render_run(run_dir, info, metrics)
