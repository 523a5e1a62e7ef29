"""Metric values with cluster-bootstrap confidence intervals.

Cases of one item are not independent (the same passage under many attacks, several
sub-questions), so intervals resample items, not cases: a percentile bootstrap over item
clusters, 1000 resamples, 95% by default, seeded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rattle.registry import register

N_BOOTSTRAP = 1000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class MetricValue:
    """One metric value with its 95% CI, the n it is computed on, how many cases were
    unmeasured, and the group it describes (dataset, attack, level, ...)."""

    name: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    n_unmeasured: int = 0
    group: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "value": self.value,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "n": self.n,
            "n_unmeasured": self.n_unmeasured,
            "group": dict(self.group),
        }


def bootstrap_ci(
    hits: Sequence[float],
    totals: Sequence[float],
    *,
    seed: int = 0,
    n_boot: int = N_BOOTSTRAP,
    confidence: float = CONFIDENCE,
) -> tuple[float | None, float | None]:
    """Percentile CI of sum(hits)/sum(totals) resampling clusters (one entry per cluster)."""
    import numpy as np

    k = np.asarray(hits, dtype=np.float64)
    n = np.asarray(totals, dtype=np.float64)
    m = len(k)
    if m == 0 or n.sum() == 0:
        return None, None
    if m == 1:
        v = float(k[0] / n[0]) if n[0] else None
        return v, v
    rng = np.random.default_rng(seed)
    values = np.empty(n_boot)
    chunk = max(1, min(n_boot, 2_000_000 // m))
    done = 0
    while done < n_boot:
        b = min(chunk, n_boot - done)
        idx = rng.integers(0, m, size=(b, m))
        num = k[idx].sum(axis=1)
        den = n[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            values[done : done + b] = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
        done += b
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return None, None
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(values, [alpha, 1 - alpha])
    return float(lo), float(hi)


def rate(
    name: str,
    outcomes: Iterable[tuple[Hashable, bool | None]],
    *,
    group: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> MetricValue:
    """Share of True among measured outcomes; ``(cluster, outcome)`` pairs, None = unmeasured."""
    counts = RateCounts()
    for cluster, outcome in outcomes:
        counts.add(cluster, outcome)
    return counts.metric(name, group=group, seed=seed)


class RateCounts:
    """Per-cluster hits and totals of a rate, filled one outcome at a time (streaming)."""

    __slots__ = ("hits", "totals", "unmeasured")

    def __init__(self) -> None:
        self.hits: dict[Hashable, int] = {}
        self.totals: dict[Hashable, int] = {}
        self.unmeasured = 0

    def add(self, cluster: Hashable, outcome: bool | None) -> None:
        if outcome is None:
            self.unmeasured += 1
            return
        self.totals[cluster] = self.totals.get(cluster, 0) + 1
        self.hits[cluster] = self.hits.get(cluster, 0) + int(outcome)

    def metric(self, name: str, *, group: Mapping[str, Any] | None = None,
               seed: int = 0) -> MetricValue:
        n = sum(self.totals.values())
        if n == 0:
            return MetricValue(name, None, None, None, 0, self.unmeasured, dict(group or {}))
        keys = list(self.totals)
        value = sum(self.hits.values()) / n
        lo, hi = bootstrap_ci([self.hits[c] for c in keys], [self.totals[c] for c in keys],
                              seed=seed)
        return MetricValue(name, value, lo, hi, n, self.unmeasured, dict(group or {}))


def mean(
    name: str,
    outcomes: Iterable[tuple[Hashable, float | None]],
    *,
    group: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> MetricValue:
    """Mean of measured values (e.g. token F1), CI resampling clusters; None = unmeasured."""
    sums: dict[Hashable, float] = defaultdict(float)
    counts: dict[Hashable, int] = defaultdict(int)
    unmeasured = 0
    for cluster, value in outcomes:
        if value is None:
            unmeasured += 1
            continue
        sums[cluster] += float(value)
        counts[cluster] += 1
    n = sum(counts.values())
    if n == 0:
        return MetricValue(name, None, None, None, 0, unmeasured, dict(group or {}))
    keys = list(counts)
    lo, hi = bootstrap_ci([sums[k] for k in keys], [counts[k] for k in keys], seed=seed)
    return MetricValue(name, sum(sums.values()) / n, lo, hi, n, unmeasured, dict(group or {}))


def complement(name: str, metric: MetricValue) -> MetricValue:
    """1 - metric (e.g. error rate from accuracy), CI bounds swapped."""
    if metric.value is None:
        return MetricValue(name, None, None, None, metric.n, metric.n_unmeasured, metric.group)
    lo = None if metric.ci_high is None else 1 - metric.ci_high
    hi = None if metric.ci_low is None else 1 - metric.ci_low
    return MetricValue(name, 1 - metric.value, lo, hi, metric.n, metric.n_unmeasured, metric.group)


@register("metric", "accuracy")
def accuracy(outcomes: Iterable[tuple[Hashable, bool | None]], **kw: Any) -> MetricValue:
    """Share of measured cases judged correct."""
    return rate("accuracy", outcomes, **kw)


def label_mean(name: str, records: Sequence[Mapping[str, Any]], group: Mapping[str, Any],
               seed: int = 0) -> MetricValue:
    """Mean of a judge label (``em``, ``f1``) over measured records, clustered by item."""
    from rattle.records import cluster

    return mean(name, [(cluster(r), None if r["correct"] is None else float(r["labels"][name]))
                       for r in records], group=group, seed=seed)
