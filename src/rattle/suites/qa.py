"""``qa.context``: short-answer QA closed-book, with the gold document, and with a distractor.

The RALM paper's prompts (Park & Lee 2024, arXiv:2410.15107; Appendix A Table 9 "Normal" and
Appendix B closed QA); documents come from the data (``ctxs``). Accuracy is has-answer (a gold
alias appears in the reply), with SQuAD EM and F1 beside it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from rattle.datasets import load_dataset
from rattle.items import Document, Item, Query, Response, Variant, derived
from rattle.judges.qa import QAJudge
from rattle.metrics.core import MetricValue
from rattle.metrics.qa import qa_metrics
from rattle.papers import RALM
from rattle.records import Record
from rattle.registry import register
from rattle.suites.base import Case, Suite, base_record

PAPER = RALM.citation
# RALM Appendix A, Table 9 "Normal" (line breaks added between the parts).
NORMAL_PROMPT = (
    "Documents:\n{documents}\n\nUse the above documents to answer the subsequent question. "
    "Please provide the answer as a single word or term, without forming a complete sentence.\n"
    "Question: {question}\nAnswer:"
)
# RALM Appendix B, closed QA.
CLOSED_PROMPT = (
    "Answer the following question. Please provide the answer as a single word or term, "
    "without forming a complete sentence.\nQ: {question}\nA:"
)


def format_documents(docs: Sequence[Document]) -> str:
    return "\n".join(f"{d.title}: {d.text}" if d.title else d.text for d in docs)


def render(question: str, docs: Sequence[Document]) -> str:
    if not docs:
        return CLOSED_PROMPT.format(question=question)
    return NORMAL_PROMPT.format(documents=format_documents(docs), question=question)


@dataclass
class QAContextSuite(Suite):
    """Closed-book vs gold document vs gold + distractor on short-answer QA items."""

    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    part: str = ""
    default_dataset: str = "mini-qa"
    skip_invalid: bool = False
    notes: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = "qa.context"
        self.tables = "accuracy, EM and F1 closed-book / gold document / gold + distractor"
        self.paper = PAPER
        self.description = (__doc__ or "").strip()
        self.judge = QAJudge()
        self.judge_name = self.judge.name
        self.datasets = [self.dataset or self.default_dataset]

    def _skipped(self) -> list[str]:
        """Where load_dataset records lines skipped by --skip-invalid (reported in the run)."""
        skipped: list[str] = self.notes.setdefault("skipped_invalid", [])
        return skipped

    def variants(self, item: Item) -> Iterator[tuple[Variant, str]]:
        gold = tuple(d for d in item.documents if d.has_answer)
        others = tuple(d for d in item.documents if not d.has_answer)
        for condition, docs in (("closed_book", ()), ("gold", gold[:1]),
                                ("gold+distractor", gold[:1] + others[:1])):
            if condition != "closed_book" and (not gold or (condition != "gold" and not others)):
                continue
            yield derived(item, f"{item.id}/{condition}", documents=docs,
                          label={"condition": condition}), condition

    def cases(self) -> Iterator[Case]:
        for item in load_dataset(self.datasets[0], limit=self.limit,
                                 skip_invalid=self.skip_invalid, skipped=self._skipped()):
            for variant, condition in self.variants(item):
                docs = variant.item.documents
                query = Query((render(item.question, docs),), question=item.question,
                              documents=docs)
                yield Case(variant.id, variant, query, {"condition": condition}, self.part)

    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        q = case.variant.item.questions[0]
        judgement = self.judge(q, responses[0])
        rec = base_record(case, 0, q.text, responses[0], judgement)
        rec["answer"] = judgement.parsed
        rec["gold"] = list(q.answers)
        return [rec]

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        return qa_metrics([r for r in records if r["part"] == self.part], seed=self.seed)


@register("suite", "qa.context")
def qa_context(
    *,
    dataset: Annotated[str | None, "QA data with gold/distractor ctxs (default mini-qa)"] = None,
    limit: Annotated[int | None, "use only the first N items"] = None,
    seed: Annotated[int, "run seed"] = 0,
    skip_invalid: Annotated[bool, "skip malformed data lines (counted)"] = False,
) -> QAContextSuite:
    """Short-answer QA closed-book vs with the gold document vs gold + a distractor (RALM prompts)."""
    return QAContextSuite(dataset=dataset, limit=limit, seed=seed, skip_invalid=skip_invalid)
