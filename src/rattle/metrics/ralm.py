"""RALM metrics (Park & Lee 2024, arXiv:2410.15107): unanswerable split, RAD, conflicts, PAR,
and each experiment's metric table (``ralm_metrics``).

All take ``(cluster, ...)`` tuples; rates are fractions with cluster-bootstrap CIs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from rattle.matching import squad_normalize
from rattle.metrics.core import MetricValue, label_mean, rate
from rattle.metrics.worst_case import worst_case_metrics
from rattle.records import Record, cluster, cluster_key
from rattle.registry import register

Row = tuple[Hashable, bool | None]


@register("metric", "rad")
def rad(pairs: Iterable[tuple[Hashable, bool | None, bool | None]],
        group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Robustness under an additional document, RALM Eq. 2: |ARA-Add| / |ARA| (a fraction).

    ``pairs`` are ``(cluster, correct with the clean documents, correct with one added)``;
    ARA is the set correct with the clean documents, ARA-Add those still correct.
    """
    outcomes = [(c, after) for c, before, after in pairs if before is True]
    return rate("rad", outcomes, group=group, seed=seed)


@register("metric", "par")
def par(outcomes: Iterable[Row], group: Mapping[str, Any] | None = None, seed: int = 0) -> MetricValue:
    """Parametric answer rate, RALM Table 13: accuracy on unanswerable examples (Normal prompt)."""
    return rate("par", outcomes, group=group, seed=seed)


def unanswerable_split(rows: Iterable[tuple[Hashable, bool, bool, bool]],
                       group: Mapping[str, Any] | None = None, seed: int = 0) -> list[MetricValue]:
    """RALM Table 4 on unanswerable examples: ``(cluster, said unanswerable, gave a gold
    answer, measured)``. Acc = said unanswerable; Cor = gave the true answer instead;
    Hallu = neither."""
    data = [(c, u, g) for c, u, g, measured in rows if measured]
    acc = rate("unans_acc", [(c, u) for c, u, _ in data], group=group, seed=seed)
    cor = rate("parametric_correct_rate", [(c, (not u) and g) for c, u, g in data], group=group,
               seed=seed)
    hallu = rate("hallucination_rate", [(c, (not u) and not g) for c, u, g in data], group=group,
                 seed=seed)
    return [acc, hallu, cor]


def transitions(rows: Iterable[tuple[Hashable, bool, bool]],
                group: Mapping[str, Any] | None = None, seed: int = 0) -> list[MetricValue]:
    """RALM Table 8 over the ARA with a conflicting document added: ``(cluster, has a gold
    answer, has the conflicting answer)`` per case. A→A keeps the answer, A→C takes the
    conflicting document's answer, A→U is everything else."""
    data = list(rows)
    a_a = rate("a_to_a", [(c, g) for c, g, _ in data], group=group, seed=seed)
    a_c = rate("a_to_c", [(c, (not g) and k) for c, g, k in data], group=group, seed=seed)
    a_u = rate("a_to_u", [(c, (not g) and not k) for c, g, k in data], group=group, seed=seed)
    return [a_a, a_c, a_u]


def _said(r: Record) -> str | None:
    """The normalised answer text of a record (None when the request failed)."""
    return None if r.get("error") is not None or r["correct"] is None else squad_normalize(
        str(r.get("answer") or ""))


def added_document_worst_case(by: Mapping[tuple[str, str, str], Sequence[Record]], dataset: str,
                              prompt: str, conditions: Sequence[str], *,
                              seed: int = 0) -> list[MetricValue]:
    """``worst_case_accuracy`` and ``any_flip_rate`` of each question over its added-document
    conditions (``metrics.worst_case``), per condition and over all of them; an answer
    changes when its SQuAD-normalised text does."""
    originals = [(cluster(r), r["item_id"], r["correct"], _said(r))
                 for r in by.get((dataset, prompt, "clean"), [])]
    out: list[MetricValue] = []
    every = []
    for condition in conditions:
        cases = [(cluster(r), r["item_id"], r["correct"], _said(r))
                 for r in by.get((dataset, prompt, condition), [])]
        every.extend(cases)
        out.extend(worst_case_metrics(originals, cases, seed=seed, group={
            "dataset": dataset, "prompt": prompt, "condition": condition}))
    if conditions:
        out.extend(worst_case_metrics(originals, every, seed=seed, group={
            "dataset": dataset, "prompt": prompt, "condition": "all"}))
    return out


