"""The suite contract: the runner calls declared hooks only; composites delegate."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from rattle.flows import OfflineFlows
from rattle.items import Item, Judgement, Query, Question, Response, original
from rattle.metrics.core import MetricValue, rate
from rattle.records import Record, cluster
from rattle.suites.base import Case, CompositeSuite, Suite, base_record

SRC = Path(__file__).resolve().parents[2] / "src" / "rattle"


class Tiny(Suite):
    """Two items, correct when the reply says 'yes'; rejudge flips every record."""

    def __init__(self, part: str, rejudge: bool) -> None:
        self.name, self.part, self.paper, self.description = f"tiny.{part}", part, "p", "d"
        self.tables, self.judge_name, self.datasets = "t", f"judge-{part}", [f"ds-{part}"]
        self.notes = {"made": part, "empty": []}
        self._rejudge = rejudge
        self.prepared = 0

    def prepare(self, flows: object) -> None:
        self.prepared += 1

    def count(self) -> int:
        return 2

    def cases(self) -> Iterator[Case]:
        for i in range(2):
            v = original(Item(f"{self.part}-{i}", (Question("q?"),), dataset=f"ds-{self.part}"))
            yield Case(v.id, v, Query(("q?",)), {}, self.part)

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        ok = responses[0].text == "yes"
        return [base_record(case, 0, "q?", responses[0], Judgement(ok, "", {}, "", "j"))]

    def needs_rejudge(self) -> bool:
        return self._rejudge

    def rejudge(self, records: list[Record], flows: object) -> list[Record]:
        return [{**r, "correct": not r["correct"]} for r in records]

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        mine = [r for r in records if r["part"] == self.part]
        return [rate("accuracy", [(cluster(r), r["correct"]) for r in mine])]


def test_composite_delegates_every_hook_to_its_parts() -> None:
    a, b = Tiny("a", rejudge=False), Tiny("b", rejudge=True)
    quick = CompositeSuite("both", (a, b), paper="p", description="d", tables="t")
    quick.prepare(OfflineFlows())
    assert (a.prepared, b.prepared) == (1, 1) and quick.count() == 4
    cases = list(quick.cases())
    assert [c.part for c in cases] == ["a", "a", "b", "b"]
    records = [r for c in cases for r in quick.records(c, (Response("yes"),))]
    assert all(r["correct"] for r in records) and quick.needs_rejudge()
    rejudged = quick.rejudge(records, OfflineFlows())
    assert [r["correct"] for r in rejudged] == [True, True, False, False]  # only b rejudges
    metrics = quick.metrics(rejudged)
    assert [(m.group["suite"], m.value) for m in metrics] == [("tiny.a", 1.0), ("tiny.b", 0.0)]
    assert quick.run_notes() == {"made": "b"}  # later parts win; empty notes left out
    assert quick.judge_name == "judge-a (tiny), judge-b (tiny)"
    assert quick.parts() == (a, b) and a.parts() == (a,)


def test_the_runner_never_probes_a_suite() -> None:
    for path in (SRC / "run").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"getattr\(\s*suite", text), path.name
        assert not re.search(r"hasattr\(\s*suite", text), path.name


def test_no_module_of_the_package_is_over_500_lines() -> None:
    big = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py")
           if (n := len(p.read_text().splitlines())) > 500}
    assert big == {}
