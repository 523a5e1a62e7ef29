"""The matrix report of an experiment: a leaderboard per metric, with CIs, and the paired
comparisons between models (``matrix.html``, ``matrix.md``, ``matrix.json``).

A leaderboard puts the models of one suite part and dataset side by side for one metric: a row
per model, a column per group (attack, condition, ...), every cell ``value [95% CI]``. Models
are ranked by the mean over the groups when the metric has a known direction (accuracy: higher
is better; error and attack-success rates: lower). Comparisons pair each two models' cases
(same case, same question) and bootstrap the accuracy difference over items
(``report.compare.paired_accuracy``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from rattle.files import atomic_write_text
from rattle.metrics.core import MetricValue
from rattle.report.compare import PairedDiff, paired_accuracy
from rattle.report.load import load_run
from rattle.report.markup import esc
from rattle.report.tables import fmt_metric

HIGHER_IS_BETTER = frozenset({
    "accuracy", "em", "f1", "acc_ans", "acc_unans", "unans_acc", "rad", "conflict_acc",
    "conflict_acc_c", "conflict_acc_nc", "a_to_a", "acc_before", "acc_after", "cloze_accuracy",
    "factscore", "fluency", "utility", "citation_recall", "citation_precision",
})
LOWER_IS_BETTER = frozenset({
    "er", "acr", "asr", "hallucination_rate", "consistency_std", "contradiction_rate",
    "a_to_c", "a_to_u", "first_option_rate",
})


@dataclass(frozen=True)
class MatrixCell:
    """A finished cell: its model, suite, dataset (None: the suite's own) and run folder."""

    model: str
    suite: str
    dataset: str | None
    run_dir: Path


@dataclass
class Leaderboard:
    """One metric of one suite part and dataset: models × groups."""

    suite: str
    part: str
    dataset: str
    metric: str
    columns: list[str] = field(default_factory=list)
    rows: dict[str, dict[str, MetricValue]] = field(default_factory=dict)

    def mean(self, model: str) -> float | None:
        values = [m.value for m in self.rows[model].values() if m.value is not None]
        return sum(values) / len(values) if values else None

    def ranked(self) -> list[str]:
        models = list(self.rows)
        if self.metric not in HIGHER_IS_BETTER | LOWER_IS_BETTER:
            return models
        sign = -1 if self.metric in HIGHER_IS_BETTER else 1

        def key(model: str) -> tuple[bool, float]:
            m = self.mean(model)
            return (m is None, sign * (m or 0.0))

        return sorted(models, key=key)

    def title(self) -> str:
        where = self.part if self.part == self.suite else f"{self.suite} · {self.part}"
        return f"{self.metric} — {where}" + (f" · {self.dataset}" if self.dataset else "")

    def direction(self) -> str:
        if self.metric in HIGHER_IS_BETTER:
            return "ranked by the mean over groups, higher is better"
        if self.metric in LOWER_IS_BETTER:
            return "ranked by the mean over groups, lower is better"
        return "in the file's order (no ranking direction for this metric)"

    def as_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "part": self.part, "dataset": self.dataset,
                "metric": self.metric, "columns": self.columns,
                "rows": [{"model": model, "mean": self.mean(model),
                          "cells": {c: m.as_dict() for c, m in self.rows[model].items()}}
                         for model in self.ranked()]}


@dataclass
class Matrix:
    """Everything the matrix report shows."""

    cells: list[MatrixCell]
    leaderboards: list[Leaderboard]
    comparisons: list[PairedDiff]


def _column(group: Mapping[str, Any]) -> str:
    return " · ".join(f"{v}" for k, v in group.items()
                      if k not in ("suite", "dataset") and v not in ("", None)) or "all"


