"""RCC metrics: error rate (Eq. 9), answer-change rate (Eq. 10), consistency, RTI (Alg. 1),
and each experiment's metric table (``rcc_metrics``; ``RobustnessStream`` for large runs)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from rattle.metrics.core import MetricValue, RateCounts, complement, mean, rate
from rattle.metrics.worst_case import WorstCase, worst_case_metrics
from rattle.records import Record, cluster, cluster_key
from rattle.registry import register

# Algorithm 1: rho from 0.1 to 1.0 by 0.1; a never-changing answer scores 1.0.
RTI_RATES: tuple[float, ...] = tuple(round(0.1 * i, 1) for i in range(1, 11))
# RCC §3.5: the word operations of the credibility experiment.
CREDIBILITY_OPS = ("words.insert", "words.delete", "words.replace")


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
        for key, before, after in pairs:
            yield key, (None if before is None or after is None else before != after)

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


def rti_value(original: Hashable | None, by_rate: Mapping[float, Hashable | None]) -> float | None:
    """RCC Algorithm 1 for one (item, question, operation).

    The first rate (ascending) whose answer differs from the model's own original answer; 1.0
    when it never changes. None (unmeasured) when the original answer is unmeasured, or when
    every perturbed answer is: an item the model never answered under noise shows nothing
    about memorisation (it would otherwise score 1.0, the maximum). An unmeasured perturbed
    answer among measured ones is skipped (neither a change nor evidence of stability).
    """
    if original is None or all(by_rate.get(r) is None for r in RTI_RATES):
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
        seed: int = 0, *, name: str = "rti") -> MetricValue:
    """Relative training index, RCC Algorithm 1: mean first-change rate (higher = memorised)."""
    return mean(name, values, group=group, seed=seed)


# What RCC's scorer records for a reply it cannot read (Evals/get_path.py): in compat mode an
# unparsed reply is this value, so it counts against ER and as a change for ACR/RTI when the
# other answer was read (reference-implementations.md §2.7-2.8).
UNPARSED = "No options"


def answer_of(r: Mapping[str, Any], by: str, *, compat: bool) -> Hashable | None:
    """The answer ACR and RTI compare: the chosen option's type (``by="type"``, as the RCC
    authors compared; two wrong options of one type are the same answer) or its index
    (``by="index"``). Unparsed: None (unmeasured), or ``UNPARSED`` in compat mode."""
    value = r.get("option_type") if by == "type" else r.get("answer")
    if value is None and compat:
        return UNPARSED
    return value


def group_records(records: Sequence[Record], *keys: str) -> dict[tuple[Any, ...], list[Record]]:
    """Records by the values of ``keys`` (read from ``group`` first, then the record)."""
    out: dict[tuple[Any, ...], list[Record]] = defaultdict(list)
    for r in records:
        out[tuple(r["group"].get(k, r.get(k)) for k in keys)].append(r)
    return out


def rcc_metrics(kind: str, records: Sequence[Record], *, seed: int = 0,
                compat: bool = False) -> list[MetricValue]:
    """Every RCC metric of one experiment (robustness, consistency, credibility) per dataset
    (and over all datasets when there are several).

    ER (Eq. 9) is over the measured replies; with ``compat`` unparsed replies count as wrong
    and as their own answer for ACR/RTI, as the authors' scorer did. ACR (Eq. 10) and RTI
    compare the chosen option's type, as the authors did; ``acr_index``/``rti_index`` compare
    the option itself, beside them.
    """
    out: list[MetricValue] = []
    baseline = {by: {(r["dataset"], r["item_id"], r["sub"]): answer_of(r, by, compat=compat)
                     for r in records if r["attack"] == "original"} for by in ("type", "index")}

    def pairs(rs: Sequence[Record], by: str) -> list[tuple[str, Any, Any]]:
        return [(cluster(r), baseline[by].get((r["dataset"], r["item_id"], r["sub"])),
                 answer_of(r, by, compat=compat)) for r in rs]

    datasets = sorted({r["dataset"] for r in records})
    scopes: list[tuple[str, Sequence[Record]]] = [(d, [r for r in records if r["dataset"] == d])
                                                  for d in datasets]
    if len(datasets) > 1:
        scopes.append(("all", records))
    for dataset, rs in scopes:
        if kind in ("robustness", "consistency"):
            for (attack, level), group in sorted(group_records(rs, "attack", "level").items()):
                g = {"dataset": dataset, "attack": attack, "level": level}
                outcomes = [(cluster(r), r["correct"]) for r in group]
                out.append(rate("accuracy", outcomes, group=g, seed=seed))
                out.append(error_rate(outcomes, group=g, seed=seed))
                if attack != "original":
                    out.append(answer_change_rate(pairs(group, "type"), group=g, seed=seed))
                    out.append(renamed("acr_index", answer_change_rate(
                        pairs(group, "index"), group=g, seed=seed)))
                if kind == "consistency":
                    out.append(first_option_rate(
                        [(cluster(r), r["position"] if r["correct"] is not None else None)
                         for r in group], group=g, seed=seed))
            out.extend(rcc_worst_case(rs, dataset, seed))
        if kind == "consistency":
            accs = {(m.group["attack"], m.group["level"]): m.value for m in out
                    if m.name == "accuracy" and m.group["dataset"] == dataset}
            for family in ("prompts.wording", "options.order"):
                values = {"original": accs.get(("original", ""))}
                values.update({lvl: v for (a, lvl), v in accs.items() if a == family})
                out.append(consistency_std(values, group={"dataset": dataset, "attack": family}))
        if kind == "credibility":
            out.extend(_rti_metrics(dataset, rs, baseline, compat=compat, seed=seed))
            originals = [(cluster(r), r["correct"]) for r in rs if r["attack"] == "original"]
            g = {"dataset": dataset, "attack": "original", "level": ""}
            out.append(rate("accuracy", originals, group=g, seed=seed))
    return out


def renamed(name: str, metric: MetricValue) -> MetricValue:
    """``metric`` under another name (the same value, CI and n)."""
    return MetricValue(name, metric.value, metric.ci_low, metric.ci_high, metric.n,
                       metric.n_unmeasured, metric.group)


def _rti_metrics(dataset: str, rs: Sequence[Record],
                 baseline: Mapping[str, Mapping[tuple[str, str, int], Hashable | None]], *,
                 compat: bool, seed: int) -> list[MetricValue]:
    """RTI per operation and their mean, by option type (``rti``) and option (``rti_index``)."""
    out: list[MetricValue] = []
    for by, name in (("type", "rti"), ("index", "rti_index")):
        answers: dict[tuple[str, str, int, str], dict[float, Hashable | None]] = defaultdict(dict)
        for r in rs:
            if r["attack"] in CREDIBILITY_OPS:
                key = (r["dataset"], r["item_id"], r["sub"], r["attack"])
                answers[key][float(r["params"]["rate"])] = answer_of(r, by, compat=compat)
        per_op: dict[str, list[tuple[str, float | None]]] = defaultdict(list)
        for (ds, item_id, sub, op), by_rate in sorted(answers.items()):
            value = rti_value(baseline[by].get((ds, item_id, sub)), by_rate)
            per_op[op].append((cluster_key(ds, item_id), value))
        every: list[tuple[str, float | None]] = []
        for op in CREDIBILITY_OPS:
            if per_op.get(op):
                out.append(rti(per_op[op], group={"dataset": dataset, "attack": op}, seed=seed,
                               name=name))
                every.extend(per_op[op])
        if every:
            out.append(rti(every, group={"dataset": dataset, "attack": "mean"}, seed=seed,
                           name=name))
    return out


def _unit(r: Record) -> tuple[str, str, int]:
    return (r["dataset"], r["item_id"], r["sub"])


def rcc_worst_case(records: Sequence[Record], dataset: str, seed: int = 0) -> list[MetricValue]:
    """``worst_case_accuracy`` and ``any_flip_rate`` (``metrics.worst_case``) per attack and
    level, then over every variant (attack ``all``); a unit is one question of one item."""
    originals = [(cluster(r), _unit(r), r["correct"], r["answer"]) for r in records
                 if r["attack"] == "original"]
    variants = [r for r in records if r["group"].get("attack", r["attack"]) != "original"]
    out: list[MetricValue] = []
    for (attack, level), group in sorted(group_records(variants, "attack", "level").items()):
        out.extend(worst_case_metrics(
            originals, [(cluster(r), _unit(r), r["correct"], r["answer"]) for r in group],
            group={"dataset": dataset, "attack": attack, "level": level}, seed=seed))
    if variants:
        out.extend(worst_case_metrics(
            originals, [(cluster(r), _unit(r), r["correct"], r["answer"]) for r in variants],
            group={"dataset": dataset, "attack": "all", "level": ""}, seed=seed))
    return out


class RobustnessStream:
    """``rcc.robustness`` metrics computed while records stream in (flat memory).

    Exactly :func:`rcc_metrics` for the robustness kind, without keeping records: per group,
    per-item counts of correct and of changed answers. Records arrive in case order and every
    item's unperturbed cases come first, so only the current item's baseline answers are kept.
    """

    def __init__(self, part: str, seed: int, *, compat: bool = False) -> None:
        self.part = part
        self.seed = seed
        self.compat = compat
        self.acc: dict[tuple[str, str, str], RateCounts] = {}
        self.acr: dict[str, dict[tuple[str, str, str], RateCounts]] = {"type": {}, "index": {}}
        self.datasets: set[str] = set()
        self._item: tuple[str, str] | None = None
        self._baseline: dict[str, dict[int, Any]] = {"type": {}, "index": {}}
        # Worst case per (scope, attack, level) and (scope, "all", ""), folded item by item.
        self.worst: dict[tuple[str, str, str], WorstCase] = {}
        self._base_correct: dict[int, bool | None] = {}
        self._base_answer: dict[int, Any] = {}

    def add(self, r: Record) -> None:
        if r["part"] != self.part:
            return
        dataset = r["dataset"]
        item = (dataset, r["item_id"])
        if item != self._item:
            self._item, self._baseline = item, {"type": {}, "index": {}}
            self._base_correct, self._base_answer = {}, {}
            for wc in self.worst.values():
                wc.close()
        self.datasets.add(dataset)
        attack, level = r["group"].get("attack", r["attack"]), r["group"].get("level", "")
        c = cluster(r)
        answers = {by: answer_of(r, by, compat=self.compat) for by in ("type", "index")}
        if attack == "original":
            for by in answers:
                self._baseline[by][r["sub"]] = answers[by]
            self._base_correct[r["sub"]] = r["correct"]
            self._base_answer[r["sub"]] = r["answer"]
        before = self._base_answer.get(r["sub"])  # the worst case compares raw option indices
        for scope in (dataset, "all"):
            key = (scope, attack, level)
            self.acc.setdefault(key, RateCounts()).add(c, r["correct"])
            if attack != "original":
                for by, answer in answers.items():
                    was = self._baseline[by].get(r["sub"])
                    changed = None if was is None or answer is None else was != answer
                    self.acr[by].setdefault(key, RateCounts()).add(c, changed)
                for wkey in (key, (scope, "all", "")):
                    wc = self.worst.setdefault(wkey, WorstCase())
                    unit = _unit(r)
                    if not wc.has(unit) and r["sub"] in self._base_correct:
                        wc.original(c, unit, self._base_correct[r["sub"]], before)
                    wc.variant(c, unit, r["correct"], r["answer"])

    def metrics(self) -> list[MetricValue]:
        out: list[MetricValue] = []
        scopes = sorted(self.datasets) + (["all"] if len(self.datasets) > 1 else [])
        for scope in scopes:
            for key in sorted(k for k in self.acc if k[0] == scope):
                g = {"dataset": scope, "attack": key[1], "level": key[2]}
                accuracy = self.acc[key].metric("accuracy", group=g, seed=self.seed)
                out.append(accuracy)
                out.append(complement("er", accuracy))
                if key in self.acr["type"]:
                    out.append(self.acr["type"][key].metric("acr", group=g, seed=self.seed))
                    out.append(self.acr["index"][key].metric("acr_index", group=g,
                                                             seed=self.seed))
            for key in sorted(k for k in self.worst if k[0] == scope and k[1] != "all"):
                g = {"dataset": scope, "attack": key[1], "level": key[2]}
                out.extend(self.worst[key].metrics(g, seed=self.seed))
            if (scope, "all", "") in self.worst:
                out.extend(self.worst[(scope, "all", "")].metrics(
                    {"dataset": scope, "attack": "all", "level": ""}, seed=self.seed))
        return out
