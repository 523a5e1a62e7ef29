"""What the CLI shows while a run goes on, and the summary after it (rich; plain when piped)."""

from __future__ import annotations

import sys
from dataclasses import replace
import time
from typing import Any

from rattle.run.executor import ExecStats


class ProgressView:
    """A live progress bar on a TTY; nothing but the summary otherwise."""

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self._progress: Any = None
        self._task: Any = None
        self._last = 0.0

    def __enter__(self) -> ProgressView:
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("[bold]cases"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TimeRemainingColumn(), TextColumn("{task.fields[info]}"),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("run", total=None, info="")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()

    def set_total(self, total: int) -> None:
        if self._progress is not None:
            self._progress.update(self._task, total=total)

    def update(self, stats: ExecStats) -> None:
        if self._progress is None:
            return
        now = time.monotonic()
        if now - self._last < 0.1:
            return
        self._last = now
        info = (f"sent {stats.requests_sent} cached {stats.requests_cached} "
                f"retries {stats.retries} failed {stats.requests_failed} "
                f"tokens {stats.tokens_prompt + stats.tokens_completion}")
        self._progress.update(self._task, completed=stats.flows_done, info=info)


def print_summary(outcome: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    from rattle.report.tables import pivot

    console = Console(highlight=False, no_color=not sys.stdout.isatty(),
                      width=None if sys.stdout.isatty() else 160)
    info = outcome.run_info
    if outcome.dry_run:
        console.print(f"dry run of {info['suite']} on {info['model']}: {info['cases']} cases, "
                      f"{info['requests_total']} distinct requests, {info['requests_cached']} "
                      f"already cached, {info['requests_sent']} to send, about "
                      f"{outcome.estimated_tokens} tokens (prompt + max completion)"
                      + _cost_text(info.get("estimated_cost_usd"), "estimated cost"),
                      soft_wrap=True)
        prep = info.get("prepare_requests")
        if prep:
            console.print(f"before asking: {prep['to_send']} requests to other models (attacker, "
                          f"fluency gate) to send, {prep['cached']} cached; the cases count every "
                          "variant the gate would score (attacker variants are not written)",
                          soft_wrap=True)
        return
    parts: dict[str, list[Any]] = {}
    agreements = [m for m in outcome.metrics if m.name == "judge_agreement"]
    for m in outcome.metrics:  # one table per part of a composite suite (quick)
        if m.name != "judge_agreement":
            parts.setdefault(str(m.group.get("suite", "")), []).append(m)
    for part, metrics in parts.items():
        if part:
            metrics = [replace(m, group={k: v for k, v in m.group.items() if k != "suite"})
                       for m in metrics]
        cols, names, body = pivot(metrics)
        title = f"{info['suite']} · {info['model']}" + (f" · {part}" if part else "")
        table = Table(title=title, show_lines=False)
        for c in [*cols, *names, "n", "unmeasured"]:
            table.add_column(str(c))
        for row in body:
            table.add_row(*(str(v) for v in row))
        console.print(table)
    console.print(
        f"requests: {info['requests_total']} distinct, {info['requests_sent']} sent, "
        f"{info['requests_cached']} cached, {info['requests_failed']} failed; tokens "
        f"{info['tokens_prompt']} prompt + {info['tokens_completion']} completion; "
        f"{info['unmeasured']} of {info['records']} cases unmeasured"
        + _cost_text(info.get("cost_usd"), "cost"),
        soft_wrap=True,
    )
    if agreements:
        shown = ", ".join(f"{m.group.get('set')} {m.group.get('half')} {m.value:.1%}"
                          for m in agreements if m.value is not None)
        console.print(f"extractor agreement with labelled replies: {shown}", soft_wrap=True)
    for line in info.get("warnings", []):
        console.print(f"warning: {line}", soft_wrap=True)
    console.print(f"report: {outcome.run_dir / 'report.html'}", soft_wrap=True)


def _cost_text(value: float | None, label: str) -> str:
    if value is None:
        return f"; {label} unknown (pass --price PROMPT,COMPLETION per million tokens)"
    return f"; {label} ${value:.4f}"
