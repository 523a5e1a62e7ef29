"""``quick``: a small real cross-section of rattle, the default of ``rattle run``.

Three parts on the built-in sets: RCC robustness (character, word and visual noise on
multiple-choice items, one question per request), short-answer QA closed-book vs with
documents (the RALM prompts), and factoid attacks (four rule-based claim attacks on six of the
built-in true sentences, verification protocol). A few minutes on two CPU cores with the
embedded model.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rattle.items import Response
from rattle.metrics.core import MetricValue
from rattle.registry import register
from rattle.suites.base import Case, Record
from rattle.suites.factoid import FactoidSuite
from rattle.suites.qa import QAContextSuite
from rattle.suites.rcc import RCCSuite

QUICK_ATTACKS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("chars.delete", {}, ""),
    ("chars.insert", {}, ""),
    ("words.delete", {}, ""),
    ("visual.homoglyph", {"ratio": 0.5}, "50%"),
)
QUICK_CLAIM_ATTACKS = "temporal,numerical,distraction,reversal"
QUICK_CLAIMS = 6


@dataclass
class QuickSuite:
    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    skip_invalid: bool = False

    def __post_init__(self) -> None:
        self.name = "quick"
        self.tables = ("ER/ACR by attack on mini-mc; QA accuracy by condition on mini-qa; ASR by "
                       "claim attack on six factoid claims")
        self.paper = "all three (a cross-section)"
        self.description = (__doc__ or "").strip()
        self.rcc = RCCSuite("robustness", dataset=self.dataset, limit=self.limit, seed=self.seed,
                            samples=1, attacks=QUICK_ATTACKS, protocol="single",
                            part="rcc.robustness", skip_invalid=self.skip_invalid)
        self.qa = QAContextSuite(limit=self.limit, seed=self.seed, part="qa.context",
                                 skip_invalid=self.skip_invalid)
        self.factoid = FactoidSuite("attacks", limit=min(self.limit or QUICK_CLAIMS, QUICK_CLAIMS),
                                    seed=self.seed, attacks=QUICK_CLAIM_ATTACKS,
                                    part="factoid.attacks")
        self.judge_name = (f"{self.rcc.judge_name} (rcc), {self.qa.judge_name} (qa), "
                           f"{self.factoid.judge_name} (factoid)")
        self.datasets = [*self.rcc.datasets, *self.qa.datasets, *self.factoid.datasets]

    def prepare(self, store: Any = None) -> None:
        self.factoid.prepare(store)

    def cases(self) -> Iterator[Case]:
        yield from self.rcc.cases()
        yield from self.qa.cases()
        yield from self.factoid.cases()

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        if case.part == "rcc.robustness":
            return self.rcc.records(case, responses)
        if case.part == "factoid.attacks":
            return self.factoid.records(case, responses)
        return self.qa.records(case, responses)

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        out = []
        for part in (self.rcc, self.qa, self.factoid):
            for m in part.metrics(records):
                out.append(MetricValue(m.name, m.value, m.ci_low, m.ci_high, m.n,
                                       m.n_unmeasured, {"suite": part.name, **m.group}))
        return out


@register("suite", "quick")
def quick(**options: Any) -> QuickSuite:
    """A small real cross-section: RCC noise on MC items, closed/open-book QA, factoid attacks."""
    return QuickSuite(**options)
