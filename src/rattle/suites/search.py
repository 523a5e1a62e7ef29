"""Search suites: the smallest edit that changes each answer, under a query budget.

- ``search.mc``: multiple-choice items (RCC data, mini-mc), one search per question; the
  passage (or the question when there is none) is attacked; goal ``flip`` by default.
- ``search.qa``: short-answer QA; ``target=question`` attacks the question,
  ``target=documents`` the first retrieved passage that holds the answer; goal ``wrong``.
- ``search.claims``: factual claims asked for a yes/no verdict; goal ``verdict_flip``.
- ``search.prompt``: promptbench's setting: the instruction template is attacked once for the
  whole dataset, the goal is the largest accuracy drop, reported as PDR.

Each case is one search, run as a flow on the run's executor (``Suite.flow``): every query goes
through the store, a search step's candidates go out as one batch, and a rerun resumes
without asking again. Records: the original answer and the attacked one, whose ``edits`` are
the found adversarial edits (``labels`` carry queries, answers before and after, similarity).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from rattle.attacks.search.build import make_attack
from rattle.attacks.search.engine import Attack, SearchResult, Tried
from rattle.datasets import load_dataset
from rattle.errors import ConfigError
from rattle.flows import Flow
from rattle.items import Item, Judgement, Response, Target, derived
from rattle.metrics.core import MetricValue
from rattle.metrics.search import prompt_metrics, search_metrics
from rattle.papers import Paper
from rattle.perturbations.prompts import RCC_TEMPLATES
from rattle.records import Record
from rattle.registry import register
from rattle.seeding import derive_seed
from rattle.suites.base import Case, Suite, base_record
from rattle.suites.qa import CLOSED_PROMPT
from rattle.suites.search_tasks import (ChoiceTask, ClaimTask, ShortAnswerTask, TemplateTask)
from rattle.systems import System

TEXTATTACK = Paper("textattack", "TextAttack: A Framework for Adversarial Attacks, Data "
                   "Augmentation, and Adversarial Training in NLP", "Morris et al.", 2020,
                   "EMNLP 2020 System Demonstrations", "2005.05909")
PROMPTBENCH = Paper("promptbench", "PromptRobust: Towards Evaluating the Robustness of Large "
                    "Language Models on Adversarial Prompts", "Zhu et al.", 2023,
                    "arXiv preprint", "2306.04528")

# Character, homoglyph and synonym edits of one word, and deleting it (the four
# transformations; one proposal each per word except up to five synonyms).
TRANSFORMATIONS = "chars.delete,chars.insert,chars.repeat,visual.homoglyph,words.synonym,words.delete"
CONSTRAINTS = "protected,max_words,same_pos,similarity"
# promptbench searches a template with its whole instruction editable and no word limit
# (BertAttack: max_word_perturbed_percent 1); label words stay protected.
PROMPT_CONSTRAINTS = "protected?stop_words=true&entities=false,max_words?max_share=1,same_pos,similarity"
# RALM Appendix B's closed-QA instruction (``suites.qa.CLOSED_PROMPT`` before its question).
QA_INSTRUCTION = CLOSED_PROMPT.split("\nQ:")[0]
BUDGET = 50  # queries per search: the largest of the benchmark budgets (10, 25, 50)
PROMPT_BUDGET = 20  # template evaluations (each asks the whole dataset)

Family = Literal["mc", "qa", "claims"]
DEFAULT_DATASET = {"mc": "mini-mc", "qa": "mini-qa", "claims": "factoid-claims"}
DEFAULT_GOAL = {"mc": "flip", "qa": "wrong", "claims": "verdict_flip"}
TABLES = ("attack success rate, queries per success (mean, median), perturbed word rate, "
          "similarity, accuracy before/under attack, worst-case accuracy, any-flip rate")


@dataclass
class SearchSuite(Suite):
    """One search per question (mc), item (qa) or claim (claims); see the module docstring."""

    family: Family
    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    method: str = "greedy"
    goal: str | None = None
    budget: int = BUDGET
    transformations: str = TRANSFORMATIONS
    constraints: str = CONSTRAINTS
    similarity: bool = True
    protocol: Literal["single", "loglik", "letter"] = "single"
    target: str = "auto"
    k: int = 5
    part: str = ""
    skip_invalid: bool = False
    notes: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = f"search.{self.family}"
        self.paper = TEXTATTACK.citation
        self.description = (__doc__ or "").strip()
        self.tables = TABLES
        self.datasets = [self.dataset or DEFAULT_DATASET[self.family]]
        self.goal = self.goal or DEFAULT_GOAL[self.family]
        targets = {"mc": ("auto", "passage", "question"), "qa": ("question", "documents"),
                   "claims": ("auto", "claim")}[self.family]
        if self.family == "qa" and self.target == "auto":
            self.target = "question"
        if self.target not in targets:
            raise ConfigError(f"{self.name}: target must be one of {', '.join(targets)}, "
                              f"got {self.target!r}")
        self.attack: Attack = make_attack(method=self.method, goal=self.goal, budget=self.budget,
                                          transformations=self.transformations,
                                          constraints=self.constraints,
                                          measure_similarity=self.similarity)
        self.judge_name = {"mc": "choice@1", "qa": "qa.match@1",
                           "claims": "claims.verdict@1"}[self.family]
        self._units: list[tuple[str, Item, int, Any]] | None = None
        self._tasks: dict[str, Any] = {}

    def items(self) -> list[Item]:
        skipped: list[str] = self.notes.setdefault("skipped_invalid", [])
        return load_dataset(self.datasets[0], limit=self.limit, skip_invalid=self.skip_invalid,
                            skipped=skipped)

    def units(self) -> list[tuple[str, Item, int, Any]]:
        """(case id, item, question index, task) of every search."""
        if self._units is None:
            out: list[tuple[str, Item, int, Any]] = []
            skipped: Counter[str] = Counter()
            for item in self.items():
                if self.family == "mc":
                    target = self.target if self.target != "auto" else (
                        "passage" if item.passage else "question")
                    if target == "passage" and not item.passage:
                        skipped["no passage"] += 1
                        continue
                    for j, q in enumerate(item.questions):
                        if not q.options:
                            skipped["not multiple-choice"] += 1
                            continue
                        task = ChoiceTask(item, j, target, self.protocol)  # type: ignore[arg-type]
                        out.append((f"{item.id}#{j}", item, j, task))
                elif self.family == "qa":
                    if self.target == "documents" and not item.documents:
                        skipped["no documents"] += 1
                        continue
                    out.append((item.id, item, 0, ShortAnswerTask(item, self.target, self.k)))  # type: ignore[arg-type]
                else:
                    out.append((item.id, item, 0, ClaimTask(item)))
            self.notes["units_skipped"] = dict(skipped)
            self._units = out
        return self._units

    def count(self) -> int:
        return len(self.units())

    def cases(self) -> Iterator[Case]:
        self.notes["attack"] = self.attack.describe()
        for case_id, item, j, task in self.units():
            variant = derived(item, f"{case_id}/original", seed=self.seed, target=self._target(task))
            self._tasks[case_id] = task
            yield Case(case_id, variant, task.queries(task.text)[0],
                       {"sub": j, "method": self.attack.method.name}, self.part)

    def _target(self, task: Any) -> Target:
        if isinstance(task, ChoiceTask):
            return task.target
        if isinstance(task, ShortAnswerTask):
            return task.target
        return "claim"

    def flow(self, case: Case, system: System) -> Flow:
        """The search of this case, driving ``system`` (many queries, through the store)."""
        key = derive_seed(self.seed, case.id, "search", self.attack.describe())
        return self.attack.flow(self._tasks[case.id], system, key)

    def records(self, case: Case, responses: Any) -> list[Record]:
        result: SearchResult = responses
        task = self._tasks.pop(case.id)
        outcomes = self.notes.setdefault("outcomes", {})
        key = f"{result.outcome}: {result.reason}" if result.reason else result.outcome
        outcomes[key] = outcomes.get(key, 0) + 1
        rejected = self.notes.setdefault("candidates_rejected", {})
        for name, n in result.rejected.items():
            rejected[name] = rejected.get(name, 0) + n
        return attack_records(case, result, self.attack, task, self.seed, self._target(task),
                              self.judge_name,
                              extra={"document": getattr(task, "attacked_document", None)})

    def metric_fields(self) -> tuple[str, ...]:
        return ("part", "dataset", "item_id", "sub", "attack", "group", "correct", "answer",
                "status", "labels")

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        return search_metrics([r for r in records if r["part"] == self.part], seed=self.seed)


def attack_records(case: Case, result: SearchResult, attack: Attack, task: Any, seed: int,
                   target: Target, judge: str, *,
                   extra: dict[str, Any] | None = None) -> list[Record]:
    """The original record and the attacked one (its edits: the adversarial example's)."""
    j = int(case.group.get("sub", 0))
    question = case.query.question
    original = result.original
    before = _record(case, j, question, original, _status(original), judge)
    found = result.found if result.outcome == "success" else None
    shown = found or original
    item = case.variant.item
    variant = derived(item, f"{case.id}/search.{attack.method.name}",
                      attack=f"search.{attack.method.name}", version=1, params=attack.describe(),
                      seed=seed, target=target,
                      edits=found.candidate.edits if found is not None else ())
    attacked_case = Case(case.id, variant, case.query,
                         {**case.group, "attack": "search"}, case.part)
    after = _record(attacked_case, j, question, shown, result.outcome, judge)
    changed = len(found.candidate.changes) if found is not None else 0
    after["labels"].update({
        "outcome": result.outcome, "reason": result.reason, "queries": result.queries,
        "answer_before": None if original is None else original.answer.value,
        "answer_after": None if shown is None else shown.answer.value,
        "response_before": "" if original is None else original.answer.text,
        "text_before": task.text,
        "text_after": found.candidate.text if found is not None else task.text,
        "words": result.words, "modifiable": result.modifiable, "words_changed": changed,
        "perturbed_word_rate": changed / result.words if found is not None and result.words else None,
        "similarity": result.similarity if found is not None else None,
        "transformations": [c.how for c in found.candidate.changes] if found is not None else [],
        "best_score": None if result.found is None else round(result.found.score, 6),
        "rejected": result.rejected, **(extra or {}),
    })
    before["group"] = {**case.group, "attack": "original"}
    return [before, after]


def _status(tried: Tried | None) -> str:
    if tried is None or tried.answer.error:
        return "error"
    return "unparsed" if tried.answer.value is None else "parsed"


def _record(case: Case, j: int, question: str, tried: Tried | None, status: str,
            judge: str) -> Record:
    answer = tried.answer if tried is not None else None
    response = Response(answer.text if answer else "", error=answer.error if answer else
                        "not asked")
    correct = answer.correct if answer is not None else None
    judgement = Judgement(correct, None if answer is None or answer.value is None
                          else str(answer.value), {"status": status}, "", judge)
    rec = base_record(case, j, question, response, judgement)
    rec["answer"] = answer.value if answer is not None else None
    return rec


# The options the search suites share (each factory's signature is its configuration).
Dataset = Annotated[str | None, "data: RCC primitive JSON, <format>:<file>, mini-mc, mini-qa, ..."]
Limit = Annotated[int | None, "use only the first N items"]
Seed = Annotated[int, "run seed: same seed, same search"]
Method = Annotated[str, "search method: greedy, beam?width=4, random (rattle list search_method)"]
Budget = Annotated[int, "queries per search, the original included"]
Transformations = Annotated[str, "word edits, comma-separated, options after ? (rattle list transformation)"]
Constraints = Annotated[str, "constraints, comma-separated, options after ? (rattle list constraint)"]
Similarity = Annotated[bool, "report found examples' similarity (all-MiniLM-L6-v2)"]
SkipInvalid = Annotated[bool, "skip malformed data lines (counted)"]
Protocol = Annotated[Literal["single", "loglik", "letter"],
                     "one question per request, option log-likelihood, or option-letter probability"]


@register("suite", "search.mc")
def search_mc(*, dataset: Dataset = None, limit: Limit = None, seed: Seed = 0,
              method: Method = "greedy",
              goal: Annotated[str, "flip (answer changes) or wrong (no longer correct)"] = "flip",
              budget: Budget = BUDGET, transformations: Transformations = TRANSFORMATIONS,
              constraints: Constraints = CONSTRAINTS, similarity: Similarity = True,
              protocol: Protocol = "single",
              target: Annotated[str, "auto (passage, else question), passage or question"] = "auto",
              skip_invalid: SkipInvalid = False) -> SearchSuite:
    """Smallest edit of an MC passage/question that changes the answer: ASR, queries (TextAttack)."""
    return SearchSuite("mc", dataset=dataset, limit=limit, seed=seed, method=method, goal=goal,
                       budget=budget, transformations=transformations, constraints=constraints,
                       similarity=similarity, protocol=protocol, target=target,
                       skip_invalid=skip_invalid)


@register("suite", "search.qa")
def search_qa(*, dataset: Dataset = None, limit: Limit = None, seed: Seed = 0,
              method: Method = "greedy",
              goal: Annotated[str, "wrong (no longer correct) or flip (answer text changes)"] = "wrong",
              budget: Budget = BUDGET, transformations: Transformations = TRANSFORMATIONS,
              constraints: Constraints = CONSTRAINTS, similarity: Similarity = True,
              target: Annotated[Literal["question", "documents"], "attack the question or the answer-bearing passage"] = "question",
              k: Annotated[int, "documents shown (the data's first k ctxs; 0: closed-book)"] = 5,
              skip_invalid: SkipInvalid = False) -> SearchSuite:
    """Smallest edit of a question or retrieved passage that breaks a short answer."""
    return SearchSuite("qa", dataset=dataset, limit=limit, seed=seed, method=method, goal=goal,
                       budget=budget, transformations=transformations, constraints=constraints,
                       similarity=similarity, target=target, k=k, skip_invalid=skip_invalid)


@register("suite", "search.claims")
def search_claims(*, dataset: Dataset = None, limit: Limit = None, seed: Seed = 0,
                  method: Method = "greedy",
                  goal: Annotated[str, "verdict_flip (yes/no changes) or wrong"] = "verdict_flip",
                  budget: Budget = BUDGET, transformations: Transformations = TRANSFORMATIONS,
                  constraints: Constraints = CONSTRAINTS, similarity: Similarity = True,
                  skip_invalid: SkipInvalid = False) -> SearchSuite:
    """Smallest edit of a true claim that flips the target's yes/no verdict."""
    return SearchSuite("claims", dataset=dataset, limit=limit, seed=seed, method=method,
                       goal=goal, budget=budget, transformations=transformations,
                       constraints=constraints, similarity=similarity,
                       skip_invalid=skip_invalid)



@dataclass
class PromptSearchSuite(Suite):
    """promptbench's prompt attack: one search over the instruction template of a dataset."""

    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    method: str = "greedy"
    budget: int = PROMPT_BUDGET
    transformations: str = TRANSFORMATIONS
    constraints: str = PROMPT_CONSTRAINTS
    similarity: bool = True
    protocol: Literal["single", "loglik", "letter"] = "single"
    template: str | None = None
    part: str = ""
    skip_invalid: bool = False
    notes: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.name = "search.prompt"
        self.paper = PROMPTBENCH.citation
        self.description = (__doc__ or "").strip()
        self.tables = "clean and attacked accuracy, PDR (promptbench), template before and after"
        self.datasets = [self.dataset or "mini-mc"]
        self.judge_name = "choice@1 / qa.match@1"
        self.attack = make_attack(method=self.method, goal="drop", budget=self.budget,
                                  transformations=self.transformations,
                                  constraints=self.constraints, measure_similarity=self.similarity)
        self._task: TemplateTask | None = None

    def task(self) -> TemplateTask:
        if self._task is None:
            skipped: list[str] = self.notes.setdefault("skipped_invalid", [])
            items = load_dataset(self.datasets[0], limit=self.limit,
                                 skip_invalid=self.skip_invalid, skipped=skipped)
            units = [(item, j) for item in items for j in range(len(item.questions))]
            multiple_choice = any(item.questions[j].options for item, j in units)
            template = self.template or (RCC_TEMPLATES[0] if multiple_choice else QA_INSTRUCTION)
            self._task = TemplateTask(units, template, self.protocol)
        return self._task

    def count(self) -> int:
        return 1

    def cases(self) -> Iterator[Case]:
        self.notes["attack"] = self.attack.describe()
        task = self.task()
        first, _ = task.units[0]
        variant = derived(first, "prompt/original", seed=self.seed, target="prompt")
        yield Case("prompt", variant, task.queries(task.text)[0], {}, self.part)

    def flow(self, case: Case, system: System) -> Flow:
        """The template search, every candidate asked over the whole dataset."""
        key = derive_seed(self.seed, "prompt", self.attack.describe())
        return self.attack.flow(self.task(), system, key)

    def records(self, case: Case, responses: Any) -> list[Record]:
        result: SearchResult = responses
        task = self.task()
        found = result.found if result.outcome == "success" else None
        out: list[Record] = []
        searched = f"search.{self.attack.method.name}"
        for i, (item, j) in enumerate(task.units):
            q = item.questions[j]
            for label, tried in (("original", result.original), ("search", found or result.original)):
                value, correct, reply = tried.answer.parts[i] if tried is not None else (None, None, "")
                variant = derived(item, f"{item.id}#{j}/prompt/{label}", seed=self.seed,
                                  target="prompt",
                                  edits=found.candidate.edits if label == "search" and found else (),
                                  attack="original" if label == "original" else searched,
                                  version=0 if label == "original" else 1,
                                  params={} if label == "original" else self.attack.describe())
                status = (result.outcome if label == "search"
                          else "unparsed" if value is None else "parsed")
                rec = base_record(Case(variant.id, variant, case.query, {"sub": j, "attack": label},
                                       self.part), j, q.text, Response(reply),
                                  Judgement(correct, None if value is None else str(value),
                                            {"status": status}, "", self.judge_name))
                rec["answer"] = value
                if label == "search":
                    rec["labels"].update(_prompt_labels(result, found, task.text))
                out.append(rec)
        return out

    def metric_fields(self) -> tuple[str, ...]:
        return ("part", "dataset", "item_id", "sub", "attack", "group", "correct", "answer",
                "status", "labels")

    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        return prompt_metrics([r for r in records if r["part"] == self.part], seed=self.seed)


def _prompt_labels(result: SearchResult, found: Tried | None, template: str) -> dict[str, Any]:
    original = result.original
    shown = found or original
    return {"outcome": result.outcome, "reason": result.reason, "queries": result.queries,
            "template_before": template,
            "template_after": found.candidate.text if found is not None else template,
            "accuracy_before": None if original is None else original.answer.value,
            "accuracy_after": None if shown is None else shown.answer.value,
            "words": result.words, "words_changed": len(found.candidate.changes) if found else 0,
            "similarity": result.similarity if found is not None else None,
            "rejected": result.rejected}


@register("suite", "search.prompt")
def search_prompt(*, dataset: Dataset = None, limit: Limit = None, seed: Seed = 0,
                  method: Method = "greedy",
                  budget: Annotated[int, "template evaluations (each asks the whole dataset)"] = PROMPT_BUDGET,
                  transformations: Transformations = TRANSFORMATIONS,
                  constraints: Constraints = PROMPT_CONSTRAINTS, similarity: Similarity = True,
                  protocol: Protocol = "single",
                  template: Annotated[str | None, "the instruction attacked (default: RCC's, or the RALM closed-QA one)"] = None,
                  skip_invalid: SkipInvalid = False) -> PromptSearchSuite:
    """Attack the instruction template once for a dataset: largest accuracy drop, PDR (promptbench)."""
    return PromptSearchSuite(dataset=dataset, limit=limit, seed=seed, method=method,
                             budget=budget, transformations=transformations,
                             constraints=constraints, similarity=similarity, protocol=protocol,
                             template=template, skip_invalid=skip_invalid)
