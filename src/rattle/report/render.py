"""Everything of a run folder derived from its metrics and records: ``metrics.csv``,
``tables/*.csv`` (shaped like the papers' tables) and ``report.html``.

Called by the runner after a run and by ``rattle report`` on a finished run folder (no model
is asked); each file is written to a temporary name and renamed. Gate results, when a run was
gated, live in ``metrics.json`` (``"gates"``) and are shown on the report's headline cards.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rattle.files import atomic_write
from rattle.metrics.core import MetricValue


def render_run(run_dir: Path, info: Mapping[str, Any], metrics: Sequence[MetricValue],
               gates: Sequence[Mapping[str, Any]] | None = None) -> None:
    """Write the metrics CSV, the paper-shaped tables and the HTML report of ``run_dir``
    (its ``results.jsonl`` must be complete). ``gates=None``: those in ``metrics.json``."""
    from rattle.report.html import split_parts
    from rattle.report.paper_tables import paper_tables
    from rattle.report.tables import write_csv

    atomic_write(run_dir / "metrics.csv", lambda fh: write_csv(metrics, fh))
    tables_dir = run_dir / "tables"
    names: set[str] = set()
    # Per suite part: a composite suite's metrics carry a "suite" key the papers' tables lack.
    tables = [t for part_metrics in split_parts(info, metrics).values()
              for t in paper_tables(part_metrics)]
    for table in tables:
        name = table.name
        while name in names:
            name += "_"
        names.add(name)
        tables_dir.mkdir(exist_ok=True)

        def write_table(fh: TextIO, table: Any = table) -> None:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(table.header)
            w.writerows(table.rows)

        atomic_write(tables_dir / f"{name}.csv", write_table)
    render_report(run_dir, info, metrics, gates)


def render_report(run_dir: Path, info: Mapping[str, Any], metrics: Sequence[MetricValue],
                  gates: Sequence[Mapping[str, Any]] | None = None) -> Path:
    """Write ``report.html`` alone (after gates were checked, for instance)."""
    from rattle.report.html import write_report_to
    from rattle.report.load import iter_records

    if gates is None:
        gates = stored_gates(run_dir)
    results = run_dir / "results.jsonl"
    page = run_dir / "report.html"
    atomic_write(page, lambda fh: write_report_to(fh, info, lambda: iter_records(results),
                                                  metrics, gates))
    return page


def stored_gates(run_dir: Path) -> list[dict[str, Any]]:
    """The gate results recorded in ``metrics.json`` (none when the run was not gated)."""
    path = run_dir / "metrics.json"
    if not path.is_file():
        return []
    gates = json.loads(path.read_text(encoding="utf-8")).get("gates", [])
    return list(gates) if isinstance(gates, list) else []


def rerender(run_dir: Path) -> Path:
    """``rattle report``: re-render a finished run folder from its files; returns the page."""
    from rattle.report.load import load_run

    loaded = load_run(run_dir)
    render_run(run_dir, loaded.info, loaded.metric_values)
    return run_dir / "report.html"
