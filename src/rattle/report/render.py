"""Everything of a run folder derived from its metrics and records: ``metrics.csv``,
``tables/*.csv`` (shaped like the papers' tables) and ``report.html``.

Called by the runner after a run and by ``rattle report`` on a finished run folder (no model
is asked); each file is written to a temporary name and renamed.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from rattle.files import atomic_write
from rattle.metrics.core import MetricValue


def render_run(run_dir: Path, info: dict[str, Any], metrics: Sequence[MetricValue]) -> None:
    """Write the metrics CSV, the paper-shaped tables and the HTML report of ``run_dir``
    (its ``results.jsonl`` must be complete)."""
    from rattle.report.html import write_report_to
    from rattle.report.load import iter_records
    from rattle.report.paper_tables import paper_tables
    from rattle.report.tables import write_csv

    atomic_write(run_dir / "metrics.csv", lambda fh: write_csv(metrics, fh))
    tables_dir = run_dir / "tables"
    for table in paper_tables(metrics):
        tables_dir.mkdir(exist_ok=True)

        def write_table(fh: TextIO, table: Any = table) -> None:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(table.header)
            w.writerows(table.rows)

        atomic_write(tables_dir / f"{table.name}.csv", write_table)
    results = run_dir / "results.jsonl"
    atomic_write(run_dir / "report.html",
                 lambda fh: write_report_to(fh, info, iter_records(results), metrics))


def rerender(run_dir: Path) -> Path:
    """``rattle report``: re-render a finished run folder from its files; returns the page."""
    from rattle.report.load import load_run

    loaded = load_run(run_dir)
    render_run(run_dir, loaded.info, loaded.metric_values)
    return run_dir / "report.html"
