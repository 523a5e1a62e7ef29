"""Search-attack metrics (TextAttack's attack summary, promptbench's PDR) and each search
suite's metric table.

TextAttack reports, over the examples it attacks (the model got right; the rest are skipped):
attack success rate, average queries, average perturbed word %, and accuracy under attack
(Morris et al. 2020, arXiv:2005.05909). rattle adds medians, similarities and CIs that
resample items (clusters), and the worst-case figures of ``metrics.worst_case``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from rattle.metrics.core import (CONFIDENCE, N_BOOTSTRAP, MetricValue, bootstrap_ci, mean,
                                 rate)
from rattle.metrics.worst_case import worst_case_metrics
from rattle.records import Record, cluster
from rattle.registry import register

Outcomes = Iterable[tuple[Hashable, str]]


@register("metric", "attack_success_rate")
def attack_success_rate(outcomes: Outcomes, *, group: Mapping[str, Any] | None = None,
                        seed: int = 0) -> MetricValue:
    """Share of attacked searches that met their goal: success / (success + failed); skipped
    searches (nothing to attack) are left out, as TextAttack does."""
    return rate("attack_success_rate", [(c, o == "success") for c, o in outcomes
                                        if o in ("success", "failed")], group=group, seed=seed)


@register("metric", "queries_mean")
def queries_mean(values: Iterable[tuple[Hashable, float | None]], *,
                 group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Mean queries per search (the original's included), CI resampling items."""
    return mean("queries_mean", values, group=group, seed=seed)


def bootstrap_median(values: Sequence[tuple[Hashable, float]], *, seed: int = 0,
                     n_boot: int = N_BOOTSTRAP, confidence: float = CONFIDENCE
                     ) -> tuple[float | None, float | None]:
    """Percentile CI of the median, resampling clusters (all values of a drawn cluster)."""
    import numpy as np

    by: dict[Hashable, list[float]] = defaultdict(list)
    for c, v in values:
        by[c].append(float(v))
    groups = [np.asarray(v) for v in by.values()]
    if len(groups) < 2:
        return (None, None) if not groups else (float(np.median(groups[0])),) * 2
    rng = np.random.default_rng(seed)
    stats = np.empty(n_boot)
    for b in range(n_boot):
        pick = rng.integers(0, len(groups), size=len(groups))
        stats[b] = np.median(np.concatenate([groups[i] for i in pick]))
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(stats, [alpha, 1 - alpha])
    return float(lo), float(hi)


