"""Pass/fail gates for CI: ``--fail-if "asr>0.3"`` on a run, ``delta(accuracy)<-0.05`` on a
comparison.

A gate names a metric, optional group filters, a comparison and a number::

    gate     := operand OP NUMBER
    operand  := BOUND "(" inner ")" | inner
    inner    := "delta(" ref ")" | ref
    ref      := METRIC [ "[" KEY ("="|"!=") VALUE ("," ...)* "]" ]
    BOUND    := value | ci_low | ci_high
    OP       := < | <= | > | >= | == | !=
    NUMBER   := a decimal number, optionally with "%" (``30%`` is 0.3)

The gate **fails when any matching metric row satisfies the comparison** (``asr>0.3`` fails
when some attack's ASR is above 0.3). ``ci_low(...)``/``ci_high(...)`` compare a bound of the
row's 95% interval instead of its value. ``delta(m)`` is the paired difference B − A against
a baseline run (``rattle compare``; accuracy, paired by case, bootstrap over items). A gate
that matches no row, or only unmeasured rows, fails too: a typo must not pass CI silently.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from rattle.errors import ConfigError

Bound = Literal["value", "ci_low", "ci_high"]
OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
    "<": operator.lt, ">": operator.gt,
}
GRAMMAR = ("a gate is METRIC[key=value,...] OP NUMBER, optionally wrapped in ci_low(...) or "
           "ci_high(...), with delta(METRIC) for rattle compare; OP is one of < <= > >= == !=; "
           "e.g. 'asr>0.3', 'accuracy[attack=original]<0.6', 'ci_low(accuracy)<0.5', "
           "'delta(accuracy)<-0.05'")
# Metrics that ``delta()`` can pair case by case (records carry one 0/1 outcome: ``correct``).
PAIRED_METRICS = ("accuracy",)

_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_OP = re.compile(r"\s*(<=|>=|==|!=|<|>)\s*")
_NUMBER = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*(%?)\s*$")


class GateError(ConfigError):
    """A gate expression that does not parse; names the expression and the grammar."""

    def __init__(self, expr: str, problem: str, position: int | None = None) -> None:
        where = f" at character {position + 1}" if position is not None else ""
        super().__init__(f"--fail-if {expr!r}: {problem}{where}; {GRAMMAR}")
        self.expr = expr


@dataclass(frozen=True)
class Filter:
    """``key=value`` (or ``key!=value``) on a metric row's group."""

    key: str
    value: str
    negate: bool = False

    def matches(self, group: Mapping[str, Any]) -> bool:
        present = self.key in group and str(group[self.key]) == self.value
        return not present if self.negate else present

    def __str__(self) -> str:
        return f"{self.key}{'!=' if self.negate else '='}{self.value}"


@dataclass(frozen=True)
class Gate:
    """A parsed gate: which rows, which quantity of them, and the failing comparison."""

    text: str
    metric: str
    filters: tuple[Filter, ...]
    bound: Bound
    delta: bool
    op: str
    threshold: float

    def selects(self, name: str, group: Mapping[str, Any]) -> bool:
        return name == self.metric and all(f.matches(group) for f in self.filters)

    def trips(self, value: float) -> bool:
        """Whether ``value`` satisfies the comparison (the gate fails on this row)."""
        return OPS[self.op](value, self.threshold)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, problem: str) -> GateError:
        return GateError(self.text, problem, self.pos)

    def name(self, what: str) -> str:
        m = _NAME.match(self.text, self.pos)
        if not m:
            raise self.fail(f"expected {what}")
        self.pos = m.end()
        return m.group(1)

    def take(self, char: str) -> bool:
        rest = self.text[self.pos:]
        stripped = rest.lstrip()
        if stripped.startswith(char):
            self.pos += len(rest) - len(stripped) + len(char)
            return True
        return False

    def value(self) -> str:
        rest = self.text[self.pos:]
        stripped = rest.lstrip()
        self.pos += len(rest) - len(stripped)
        if stripped[:1] in ("'", '"'):
            end = stripped.find(stripped[0], 1)
            if end < 0:
                raise self.fail("unterminated quoted value")
            self.pos += end + 1
            return stripped[1:end]
        m = re.match(r"[^,\]]*", stripped)
        raw = m.group(0) if m else ""
        if not raw.strip():
            raise self.fail("expected a value after '='")
        self.pos += len(raw)
        return raw.strip()

    def filters(self) -> tuple[Filter, ...]:
        if not self.take("["):
            return ()
        out = []
        while True:
            key = self.name("a group key such as attack")
            if self.take("!="):
                negate = True
            elif self.take("="):
                negate = False
            else:
                raise self.fail(f"expected '=' or '!=' after {key!r}")
            out.append(Filter(key, self.value(), negate))
            if self.take("]"):
                return tuple(out)
            if not self.take(","):
                raise self.fail("expected ',' or ']' in the group filter")