def build_matrix(cells: Sequence[MatrixCell], *, seed: int = 0) -> Matrix:
    """Leaderboards from every cell's metrics, and paired comparisons of every two models run
    on the same suite and dataset (A is the model listed first)."""
    boards: dict[tuple[str, str, str, str], Leaderboard] = {}
    loaded = {}
    for cell in cells:
        run = load_run(cell.run_dir)
        loaded[cell] = run
        for m in run.metric_values:
            part = str(m.group.get("suite", cell.suite))
            key = (cell.suite, part, str(m.group.get("dataset") or cell.dataset or ""), m.name)
            board = boards.setdefault(key, Leaderboard(*key))
            col = _column(m.group)
            if col not in board.columns:
                board.columns.append(col)
            board.rows.setdefault(cell.model, {})[col] = m
    comparisons: list[PairedDiff] = []
    by_run: dict[tuple[str, str | None], list[MatrixCell]] = {}
    for cell in cells:
        by_run.setdefault((cell.suite, cell.dataset), []).append(cell)
    for same in by_run.values():
        for a, b in combinations(same, 2):
            for d in paired_accuracy(loaded[a], loaded[b], a.model, b.model, seed=seed):
                group = {"suite": a.suite, **{k: v for k, v in d.group.items()
                                              if v not in ("", None)}}
                comparisons.append(PairedDiff(group, d.a, d.b, d.acc_a, d.acc_b, d.diff,
                                              d.ci_low, d.ci_high, d.n_items, d.n_cases))
    return Matrix(list(cells), list(boards.values()), comparisons)


def _where(d: PairedDiff) -> str:
    return " · ".join(str(v) for k, v in d.group.items() if v not in ("", None))