def ralm_metrics(kind: str, records: Sequence[Record], *, seed: int = 0,
                 rad_population: str = "common") -> list[MetricValue]:
    """Every metric of one RALM experiment (baseline, unanswerable, adversarial,
    adversarial_unanswerable, conflict) per dataset, prompt and condition."""
    out: list[MetricValue] = []
    by: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in records:
        by[(r["dataset"], r["group"]["prompt"], r["group"]["condition"])].append(r)
    datasets = sorted({d for d, _, _ in by})
    for (dataset, prompt, condition), rs in sorted(by.items()):
        g = {"dataset": dataset, "prompt": prompt, "condition": condition}
        out.append(rate("accuracy", [(cluster(r), r["correct"]) for r in rs], group=g, seed=seed))
        if prompt in ("normal", "closed"):
            out.append(label_mean("em", rs, g, seed))
            out.append(label_mean("f1", rs, g, seed))
        if prompt == "unans" and condition == "clean":
            out.append(rate("acc_ans", [(cluster(r), r["correct"]) for r in rs
                                        if r["group"]["answerable"]], group=g, seed=seed))
            out.append(rate("acc_unans", [(cluster(r), r["correct"]) for r in rs
                                          if not r["group"]["answerable"]], group=g, seed=seed))
            out.extend(unanswerable_split(
                [(cluster(r), r["labels"].get("says_unanswerable", False),
                  r["labels"].get("has_gold", False), r["correct"] is not None)
                 for r in rs if not r["group"]["answerable"]], group=g, seed=seed))
        if prompt == "normal" and condition == "clean" and kind == "unanswerable":
            out.append(par([(cluster(r), r["correct"]) for r in rs
                            if not r["group"]["answerable"]], group=g, seed=seed))
    for dataset in datasets:
        def rows(prompt: str, condition: str, dataset: str = dataset) -> dict[str, Record]:
            return {r["item_id"]: r for r in by.get((dataset, prompt, condition), [])}

        if kind in ("adversarial", "adversarial_unanswerable"):
            prompt = "normal" if kind == "adversarial" else "unans"
            clean = rows(prompt, "clean")
            added_kinds = sorted({c for d, p, c in by if d == dataset and p == prompt and c != "clean"})
            # RAD per type on one common ARA (paper Fig. 3 compares types on the same questions):
            # the items every added type was made for; "own": each type's own items.
            common = set.intersection(*(set(rows(prompt, a)) for a in added_kinds)) \
                if added_kinds else set()
            for added in added_kinds:
                other = rows(prompt, added)
                if rad_population == "common":
                    other = {i: r for i, r in other.items() if i in common}
                splits: list[tuple[str, bool | None]] = [("all", None)]
                if kind == "adversarial_unanswerable":
                    splits += [("answerable", True), ("unanswerable", False)]
                for split, flag in splits:
                    chosen = [(cluster_key(dataset, i), clean[i]["correct"], other[i]["correct"])
                              for i in sorted(other) if i in clean
                              and (flag is None or clean[i]["group"]["answerable"] == flag)]
                    out.append(rad(chosen, group={"dataset": dataset, "prompt": prompt,
                                                  "condition": added, "split": split}, seed=seed))
            out.extend(added_document_worst_case(by, dataset, prompt, added_kinds, seed=seed))
        if kind == "conflict":
            nc = list(rows("conflict", "clean").values())
            c = list(rows("conflict", "conflict").values())
            g = {"dataset": dataset, "prompt": "conflict"}
            out.append(rate("conflict_acc_c", [(cluster(r), r["correct"]) for r in c], group=g, seed=seed))
            out.append(rate("conflict_acc_nc", [(cluster(r), r["correct"]) for r in nc], group=g, seed=seed))
            out.append(rate("conflict_acc", [(cluster(r), r["correct"]) for r in [*c, *nc]],
                            group=g, seed=seed))
            clean_n = rows("normal", "clean")
            added_n = rows("normal", "conflict")
            ara = [added_n[i] for i in sorted(added_n) if i in clean_n
                   and clean_n[i]["correct"] is True and added_n[i]["correct"] is not None]
            out.extend(transitions([(cluster(r), r["labels"]["has_gold"],
                                     r["labels"]["has_conflict_answer"]) for r in ara],
                                   group={"dataset": dataset, "prompt": "normal"}, seed=seed))
    return out