def parse_gate(text: str, *, allow_delta: bool = False) -> Gate:
    """Parse one gate expression; ``allow_delta`` for ``rattle compare``."""
    p = _Parser(text)
    if not text.strip():
        raise GateError(text, "empty gate")
    bound: Bound = "value"
    delta = False
    depth = 0
    word = p.name("a metric name")
    if word in ("value", "ci_low", "ci_high") and p.take("("):
        bound = word  # type: ignore[assignment]
        depth += 1
        word = p.name("a metric name")
    if word == "delta" and p.take("("):
        if not allow_delta:
            raise GateError(text, "delta() compares with a baseline run: use it with "
                            "`rattle compare BASELINE RUN --fail-if ...`")
        delta = True
        depth += 1
        word = p.name("a metric name")
    if word in ("value", "ci_low", "ci_high", "delta") and p.take("("):
        raise p.fail(f"{word}(...) cannot be used here")
    metric = word
    filters = p.filters()
    for _ in range(depth):
        if not p.take(")"):
            raise p.fail("expected ')'")
    m = _OP.match(text, p.pos)
    if not m:
        raise p.fail("expected a comparison (< <= > >= == !=)")
    op = m.group(1)
    p.pos = m.end()
    n = _NUMBER.match(text, p.pos)
    if not n:
        raise p.fail("expected a number (e.g. 0.3 or 30%) to end the gate")
    threshold = float(n.group(1)) / (100 if n.group(2) else 1)
    if delta and metric not in PAIRED_METRICS:
        raise GateError(text, f"delta() pairs {', '.join(PAIRED_METRICS)} case by case; "
                        f"{metric!r} cannot be paired")
    return Gate(text.strip(), metric, filters, bound, delta, op, threshold)


def parse_gates(texts: Iterable[str], *, allow_delta: bool = False) -> list[Gate]:
    return [parse_gate(t, allow_delta=allow_delta) for t in texts]


@dataclass(frozen=True)
class Row:
    """A metric row a gate can read: a name, its group, the value and CI bounds."""

    name: str
    group: Mapping[str, Any]
    value: float | None
    ci_low: float | None
    ci_high: float | None
    context: str = ""  # which run or cell the row belongs to (experiments, compare)
    implicit: Mapping[str, Any] = field(default_factory=dict)  # filterable, not shown

    def labels(self) -> dict[str, Any]:
        """What filters see: the implicit keys (suite, model) under the row's own group."""
        return {**self.implicit, **self.group}


@dataclass
class GateResult:
    """The outcome of one gate: passed or failed, the rows it read and those that tripped it."""

    gate: Gate
    matched: int = 0
    measured: int = 0
    failing: list[tuple[Row, float]] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def applicable(self) -> bool:
        return self.matched > 0

    @property
    def passed(self) -> bool:
        return self.measured > 0 and not self.failing

    def reason(self) -> str:
        g = self.gate
        if not self.matched:
            return "no metric row matches it"
        if not self.measured:
            return f"every matching row ({self.matched}) is unmeasured"
        if not self.failing:
            return f"{self.measured} row(s) checked, none {g.op} {g.threshold:g}"
        row, value = self.failing[0]
        where = describe(row)
        more = f" (and {len(self.failing) - 1} more row(s))" if len(self.failing) > 1 else ""
        quantity = _quantity_name(g)
        return f"{quantity} = {value:.4g} {g.op} {g.threshold:g}{where}{more}"

    def line(self) -> str:
        return f"gate {'passed' if self.passed else 'failed'}: {self.gate.text}: {self.reason()}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "gate": self.gate.text,
            "passed": self.passed,
            "matched": self.matched,
            "measured": self.measured,
            "reason": self.reason(),
            "failing": [{"group": dict(r.group), "value": v, **({"run": r.context} if r.context else {})}
                        for r, v in self.failing],
            "parts": self.parts,
        }


