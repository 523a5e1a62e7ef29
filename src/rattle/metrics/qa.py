"""Short-answer QA metrics by condition: accuracy (has-answer), SQuAD EM and token F1."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from rattle.metrics.core import MetricValue, label_mean, rate
from rattle.records import Record, cluster


def qa_metrics(records: Sequence[Record], *, seed: int = 0) -> list[MetricValue]:
    """``accuracy``, ``em`` and ``f1`` per (dataset, condition) of ``qa.context`` records."""
    by: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for r in records:
        by[(r["dataset"], r["group"]["condition"])].append(r)
    out = []
    for (dataset, condition), rs in sorted(by.items()):
        g = {"dataset": dataset, "condition": condition}
        out.append(rate("accuracy", [(cluster(r), r["correct"]) for r in rs], group=g, seed=seed))
        for name in ("em", "f1"):
            out.append(label_mean(name, rs, g, seed))
    return out
