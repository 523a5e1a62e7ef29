"""RCC metrics: error rate (Eq. 9), answer-change rate (Eq. 10), consistency, RTI (Alg. 1)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from rattle.metrics.core import MetricValue, complement, rate
from rattle.registry import register

# Algorithm 1: rho from 0.1 to 1.0 by 0.1; a never-changing answer scores 1.0.
RTI_RATES: tuple[float, ...] = tuple(round(0.1 * i, 1) for i in range(1, 11))


@register("metric", "er")
def error_rate(outcomes: Iterable[tuple[Hashable, bool | None]], **kw: Any) -> MetricValue:
    """Error rate, RCC Eq. 9: share of measured answers that are wrong."""
    return complement("er", rate("accuracy", outcomes, **kw))


@register("metric", "acr")
def answer_change_rate(
    pairs: Iterable[tuple[Hashable, str | None, str | None]], **kw: Any
) -> MetricValue:
    """Answer-change rate, RCC Eq. 10: share of answers that differ from the unperturbed one.

    ``pairs`` are ``(cluster, original answer, perturbed answer)``; a pair with either side
    unmeasured (None) is unmeasured. Not conditioned on the original being correct (as RCC).
    """

    def outcomes() -> Iterable[tuple[Hashable, bool | None]]:
        for cluster, before, after in pairs:
            yield cluster, (None if before is None or after is None else before != after)

    return rate("acr", outcomes(), **kw)


@register("metric", "consistency_std")
def consistency_std(
    accuracies: Mapping[str, float | None], group: Mapping[str, Any] | None = None
) -> MetricValue:
    """Std (population) of accuracy across prompt wordings or option orders (RCC §4.2)."""
    values = [v for v in accuracies.values() if v is not None]
    if len(values) < 2:
        return MetricValue("consistency_std", None, None, None, len(values), 0, dict(group or {}))
    return MetricValue(
        "consistency_std", statistics.pstdev(values), None, None, len(values), 0, dict(group or {})
    )


@register("metric", "first_option_rate")
def first_option_rate(
    positions: Iterable[tuple[Hashable, int | None]], **kw: Any
) -> MetricValue:
    """Share of parsed answers that chose the first displayed option (RCC §4.2)."""
    return rate("first_option_rate", ((c, None if p is None else p == 0) for c, p in positions), **kw)


def rti_value(original: str | None, by_rate: Mapping[float, str | None]) -> float | None:
    """RCC Algorithm 1 for one (item, question, operation).

    The first rate (ascending) whose answer differs from the model's own original answer; 1.0
    when it never changes. None when the original answer is unmeasured. An unmeasured
    perturbed answer is skipped (neither a change nor evidence of stability).
    """
    if original is None:
        return None
    for r in RTI_RATES:
        answer = by_rate.get(r)
        if answer is None:
            continue
        if answer != original:
            return r
    return 1.0


@register("metric", "rti")
def rti(values: Sequence[tuple[Hashable, float | None]], group: Mapping[str, Any] | None = None,
        seed: int = 0) -> MetricValue:
    """Relative training index, RCC Algorithm 1: mean first-change rate (higher = memorised)."""
    from rattle.metrics.core import bootstrap_ci

    sums: dict[Hashable, float] = defaultdict(float)
    counts: dict[Hashable, int] = defaultdict(int)
    unmeasured = 0
    for cluster, v in values:
        if v is None:
            unmeasured += 1
            continue
        sums[cluster] += v
        counts[cluster] += 1
    n = sum(counts.values())
    if n == 0:
        return MetricValue("rti", None, None, None, 0, unmeasured, dict(group or {}))
    keys = list(counts)
    value = sum(sums.values()) / n
    lo, hi = bootstrap_ci([sums[k] for k in keys], [counts[k] for k in keys], seed=seed)
    return MetricValue("rti", value, lo, hi, n, unmeasured, dict(group or {}))