def _quantity_name(g: Gate) -> str:
    inner = f"delta({g.metric})" if g.delta else g.metric
    return inner if g.bound == "value" else f"{g.bound}({inner})"


def describe(row: Row) -> str:
    labels = [f"{k}={v}" for k, v in row.group.items() if v not in ("", None)]
    if row.context:
        labels.insert(0, row.context)
    return f" [{', '.join(labels)}]" if labels else ""


def evaluate(gate: Gate, rows: Iterable[Row], *, part_key: str = "suite") -> GateResult:
    """Check ``gate`` against ``rows``; the result lists the rows that tripped it."""
    result = GateResult(gate)
    parts: set[str] = set()
    for row in rows:
        labels = row.labels()
        if not gate.selects(row.name, labels):
            continue
        result.matched += 1
        if labels.get(part_key) not in ("", None):
            parts.add(str(labels[part_key]))
        value = getattr(row, gate.bound)
        if value is None:
            continue
        result.measured += 1
        if gate.trips(value):
            result.failing.append((row, value))
    result.parts = sorted(parts)
    return result


def metric_rows(metrics: Iterable[Any], *, defaults: Mapping[str, Any] | None = None,
                context: str = "") -> list[Row]:
    """Gate rows from metric values (``MetricValue`` or their dicts); ``defaults`` fill group
    keys a row lacks (the suite of a single-suite run, the model), so filters can name them."""
    out = []
    for m in metrics:
        d = m if isinstance(m, Mapping) else m.as_dict()
        out.append(Row(d["name"], dict(d.get("group", {})), d.get("value"), d.get("ci_low"),
                       d.get("ci_high"), context, dict(defaults or {})))
    return out


def check(gates: Sequence[Gate], rows: Sequence[Row]) -> list[GateResult]:
    return [evaluate(g, rows) for g in gates]


def combine(per_run: Sequence[Sequence[GateResult]]) -> list[GateResult]:
    """One result per gate over several runs (an experiment's cells): rows of every run count,
    a run where the gate matches nothing is not applicable there."""
    if not per_run:
        return []
    out = []
    for i, first in enumerate(per_run[0]):
        merged = GateResult(first.gate)
        parts: set[str] = set()
        for results in per_run:
            r = results[i]
            merged.matched += r.matched
            merged.measured += r.measured
            merged.failing.extend(r.failing)
            parts.update(r.parts)
        merged.parts = sorted(parts)
        out.append(merged)
    return out


def delta_rows(diffs: Iterable[Any], *, defaults: Mapping[str, Any] | None = None) -> list[Row]:
    """Gate rows of paired differences B − A (``report.compare.PairedDiff``): metric
    ``accuracy``, its group (``suite`` names the suite part), value and CI of the difference."""
    out = []
    for d in diffs:
        group = {k: v for k, v in d.group.items() if v not in ("", None)}
        implicit = {**(defaults or {}), "suite": group.get("part") or group.get("suite")
                    or (defaults or {}).get("suite", "")}
        out.append(Row("accuracy", group, d.diff, d.ci_low, d.ci_high, f"{d.b} vs {d.a}",
                       implicit))
    return out


def record(run_dir: Path, results: Sequence[GateResult]) -> None:
    """Add the gate results to the run folder's ``metrics.json`` (``"gates"``)."""
    from rattle.files import atomic_write_text

    path = run_dir / "metrics.json"
    payload = json.loads(path.read_text(encoding="utf-8"))
    payload["gates"] = [r.as_dict() for r in results]
    atomic_write_text(path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def gate_run(run_dir: Path, info: Mapping[str, Any], metrics: Sequence[Any],
             gates: Sequence[Gate], *, context: str = "",
             only_applicable: bool = False) -> list[GateResult]:
    """Check ``gates`` on a finished run, record them in ``metrics.json`` and re-render its
    report so the headline cards show them. ``only_applicable``: record only gates that
    matched a row of this run (an experiment's cells)."""
    from rattle.report.render import render_report

    rows = metric_rows(metrics, defaults={"suite": info.get("suite", ""),
                                          "model": info.get("model", "")}, context=context)
    results = check([g for g in gates if not g.delta], rows)
    shown = [r for r in results if r.applicable] if only_applicable else results
    record(run_dir, shown)
    render_report(run_dir, info, metrics, [r.as_dict() for r in shown])
    return results
