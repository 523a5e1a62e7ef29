"""Flat and paper-shaped tables of metric values (formatting lives here, not in metrics)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from typing import Any, TextIO

from rattle.metrics.core import MetricValue

GROUP_ORDER = ("suite", "dataset", "condition", "attack", "level")


def group_columns(metrics: Sequence[MetricValue]) -> list[str]:
    keys: list[str] = []
    for m in metrics:
        for k in m.group:
            if k not in keys:
                keys.append(k)
    return sorted(keys, key=lambda k: (GROUP_ORDER.index(k) if k in GROUP_ORDER else 99, k))


def write_csv(metrics: Sequence[MetricValue], fh: TextIO) -> None:
    cols = group_columns(metrics)
    writer = csv.writer(fh, lineterminator="\n")
    writer.writerow([*cols, "metric", "value", "ci_low", "ci_high", "n", "n_unmeasured"])
    for m in metrics:
        writer.writerow([*(m.group.get(c, "") for c in cols), m.name, m.value, m.ci_low,
                         m.ci_high, m.n, m.n_unmeasured])


def fmt(value: float | None, *, pct: bool = True) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.1f}" if pct else f"{value:.3f}"


RATE_METRICS = {
    "accuracy", "er", "acr", "first_option_rate", "em", "f1", "asr", "acc_ans", "acc_unans",
    "unans_acc", "hallucination_rate", "parametric_correct_rate", "rad", "par", "conflict_acc",
    "conflict_acc_c", "conflict_acc_nc", "a_to_a", "a_to_c", "a_to_u", "acc_before", "acc_after",
    "cloze_accuracy", "acr_index", "parse_rate", "judge_agreement", "worst_case_accuracy",
    "any_flip_rate", "attack_success_rate", "pdr",
}


def fmt_metric(m: MetricValue) -> str:
    pct = m.name in RATE_METRICS
    text = fmt(m.value, pct=pct)
    if m.ci_low is not None and m.ci_high is not None and m.value is not None:
        text += f" [{fmt(m.ci_low, pct=pct)}, {fmt(m.ci_high, pct=pct)}]"
    return text


def pivot(metrics: Sequence[MetricValue]) -> tuple[list[str], list[str], list[list[Any]]]:
    """Rows = group, columns = metric names; cells = formatted value with CI."""
    cols = group_columns(metrics)
    names: list[str] = []
    rows: dict[tuple[Any, ...], dict[str, MetricValue]] = {}
    for m in metrics:
        if m.name not in names:
            names.append(m.name)
        key = tuple(m.group.get(c, "") for c in cols)
        rows.setdefault(key, {})[m.name] = m
    # Drop group columns that are empty in every row (e.g. "level" for most attacks).
    keep = [i for i, _ in enumerate(cols) if any(k[i] not in ("", None) for k in rows)]
    cols = [cols[i] for i in keep]
    rows = {tuple(k[i] for i in keep): v for k, v in rows.items()}
    body = []
    for key, cells in rows.items():
        n = max((c.n for c in cells.values()), default=0)
        unmeasured = max((c.n_unmeasured for c in cells.values()), default=0)
        body.append([*key, *(fmt_metric(cells[nm]) if nm in cells else "" for nm in names),
                     n, unmeasured])
    return cols, names, body
