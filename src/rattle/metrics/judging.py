"""How well the run could read its replies: ``parse_rate`` per suite part and group.

A reply an extractor cannot read is unmeasured (never wrong), so a low parse rate shrinks the
population a metric is computed on without changing its value: it is reported beside every
metric it qualifies, and the run warns when it falls under ``PARSE_WARNING``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rattle.metrics.core import MetricValue, RateCounts
from rattle.records import cluster

# Issue 14: a run warns when an extractor reads less than 90% of the answered replies.
PARSE_WARNING = 0.9


class ParseRates:
    """Streaming ``parse_rate``: share of answered replies (no request error) whose status is
    ``parsed``, per (part, dataset, attack), for the parts that read replies with a rule
    extractor (``Suite.extractors``)."""

    def __init__(self, parts: Mapping[str, str], *, composite: bool = False) -> None:
        self.parts = dict(parts)  # part -> suite name
        self.composite = composite  # group by suite too (as a composite suite's metrics are)
        self.counts: dict[tuple[str, str, str], RateCounts] = {}

    def add(self, record: Mapping[str, Any]) -> None:
        part = record["part"]
        if part not in self.parts or record["error"] is not None:
            return
        key = (part, record["dataset"], record["group"].get("attack", record["attack"]))
        self.counts.setdefault(key, RateCounts()).add(cluster(record),
                                                      record["status"] == "parsed")

    def metrics(self, *, seed: int = 0) -> list[MetricValue]:
        out = []
        for (part, dataset, attack), counts in sorted(self.counts.items()):
            group = {"dataset": dataset, "attack": attack}
            if self.composite:
                group = {"suite": self.parts[part], **group}
            out.append(counts.metric("parse_rate", group=group, seed=seed))
        return out


def parse_warnings(metrics: list[MetricValue]) -> list[str]:
    """One line per (suite, dataset) whose parse rate falls under ``PARSE_WARNING`` somewhere."""
    low: dict[tuple[str, str], list[MetricValue]] = {}
    for m in metrics:
        if m.name == "parse_rate" and m.value is not None and m.value < PARSE_WARNING:
            low.setdefault((str(m.group.get("suite", "")), str(m.group.get("dataset", ""))),
                           []).append(m)
    lines = []
    for (suite, dataset), ms in sorted(low.items()):
        worst = min(ms, key=lambda m: m.value or 0.0)
        lines.append(f"{suite} on {dataset}: the extractor read only {worst.value:.0%} of the "
                     f"replies for {worst.group.get('attack', '')} ({len(ms)} group(s) under "
                     f"{PARSE_WARNING:.0%}); unread replies are unmeasured: see 'status' in "
                     "results.jsonl, or pass --param judge=MODEL to resolve them")
    return lines
