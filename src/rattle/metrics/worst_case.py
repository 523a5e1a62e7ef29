"""Worst-case figures over an item's variants, beside the averages.

A *unit* is one question asked in its original form and under several variants (attacks,
wordings, option orders, added documents). HELM reports robustness as the worst case over
perturbations including the original (Liang et al. 2022, arXiv:2211.09110, §4.2 and
``metrics/metric.py``); users of search tools ask for "did anything work" figures too:

- ``worst_case_accuracy``: share of units whose original *and* every variant are correct;
- ``any_flip_rate``: share of units where at least one variant's answer differs from the
  original's.

"Could not judge" stays a value (STYLE.md 7): a unit with an unmeasured case is unmeasured
unless a measured case already decides it (one wrong answer makes the worst case wrong, one
changed answer is a flip). Units with no variant are not counted. CIs resample items
(clusters), as every rattle rate.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rattle.metrics.core import MetricValue, RateCounts
from rattle.registry import register


def worst_case_outcome(original: bool | None, variants: Sequence[bool | None]) -> bool | None:
    """Is the unit right in every case? None when unmeasured cases leave it undecided."""
    cases = [original, *variants]
    if any(c is False for c in cases):
        return False
    return None if any(c is None for c in cases) else True


def flip_outcome(original: Any, variants: Sequence[Any]) -> bool | None:
    """Did some variant's answer change? None when the original (or, with no measured
    change, some variant) is unmeasured, or there is no variant."""
    if original is None or not variants:
        return None
    if any(v is not None and v != original for v in variants):
        return True
    return None if any(v is None for v in variants) else False


Unit = tuple[Hashable, Any, Sequence[Any]]  # (cluster, original, variants)


@register("metric", "worst_case_accuracy")
def worst_case_accuracy(units: Iterable[Unit], *, group: Mapping[str, Any] | None = None,
                        seed: int = 0) -> MetricValue:
    """Share of units whose original and every variant are correct (HELM's worst case);
    ``units`` are ``(cluster, original correct, [variant correct, ...])``."""
    counts = RateCounts()
    for cluster, original, variants in units:
        counts.add(cluster, worst_case_outcome(original, variants))
    return counts.metric("worst_case_accuracy", group=group, seed=seed)


@register("metric", "any_flip_rate")
def any_flip_rate(units: Iterable[Unit], *, group: Mapping[str, Any] | None = None,
                  seed: int = 0) -> MetricValue:
    """Share of units with at least one variant whose answer differs from the original's;
    ``units`` are ``(cluster, original answer, [variant answer, ...])``."""
    counts = RateCounts()
    for cluster, original, variants in units:
        counts.add(cluster, flip_outcome(original, variants))
    return counts.metric("any_flip_rate", group=group, seed=seed)


_MISSING = object()


@dataclass
class _Unit:
    cluster: Hashable
    correct: Any = _MISSING
    answer: Any = None
    variants: int = 0
    any_wrong: bool = False
    any_unmeasured: bool = False
    any_flip: bool = False
    any_unread: bool = False

    def outcomes(self) -> tuple[bool | None, bool | None]:
        original = None if self.correct is _MISSING else self.correct
        if original is False or self.any_wrong:
            worst: bool | None = False
        else:
            worst = None if original is None or self.any_unmeasured else True
        if self.answer is None:
            flip: bool | None = None
        else:
            flip = True if self.any_flip else (None if self.any_unread else False)
        return worst, flip


class WorstCase:
    """Both figures accumulated case by case (flat memory: ``close`` folds finished units
    into per-item counts). An original must arrive before its unit's variants."""

    def __init__(self) -> None:
        self._units: dict[Hashable, _Unit] = {}
        self.worst = RateCounts()
        self.flip = RateCounts()

    def original(self, cluster: Hashable, unit: Hashable, correct: bool | None, answer: Any) -> None:
        u = self._units.setdefault(unit, _Unit(cluster))
        u.correct, u.answer = correct, answer

    def variant(self, cluster: Hashable, unit: Hashable, correct: bool | None, answer: Any) -> None:
        u = self._units.setdefault(unit, _Unit(cluster))
        u.variants += 1
        u.any_wrong |= correct is False
        u.any_unmeasured |= correct is None
        if u.answer is not None:
            u.any_flip |= answer is not None and answer != u.answer
            u.any_unread |= answer is None

    def has(self, unit: Hashable) -> bool:
        return unit in self._units

    def close(self) -> None:
        """Fold every unit seen so far (in arrival order) into the counts."""
        for u in self._units.values():
            if u.variants:
                worst, flip = u.outcomes()
                self.worst.add(u.cluster, worst)
                self.flip.add(u.cluster, flip)
        self._units = {}

    def metrics(self, group: Mapping[str, Any], seed: int = 0) -> list[MetricValue]:
        self.close()
        return [self.worst.metric("worst_case_accuracy", group=group, seed=seed),
                self.flip.metric("any_flip_rate", group=group, seed=seed)]


Case = tuple[Hashable, Hashable, bool | None, Any]  # (cluster, unit, correct, answer)


def worst_case_metrics(originals: Iterable[Case], variants: Iterable[Case], *,
                       group: Mapping[str, Any], seed: int = 0) -> list[MetricValue]:
    """``worst_case_accuracy`` and ``any_flip_rate`` of units made of ``originals`` and
    ``variants`` (``(cluster, unit, correct, answer)`` each); units appear in the order of
    their first variant. A variant whose unit has no original is unmeasured."""
    first = {unit: (cluster, correct, answer) for cluster, unit, correct, answer in originals}
    acc = WorstCase()
    for cluster, unit, correct, answer in variants:
        if not acc.has(unit) and unit in first:
            c, ok, said = first[unit]
            acc.original(c, unit, ok, said)
        acc.variant(cluster, unit, correct, answer)
    return acc.metrics(group, seed)