@register("metric", "queries_median")
def queries_median(values: Iterable[tuple[Hashable, float | None]], *,
                   group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Median queries per search, CI from a cluster bootstrap of the median."""
    import statistics

    data = [(c, float(v)) for c, v in values if v is not None]
    g = dict(group or {})
    if not data:
        return MetricValue("queries_median", None, None, None, 0, 0, g)
    lo, hi = bootstrap_median(data, seed=seed)
    return MetricValue("queries_median", statistics.median(v for _, v in data), lo, hi,
                       len(data), 0, g)


@register("metric", "perturbed_word_rate")
def perturbed_word_rate(values: Iterable[tuple[Hashable, float | None]], *,
                        group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Mean share of the attacked text's words changed in successful examples (TextAttack's
    average perturbed word %)."""
    return mean("perturbed_word_rate", values, group=group, seed=seed)


@register("metric", "similarity_mean")
def similarity_mean(values: Iterable[tuple[Hashable, float | None]], *,
                    group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Mean similarity of successful examples to their originals (all-MiniLM-L6-v2)."""
    return mean("similarity_mean", values, group=group, seed=seed)


@register("metric", "pdr")
def pdr(pairs: Iterable[tuple[Hashable, bool | None, bool | None]], *,
        group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Performance drop rate, promptbench: 1 - acc_attacked / acc_clean over the questions
    measured both ways (``(cluster, clean correct, attacked correct)``); the CI resamples
    items."""
    hits: dict[Hashable, int] = defaultdict(int)
    totals: dict[Hashable, int] = defaultdict(int)
    measured = unmeasured = 0
    for c, clean, attacked in pairs:
        if clean is None or attacked is None:
            unmeasured += 1
            continue
        measured += 1
        hits[c] += int(attacked)
        totals[c] += int(clean)
    g = dict(group or {})
    clean_right = sum(totals.values())
    if clean_right == 0:
        return MetricValue("pdr", None, None, None, measured, unmeasured, g)
    keys = list(totals)
    lo, hi = bootstrap_ci([hits[k] for k in keys], [totals[k] for k in keys], seed=seed)
    return MetricValue("pdr", 1.0 - sum(hits.values()) / clean_right,
                       None if hi is None else 1.0 - hi, None if lo is None else 1.0 - lo,
                       measured, unmeasured, g)


def _unit(r: Record) -> tuple[str, str, int]:
    return (r["dataset"], r["item_id"], r["sub"])


def _scopes(records: Sequence[Record]) -> list[tuple[str, Sequence[Record]]]:
    datasets = sorted({r["dataset"] for r in records})
    scopes: list[tuple[str, Sequence[Record]]] = [
        (d, [r for r in records if r["dataset"] == d]) for d in datasets]
    if len(datasets) > 1:
        scopes.append(("all", records))
    return scopes


def search_metrics(records: Sequence[Record], *, seed: int = 0) -> list[MetricValue]:
    """Every metric of a search suite, per dataset (and over all when there are several):
    accuracy before and under attack, attack success rate, skip rate, queries (mean and
    median, over successes and over all attacked searches), perturbed word rate,
    similarity, worst-case accuracy and any-flip rate."""
    out: list[MetricValue] = []
    for dataset, rs in _scopes(records):
        originals = [r for r in rs if r["group"].get("attack") == "original"]
        attacked = [r for r in rs if r["group"].get("attack") == "search"]
        g = {"dataset": dataset}
        out.append(rate("accuracy", [(cluster(r), r["correct"]) for r in originals],
                        group={**g, "attack": "original"}, seed=seed))
        out.append(rate("accuracy", [(cluster(r), r["correct"]) for r in attacked],
                        group={**g, "attack": "search"}, seed=seed))
        outcomes = [(cluster(r), str(r["labels"]["outcome"])) for r in attacked]
        out.append(attack_success_rate(outcomes, group=g, seed=seed))
        out.append(rate("skip_rate", [(c, o == "skipped") for c, o in outcomes], group=g,
                        seed=seed))
        wins = [r for r in attacked if r["labels"]["outcome"] == "success"]
        tried = [r for r in attacked if r["labels"]["outcome"] in ("success", "failed")]
        for over, rows in (("success", wins), ("attacked", tried)):
            values = [(cluster(r), float(r["labels"]["queries"])) for r in rows]
            out.append(queries_mean(values, group={**g, "over": over}, seed=seed))
            out.append(queries_median(values, group={**g, "over": over}, seed=seed))
        out.append(perturbed_word_rate(
            [(cluster(r), r["labels"]["perturbed_word_rate"]) for r in wins], group=g, seed=seed))
        out.append(similarity_mean(
            [(cluster(r), r["labels"].get("similarity")) for r in wins], group=g, seed=seed))
        out.extend(worst_case_metrics(
            [(cluster(r), _unit(r), r["correct"], r["answer"]) for r in originals],
            [(cluster(r), _unit(r), r["correct"], r["answer"]) for r in attacked],
            group=g, seed=seed))
    return out


def prompt_metrics(records: Sequence[Record], *, seed: int = 0) -> list[MetricValue]:
    """``search.prompt``: clean and attacked accuracy, PDR, the template search's queries
    (template evaluations) and, for the found template, its similarity."""
    out: list[MetricValue] = []
    for dataset, rs in _scopes(records):
        originals = {_unit(r): r for r in rs if r["group"].get("attack") == "original"}
        attacked = [r for r in rs if r["group"].get("attack") == "search"]
        g = {"dataset": dataset}
        out.append(rate("accuracy", [(cluster(r), r["correct"]) for r in originals.values()],
                        group={**g, "attack": "original"}, seed=seed))
        out.append(rate("accuracy", [(cluster(r), r["correct"]) for r in attacked],
                        group={**g, "attack": "search"}, seed=seed))
        out.append(pdr([(cluster(r), originals[_unit(r)]["correct"] if _unit(r) in originals
                         else None, r["correct"]) for r in attacked], group=g, seed=seed))
        if attacked:
            labels = attacked[0]["labels"]
            out.append(MetricValue("queries_mean", float(labels["queries"]), None, None, 1, 0,
                                   {**g, "over": "template"}))
            if labels.get("similarity") is not None:
                out.append(MetricValue("similarity_mean", float(labels["similarity"]), None,
                                       None, 1, 0, {**g, "over": "template"}))
    return out
