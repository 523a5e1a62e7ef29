"""``quick``: a small real cross-section of rattle, the default of ``rattle run``.

Two parts on the built-in mini sets: RCC robustness (character, word and visual noise on
multiple-choice items, one question per request) and short-answer QA closed-book vs with
documents (the RALM prompts). A few minutes on two CPU cores with the embedded model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rattle.items import Response
from rattle.metrics.core import MetricValue
from rattle.registry import register
from rattle.suites.base import Case, Record
from rattle.suites.qa import QAContextSuite
from rattle.suites.rcc import RCCSuite

QUICK_ATTACKS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("chars.delete", {}, ""),
    ("chars.insert", {}, ""),
    ("words.delete", {}, ""),
    ("visual.homoglyph", {"ratio": 0.5}, "50%"),
)


@dataclass
class QuickSuite:
    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    skip_invalid: bool = False

    def __post_init__(self) -> None:
        self.name = "quick"
        self.tables = "ER/ACR by attack on mini-mc; QA accuracy by condition on mini-qa"
        self.paper = "all three (a cross-section)"
        self.description = (__doc__ or "").strip()
        self.rcc = RCCSuite("robustness", dataset=self.dataset, limit=self.limit, seed=self.seed,
                            samples=1, attacks=QUICK_ATTACKS, protocol="single",
                            part="rcc.robustness", skip_invalid=self.skip_invalid)
        self.qa = QAContextSuite(limit=self.limit, seed=self.seed, part="qa.context",
                                 skip_invalid=self.skip_invalid)
        self.judge_name = f"{self.rcc.judge_name} (rcc), {self.qa.judge_name} (qa)"
        self.datasets = [*self.rcc.datasets, *self.qa.datasets]

    def cases(self) -> Iterator[Case]:
        yield from self.rcc.cases()
        yield from self.qa.cases()

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        part = self.rcc if case.part == "rcc.robustness" else self.qa
        return part.records(case, responses)

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        out = []
        for part in (self.rcc, self.qa):
            for m in part.metrics(records):
                out.append(MetricValue(m.name, m.value, m.ci_low, m.ci_high, m.n,
                                       m.n_unmeasured, {"suite": part.name, **m.group}))
        return out


@register("suite", "quick")
def quick(**options: Any) -> QuickSuite:
    """A small real cross-section (RCC noise on MC items + closed/open-book QA) on the mini sets."""
    return QuickSuite(**options)
