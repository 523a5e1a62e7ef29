"""The CLI side of CI workflows: gate results and JUnit after a run or a comparison, and the
experiment-file matrix (progress per cell, the dry-run estimate of the whole matrix).

Exit statuses: 2 bad input, 3 too many unmeasured cases (or a run stopped by a limit), 4 a
gate failed. Each failed gate prints one line.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from rattle.errors import ConfigError
from rattle.run.config import RunConfig
from rattle.run.gates import Gate, GateResult

GATE_FAILED = 4
TOO_MANY_UNMEASURED = 3


def _say(line: str) -> None:
    typer.echo(f"rattle: {line}", err=True)


def report_gates(results: Sequence[GateResult]) -> bool:
    """One line per failed gate and a count; True when every gate passed."""
    failed = [r for r in results if not r.passed]
    for r in failed:
        _say(r.line())
    if results:
        typer.echo(f"gates: {len(results) - len(failed)} passed, {len(failed)} failed")
    return not failed


def _unmeasured(info: dict[str, Any], max_unmeasured: float) -> str | None:
    records = info.get("records") or 0
    if not records:
        return None
    share = info.get("unmeasured", 0) / records
    if share <= max_unmeasured:
        return None
    return f"{share:.0%} of cases are unmeasured (more than --max-unmeasured {max_unmeasured:.0%})"


def check_run(outcome: Any, gates: Sequence[Gate], *, junit: Path | None,
              max_unmeasured: float) -> int:
    """Gates, JUnit and the exit status of a finished single run."""
    from rattle.run.gates import gate_run

    info = outcome.run_info
    results = gate_run(outcome.run_dir, info, outcome.metrics, gates) if gates else []
    passed = report_gates(results)
    if junit is not None:
        write_run_junit(junit, [(str(info.get("suite", "")), info, outcome.run_dir, results)],
                        max_unmeasured=max_unmeasured)
        typer.echo(f"junit: {junit}")
    problem = _unmeasured(info, max_unmeasured)
    if problem:
        _say(f"error: {problem}; see the 'error' and 'status' fields in "
             f"{outcome.run_dir / 'results.jsonl'}")
        return TOO_MANY_UNMEASURED
    return 0 if passed else GATE_FAILED


def write_run_junit(path: Path, runs: Sequence[tuple[str, dict[str, Any], Path, Sequence[GateResult]]],
                    *, max_unmeasured: float) -> None:
    """A ``<testsuite>`` per run: a case per gate, a case per suite part."""
    from rattle.report.headline import headlines_of
    from rattle.report.junit import JUnitSuite, gate_cases, part_cases, write_junit
    from rattle.report.load import iter_records

    suites = []
    for name, info, run_dir, results in runs:
        seed = info.get("seed", 0)
        heads = headlines_of(iter_records(run_dir / "results.jsonl"), str(info.get("suite", "")),
                             seed=seed if isinstance(seed, int) else 0)
        cases = gate_cases(results) + part_cases(heads, results, suite=str(info.get("suite", "")),
                                                 max_unmeasured=max_unmeasured)
        suites.append(JUnitSuite(f"{name} · {info.get('model', '')}", cases,
                                time=float(info.get("wall_seconds", 0.0) or 0.0)))
    write_junit(path, suites)


def run_experiment_file(path: Path, base: RunConfig, cli_gates: Sequence[Gate], *,
                        out: Path | None, junit: Path | None, dry_run: bool,
                        max_unmeasured: float) -> int:
    """``rattle run experiment.yaml``: every cell, then the matrix report; the exit status."""
    from rattle.cli_progress import ProgressView, print_summary
    from rattle.run.experiment import declares, load_experiment
    from rattle.run.matrix import run_matrix
    from rattle.run.runner import RunOutcome, run_suite

    exp = load_experiment(path)
    for key in base.suite_options:  # --attacker, --corpus: for the suites that take them
        if not any(declares(s, key) for s in exp.suites):
            raise ConfigError(f"--{key} is not an option of any suite in {path} "
                              f"({', '.join(exp.suites)})")
    out_dir = out or Path("runs") / f"{path.stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    cells = exp.cells()
    typer.echo(f"experiment {path}: {len(exp.models)} model(s) × {len(exp.suites)} suite(s) × "
               f"{len(exp.datasets)} dataset(s) = {len(cells)} runs"
               + ("" if dry_run else f" into {out_dir}"))

    def run_cell(cell: Any, config: RunConfig) -> RunOutcome:
        prefix = f"[{cell.index + 1}/{len(cells)}] {cell.label()}"
        with ProgressView(enabled=not dry_run) as view:
            outcome = run_suite(config, dry_run=dry_run, progress=view.update,
                                on_total=view.set_total)
        if dry_run:
            typer.echo(prefix + ":")
            print_summary(outcome)
        else:
            info = outcome.run_info
            typer.echo(f"{prefix}: {info['records']} cases, {info['unmeasured']} unmeasured → "
                       f"{outcome.run_dir / 'report.html'}")
        return outcome

    result = run_matrix(exp, base, out_dir, gates=[*exp.gates, *cli_gates], run=run_cell,
                        dry_run=dry_run)
    if dry_run:
        _dry_total([c.outcome for c in result.cells])
        return 0
    typer.echo(f"matrix report: {result.page}")
    passed = report_gates(result.gates)
    if junit is not None:
        write_run_junit(junit, [(c.cell.label(), c.outcome.run_info, c.outcome.run_dir, c.gates)
                                for c in result.cells], max_unmeasured=max_unmeasured)
        typer.echo(f"junit: {junit}")
    bad = [(c.cell.label(), p) for c in result.cells
           if (p := _unmeasured(c.outcome.run_info, max_unmeasured))]
    for label, problem in bad:
        _say(f"error: {label}: {problem}")
    if bad:
        return TOO_MANY_UNMEASURED
    return 0 if passed else GATE_FAILED


def _dry_total(outcomes: Sequence[Any]) -> None:
    sent = sum(o.run_info["requests_sent"] for o in outcomes)
    tokens = sum(o.estimated_tokens for o in outcomes)
    costs = [o.run_info.get("estimated_cost_usd") for o in outcomes]
    cost = ("unknown (pass --price PROMPT,COMPLETION per million tokens)"
            if any(c is None for c in costs) else f"${sum(c or 0.0 for c in costs):.4f}")
    typer.echo(f"whole matrix: {len(outcomes)} runs, {sent} requests to send, about {tokens} "
               f"tokens, estimated cost {cost}")


def check_compare(gates: Sequence[Gate], runs: Sequence[Any], labels: Sequence[str],
                  diffs: Sequence[Any], *, junit: Path | None) -> int:
    """``rattle compare --fail-if``: delta gates on the paired differences against the first
    run, plain gates on every run's metrics; the exit status."""
    from rattle.run.gates import delta_rows, evaluate, metric_rows

    suite = str(runs[0].info.get("suite", ""))
    deltas = delta_rows(diffs, defaults={"suite": suite})
    plain = [row for run, label in zip(runs, labels, strict=True)
             for row in metric_rows(run.metric_values, context=label,
                                    defaults={"suite": run.info.get("suite", ""),
                                              "model": run.info.get("model", "")})]
    results = [evaluate(g, deltas if g.delta else plain) for g in gates]
    passed = report_gates(results)
    if junit is not None:
        from rattle.report.junit import JUnitSuite, gate_cases, write_junit

        write_junit(junit, [JUnitSuite(f"compare · baseline {labels[0]}",
                                      gate_cases(results, "rattle.compare"))])
        typer.echo(f"junit: {junit}")
    return 0 if passed else GATE_FAILED
