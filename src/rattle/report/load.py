"""Open a run folder for analysis: ``rattle.load_run(path).cases`` / ``.metrics`` (pandas)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattle.errors import DataError
from rattle.metrics.core import MetricValue


@dataclass
class LoadedRun:
    """A finished run folder read back: its info, records and metric values."""

    path: Path
    info: dict[str, Any]
    records: list[dict[str, Any]]
    metric_values: list[MetricValue]

    @property
    def cases(self) -> Any:
        import pandas as pd

        return pd.json_normalize(self.records)

    @property
    def metrics(self) -> Any:
        import pandas as pd

        return pd.json_normalize([m.as_dict() for m in self.metric_values])


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DataError(f"invalid JSON: {exc.msg}", path=str(path), line=lineno) from None


def read_records(path: Path) -> list[dict[str, Any]]:
    return list(iter_records(path))


def load_run(path: str | Path) -> LoadedRun:
    run_dir = Path(path)
    metrics_file = run_dir / "metrics.json"
    results_file = run_dir / "results.jsonl"
    if not metrics_file.is_file() or not results_file.is_file():
        raise DataError("not a finished run folder (needs metrics.json and results.jsonl)",
                        path=str(run_dir))
    payload = json.loads(metrics_file.read_text(encoding="utf-8"))
    metrics = [MetricValue(m["name"], m["value"], m["ci_low"], m["ci_high"], m["n"],
                           m.get("n_unmeasured", 0), m.get("group", {}))
               for m in payload.get("metrics", [])]
    return LoadedRun(run_dir, payload.get("run", {}), read_records(results_file), metrics)
