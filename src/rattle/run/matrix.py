"""Run an experiment's matrix: one run folder per cell, gates per cell, then the matrix report.

Cells run one after another through the same runner as ``rattle run`` (so every answer goes
through the store: a rerun of the same file resumes, and a cell already answered costs
nothing). Gates are checked on every cell where they match a metric row; ``delta()`` gates
compare each model with the first one listed (the baseline), paired case by case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rattle.run.config import RunConfig
from rattle.run.experiment import Cell, Experiment
from rattle.run.gates import Gate, GateResult, combine, delta_rows, evaluate, gate_run
from rattle.run.runner import RunOutcome


@dataclass
class CellResult:
    """A finished (or dry-run) cell and its gate results."""

    cell: Cell
    outcome: RunOutcome
    gates: list[GateResult] = field(default_factory=list)


@dataclass
class MatrixOutcome:
    """What an experiment produced: its cells, the gates over the matrix, the report page."""

    experiment: Experiment
    out_dir: Path
    cells: list[CellResult]
    gates: list[GateResult]
    dry_run: bool
    page: Path | None = None

    @property
    def failed_gates(self) -> list[GateResult]:
        return [g for g in self.gates if not g.passed]


def run_matrix(exp: Experiment, base: RunConfig, out_dir: Path, *, gates: Sequence[Gate],
               run: Callable[[Cell, RunConfig], RunOutcome],
               dry_run: bool = False) -> MatrixOutcome:
    """Run every cell of ``exp`` with ``run`` (the CLI's, which shows progress), check
    ``gates`` and write the matrix report into ``out_dir``."""
    from rattle.report.matrix import MatrixCell, build_matrix, write_matrix

    plain = [g for g in gates if not g.delta]
    done = []
    for cell in exp.cells():
        config = exp.config(cell, base, out_dir)
        outcome = run(cell, config)
        result = CellResult(cell, outcome)
        if not dry_run:
            result.gates = gate_run(outcome.run_dir, outcome.run_info, outcome.metrics, plain,
                                    context=cell.label(), only_applicable=True)
        done.append(result)
    if dry_run:
        return MatrixOutcome(exp, out_dir, done, [], True)
    matrix = build_matrix([MatrixCell(r.cell.model, r.cell.suite, r.cell.dataset,
                                      r.outcome.run_dir) for r in done], seed=exp.seed)
    merged = dict(zip(plain, combine([r.gates for r in done]), strict=True))
    baseline = exp.models[0]
    rows = delta_rows([d for d in matrix.comparisons if d.a == baseline])
    results = [merged[g] if not g.delta else evaluate(g, rows) for g in gates]
    page = write_matrix(out_dir, matrix, [r.as_dict() for r in results])
    return MatrixOutcome(exp, out_dir, done, results, False, page)
