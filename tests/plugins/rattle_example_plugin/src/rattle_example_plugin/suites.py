"""``example.contains``: ask each QA question; correct when the reply contains a gold answer."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Annotated

from rattle.datasets import load_dataset
from rattle.items import Judgement, Query, Response, original
from rattle.metrics.core import MetricValue, rate
from rattle.records import Record, cluster
from rattle.registry import register
from rattle.suites.base import Case, Suite, base_record


class ContainsSuite(Suite):
    """One case per question; the judge looks for a gold answer in the reply."""

    def __init__(self, *, dataset: str | None, limit: int | None, seed: int,
                 prefix: str) -> None:
        self.name = "example.contains"
        self.paper = "none (a plugin example)"
        self.description = (__doc__ or "").strip()
        self.tables = "accuracy"
        self.judge_name = "example.contains@1"
        self.datasets = [dataset or "mini-qa"]
        self.part = ""
        self.notes = {}
        self.limit = limit
        self.prefix = prefix

    def cases(self) -> Iterator[Case]:
        for item in load_dataset(self.datasets[0], limit=self.limit):
            v = original(item)
            yield Case(v.id, v, Query((self.prefix + item.question,), question=item.question))

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        q = case.variant.item.questions[0]
        hit = any(a.lower() in responses[0].text.lower() for a in q.answers)
        return [base_record(case, 0, q.text, responses[0],
                            Judgement(hit, responses[0].text, {"status": "parsed"}, "",
                                      self.judge_name))]

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        return [rate("accuracy", [(cluster(r), r["correct"]) for r in records])]


@register("suite", "example.contains")
def contains(*, dataset: str | None = None, limit: int | None = None, seed: int = 0,
             skip_invalid: bool = False,
             prefix: Annotated[str, "text put before every question"] = "Q: ") -> ContainsSuite:
    """Ask each question; correct when the reply contains a gold answer."""
    return ContainsSuite(dataset=dataset, limit=limit, seed=seed, prefix=prefix)
