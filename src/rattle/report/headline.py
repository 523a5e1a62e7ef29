"""The answer first: one headline per suite part, from the judged records.

For each part: the baseline (accuracy on the unperturbed cases), every attack's accuracy,
the worst attack, and the largest drop from the baseline with a paired cluster-bootstrap CI
(items that have both baseline and attacked cases; the items resample together, as for every
other interval in rattle). Parts without attacks (``qa.context``) list accuracy by condition.
Records stream through :class:`HeadlineBuilder`, which keeps counts per (part, variant, item),
never the records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rattle.metrics.core import CONFIDENCE, N_BOOTSTRAP, bootstrap_ci
from rattle.records import cluster_key

ORIGINAL = "original"


@dataclass(frozen=True)
class RateStat:
    """Accuracy of one variant (an attack at a level, or a condition) with its 95% CI."""

    label: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    items: int


@dataclass(frozen=True)
class Drop:
    """Baseline accuracy minus a variant's, on the items that have both (paired)."""

    label: str
    value: float
    ci_low: float | None
    ci_high: float | None
    items: int


@dataclass
class Headline:
    """What a suite part's card says: baseline, worst attack, largest drop, counts."""

    part: str
    records: int = 0
    unmeasured: int = 0
    baseline: RateStat | None = None
    variants: list[RateStat] = field(default_factory=list)
    worst: RateStat | None = None
    drop: Drop | None = None
    by_condition: list[RateStat] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        def stat(s: RateStat | Drop | None) -> dict[str, Any] | None:
            return None if s is None else dict(s.__dict__)

        return {"part": self.part, "records": self.records, "unmeasured": self.unmeasured,
                "baseline": stat(self.baseline), "worst": stat(self.worst),
                "drop": stat(self.drop), "variants": [stat(v) for v in self.variants],
                "by_condition": [stat(v) for v in self.by_condition]}


def variant_label(record: Mapping[str, Any]) -> str:
    """``chars.delete``, ``visual.homoglyph 50%``: the attack and its level, if any."""
    attack = str(record.get("attack", ORIGINAL))
    level = (record.get("group") or {}).get("level", "")
    return f"{attack} {level}" if level not in ("", None) and attack != ORIGINAL else attack


class HeadlineBuilder:
    """Counts hits per (part, variant, item) while records stream past."""

    def __init__(self, default_part: str) -> None:
        self.default_part = default_part
        self._order: list[str] = []
        self._records: dict[str, int] = {}
        self._unmeasured: dict[str, int] = {}
        # part -> variant label -> cluster -> [hits, n]
        self._attacks: dict[str, dict[str, dict[str, list[int]]]] = {}
        self._conditions: dict[str, dict[str, dict[str, list[int]]]] = {}

    def add(self, r: Mapping[str, Any]) -> None:
        part = str(r.get("part") or self.default_part)
        if part not in self._records:
            self._order.append(part)
            self._records[part] = 0
            self._unmeasured[part] = 0
        self._records[part] += 1
        correct = r.get("correct")
        if correct is None:
            self._unmeasured[part] += 1
            return
        key = cluster_key(str(r.get("dataset", "")), str(r.get("item_id", "")))
        cell = self._attacks.setdefault(part, {}).setdefault(variant_label(r), {})
        counts = cell.setdefault(key, [0, 0])
        counts[0] += int(bool(correct))
        counts[1] += 1
        condition = (r.get("group") or {}).get("condition")
        if condition not in ("", None):
            cond = self._conditions.setdefault(part, {}).setdefault(str(condition), {})
            c = cond.setdefault(key, [0, 0])
            c[0] += int(bool(correct))
            c[1] += 1

    def headlines(self, *, seed: int = 0) -> list[Headline]:
        return [self._headline(p, seed) for p in self._order]

    def _headline(self, part: str, seed: int) -> Headline:
        # Intervals are bootstrapped only for what a card shows (baseline, worst attack,
        # largest drop): a bootstrap per variant would dominate rendering on large runs.
        h = Headline(part, self._records[part], self._unmeasured[part])
        variants = self._attacks.get(part, {})
        base = variants.get(ORIGINAL)
        if base is not None:
            h.baseline = _stat(ORIGINAL, base, seed)
        attacked = {label: cells for label, cells in sorted(variants.items()) if label != ORIGINAL}
        h.variants = [_stat(label, cells, seed, ci=False) for label, cells in attacked.items()]
        measured = [s for s in h.variants if s.value is not None]
        if measured:
            worst = min(measured, key=lambda s: s.value if s.value is not None else 1.0)
            h.worst = _stat(worst.label, attacked[worst.label], seed)
        if base is not None:
            drops = [d for label, cells in attacked.items()
                     if (d := paired_drop(label, base, cells, n_boot=0)) is not None]
            if drops:
                largest = max(drops, key=lambda d: d.value)
                h.drop = paired_drop(largest.label, base, attacked[largest.label], seed=seed)
        if not attacked:
            conditions = self._conditions.get(part, {})
            h.by_condition = [_stat(c, cells, seed) for c, cells in conditions.items()]
        return h


def headlines_of(records: Iterable[Mapping[str, Any]], default_part: str, *,
                 seed: int = 0) -> list[Headline]:
    builder = HeadlineBuilder(default_part)
    for r in records:
        builder.add(r)
    return builder.headlines(seed=seed)


def _stat(label: str, cells: Mapping[str, Sequence[int]], seed: int, *,
          ci: bool = True) -> RateStat:
    hits = [c[0] for c in cells.values()]
    totals = [c[1] for c in cells.values()]
    n = sum(totals)
    lo, hi = bootstrap_ci(hits, totals, seed=seed) if ci else (None, None)
    return RateStat(label, sum(hits) / n if n else None, lo, hi, n, len(cells))


def paired_drop(label: str, base: Mapping[str, Sequence[int]],
                variant: Mapping[str, Sequence[int]], *, seed: int = 0,
                n_boot: int = N_BOOTSTRAP, confidence: float = CONFIDENCE) -> Drop | None:
    """Baseline accuracy − variant accuracy over items that have both, with a percentile
    bootstrap CI that resamples those items (each resample keeps an item's baseline and
    attacked cases together, so the interval is paired). ``n_boot=0``: the value alone."""
    import numpy as np

    shared = [k for k in variant if k in base]
    if not shared:
        return None
    h0 = np.array([base[k][0] for k in shared], dtype=np.float64)
    n0 = np.array([base[k][1] for k in shared], dtype=np.float64)
    h1 = np.array([variant[k][0] for k in shared], dtype=np.float64)
    n1 = np.array([variant[k][1] for k in shared], dtype=np.float64)
    value = float(h0.sum() / n0.sum() - h1.sum() / n1.sum())
    m = len(shared)
    if not n_boot:
        return Drop(label, value, None, None, m)
    if m == 1:
        return Drop(label, value, value, value, 1)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, m, size=(n_boot, m))
    diffs = h0[idx].sum(axis=1) / n0[idx].sum(axis=1) - h1[idx].sum(axis=1) / n1[idx].sum(axis=1)
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(diffs, [alpha, 1 - alpha])
    return Drop(label, value, float(lo), float(hi), m)