def _ci(d: PairedDiff) -> str:
    if d.ci_low is None or d.ci_high is None:
        return "–"
    return f"[{d.ci_low * 100:+.1f}, {d.ci_high * 100:+.1f}]"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(matrix: Matrix, gates: Sequence[Mapping[str, Any]]) -> str:
    lines = ["# rattle experiment", ""]
    if gates:
        lines += ["## Gates", ""]
        lines += [f"- {'passed' if g['passed'] else 'FAILED'}: `{g['gate']}` ({g['reason']})"
                  for g in gates]
        lines.append("")
    lines += ["## Leaderboards", ""]
    for board in matrix.leaderboards:
        lines += [f"### {board.title()}", "", f"_{board.direction()}_", "",
                  "| # | model | " + " | ".join(board.columns) + " |",
                  "|---|---|" + "---|" * len(board.columns)]
        for rank, model in enumerate(board.ranked(), 1):
            cells = [fmt_metric(board.rows[model][c]) if c in board.rows[model] else ""
                     for c in board.columns]
            lines.append(f"| {rank} | {_md(model)} | " + " | ".join(map(_md, cells)) + " |")
        lines.append("")
    lines += ["## Paired comparisons (accuracy, B − A, 95% CI)", ""]
    if matrix.comparisons:
        lines += ["| A | B | group | A | B | B − A | CI | items | significant |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for d in matrix.comparisons:
            lines.append(f"| {_md(d.a)} | {_md(d.b)} | {_md(_where(d))} | {d.acc_a * 100:.1f} | "
                         f"{d.acc_b * 100:.1f} | {d.diff * 100:+.1f} | {_ci(d)} | {d.n_items} | "
                         f"{'yes' if d.significant else 'no'} |")
        significant = [d.sentence() for d in matrix.comparisons if d.significant]
        lines += ["", *significant] if significant else [
            "", "No significant accuracy difference (every 95% interval contains zero)."]
    else:
        lines.append("One model per suite and dataset: nothing to pair.")
    lines += ["", "## Cells", ""]
    lines += [f"- {c.model} × {c.suite}{' × ' + c.dataset if c.dataset else ''}: "
              f"`{c.run_dir.name}/report.html`" for c in matrix.cells]
    return "\n".join(lines) + "\n"


CSS = ("body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;"
       "padding:0 1em;color:#222}h2{border-bottom:1px solid #ddd;margin-top:2em}"
       "h3{font-size:1em}table{border-collapse:collapse;font-size:13px}"
       "td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}"
       "th{background:#f4f4f4}.scroll{max-width:100%;overflow:auto;max-height:30em}"
       ".ok{color:#176b2c}.bad{color:#a11}.note{color:#666;font-size:12px}")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<div class='scroll'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def to_html(matrix: Matrix, gates: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    if gates:
        items = "".join(f"<li class='{'ok' if g['passed'] else 'bad'}'>"
                        f"{'passed' if g['passed'] else 'FAILED'}: <code>{esc(g['gate'])}</code>"
                        f" <span class='note'>{esc(g['reason'])}</span></li>" for g in gates)
        parts.append(f"<section id='gates'><h2>Gates</h2><ul>{items}</ul></section>")
    boards = []
    for board in matrix.leaderboards:
        rows = [[str(rank), model, *(fmt_metric(board.rows[model][c]) if c in board.rows[model]
                                     else "" for c in board.columns)]
                for rank, model in enumerate(board.ranked(), 1)]
        boards.append(f"<h3>{esc(board.title())}</h3><p class='note'>{esc(board.direction())}</p>"
                      + _table(["#", "model", *board.columns], rows))
    parts.append(f"<section id='leaderboards'><h2>Leaderboards</h2>{''.join(boards)}</section>")
    if matrix.comparisons:
        rows = [[d.a, d.b, _where(d), f"{d.acc_a * 100:.1f}", f"{d.acc_b * 100:.1f}",
                 f"{d.diff * 100:+.1f}", _ci(d), str(d.n_items), "yes" if d.significant else "no"]
                for d in matrix.comparisons]
        notes = "".join(f"<p>{esc(d.sentence())}</p>" for d in matrix.comparisons if d.significant)
        parts.append("<section id='comparisons'><h2>Paired comparisons (accuracy, B − A)</h2>"
                     + (notes or "<p>No significant accuracy difference (every 95% interval "
                        "contains zero).</p>")
                     + _table(["A", "B", "group", "A %", "B %", "B − A", "95% CI", "items",
                               "significant"], rows) + "</section>")
    links = "".join(f"<li>{esc(c.model)} × {esc(c.suite)}{' × ' + esc(c.dataset) if c.dataset else ''}"
                    f": {esc(c.run_dir.name)}/report.html</li>" for c in matrix.cells)
    parts.append(f"<section id='cells'><h2>Cells</h2><ul>{links}</ul></section>")
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
            "style-src 'unsafe-inline'\"><title>rattle experiment</title>"
            f"<style>{CSS}</style></head><body><h1>rattle experiment</h1>"
            f"<p class='note'>{len(matrix.cells)} runs</p>{''.join(parts)}</body></html>")


def to_json(matrix: Matrix, gates: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "cells": [{"model": c.model, "suite": c.suite, "dataset": c.dataset,
                   "run": c.run_dir.name} for c in matrix.cells],
        "gates": list(gates),
        "leaderboards": [b.as_dict() for b in matrix.leaderboards],
        "comparisons": [{"group": d.group, "a": d.a, "b": d.b, "acc_a": d.acc_a,
                         "acc_b": d.acc_b, "diff": d.diff, "ci_low": d.ci_low,
                         "ci_high": d.ci_high, "n_items": d.n_items, "n_cases": d.n_cases,
                         "significant": d.significant} for d in matrix.comparisons],
    }


def write_matrix(out_dir: Path, matrix: Matrix, gates: Sequence[Mapping[str, Any]]) -> Path:
    """Write ``matrix.html``, ``matrix.md`` and ``matrix.json`` into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out_dir / "matrix.md", to_markdown(matrix, gates))
    atomic_write_text(out_dir / "matrix.json",
                      json.dumps(to_json(matrix, gates), indent=2, ensure_ascii=False) + "\n")
    page = out_dir / "matrix.html"
    atomic_write_text(page, to_html(matrix, gates))
    return page
