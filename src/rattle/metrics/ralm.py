"""RALM metrics (Park & Lee 2024, arXiv:2410.15107): unanswerable split, RAD, conflicts, PAR.

All take ``(cluster, ...)`` tuples; rates are fractions with cluster-bootstrap CIs.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from rattle.metrics.core import MetricValue, rate
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
