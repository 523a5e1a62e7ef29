"""One search attack on one text, as a sans-I/O flow (STYLE.md 10).

An :class:`Attack` is transformations + constraints + a goal + a search method under a query
budget. :class:`Problem` holds one unit's search state: it proposes candidates for a word,
filters them through the constraints (one batch per step), and evaluates them by yielding the
system's requests for every new candidate as one list (``run.executor``: a list yield is
answered as a list, each request cached and deduplicated), so a search step is one batch and
a resumed search finds its earlier answers in the store. A *query* is one evaluation of one
distinct text (the original included, as TextAttack counts), whatever number of requests it
takes (several for a prompt attack over a dataset).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from rattle.attacks.search.analysis import WordInfo
from rattle.attacks.search.constraints import Constraint, Context
from rattle.attacks.search.goals import Answer, Goal
from rattle.attacks.search.text import Candidate, Change, build, original_candidate, split_words
from rattle.attacks.search.transformations import Transformation
from rattle.errors import ConfigError
from rattle.items import Query, Response
from rattle.models.base import Completion
from rattle.seeding import canonical, derive_seed

Flow = Generator[Any, Any, Any]
_NO_INFO = WordInfo()


class Task(Protocol):
    """What one search attacks: the text, how a text is asked, how replies are read."""

    text: str
    protected_terms: frozenset[str]

    def queries(self, text: str) -> list[Query]: ...

    def read(self, text: str, responses: list[tuple[Response, ...]]) -> Answer: ...


class Answerer(Protocol):
    """The system under test (``rattle.systems.System``): a flow per query."""

    def flow(self, query: Query) -> Generator[Any, Completion, tuple[Response, ...]]: ...


def gather(flows: Sequence[Flow]) -> Generator[list[Any], list[Any], list[Any]]:
    """Run ``flows`` in lockstep: yield the requests they wait on as one list, send each its
    completion, until all are done; return their results in order."""
    results: list[Any] = [None] * len(flows)
    pending: dict[int, Any] = {}
    for i, f in enumerate(flows):
        try:
            pending[i] = next(f)
        except StopIteration as stop:
            results[i] = stop.value
    while pending:
        order = list(pending)
        completions = yield [pending[i] for i in order]
        pending = {}
        for i, completion in zip(order, completions, strict=True):
            try:
                pending[i] = flows[i].send(completion)
            except StopIteration as stop:
                results[i] = stop.value
    return results


@dataclass(frozen=True)
class Tried:
    """A candidate the target answered: the answer, whether the goal is met, its score, and
    which query (1-based) asked it."""

    candidate: Candidate
    answer: Answer
    success: bool
    score: float
    query: int


Outcome = Literal["success", "failed", "skipped"]


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the outcome, the original and the adversarial (or, failing
    that, the best-scoring) candidate, the queries spent and the constraint rejections."""

    outcome: Outcome
    original: Tried | None
    found: Tried | None
    queries: int
    words: int
    modifiable: int
    reason: str = ""
    similarity: float | None = None
    rejected: dict[str, int] = field(default_factory=dict)


SearchFn = Callable[["Problem"], Generator[Any, Any, None]]


@dataclass(frozen=True)
class Method:
    """A search method: ``run(problem)`` drives the search (a flow) and leaves the result on
    the problem (``problem.found``, ``problem.best``)."""

    name: str
    run: SearchFn
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Attack:
    """Transformations + constraints + goal + search method under a per-unit query budget.

    ``measure`` scores found examples' similarity to the original (the ``similarity``
    constraint's encoder, or one given for reporting when that constraint is off)."""

    transformations: tuple[Transformation, ...]
    constraints: tuple[Constraint, ...]
    goal: Goal
    method: Method
    budget: int
    measure: Callable[[str, Sequence[str]], list[float]] | None = None

    def __post_init__(self) -> None:
        if self.budget < 1:
            raise ConfigError(f"search budget must be at least 1 query, got {self.budget}")
        if not self.transformations:
            raise ConfigError("a search needs at least one transformation")

    @property
    def needs_analysis(self) -> bool:
        return any(c.needs_analysis for c in self.constraints) or any(
            t.swap for t in self.transformations)

    def describe(self) -> dict[str, Any]:
        """Provenance: every part with its options (recorded in each record's params)."""
        return {"method": self.method.name, "method_options": self.method.options,
                "goal": self.goal.name, "budget": self.budget,
                "transformations": [[t.name, t.options] for t in self.transformations],
                "constraints": [[c.name, c.options] for c in self.constraints]}

    def flow(self, task: Task, system: Answerer, key: int) -> Generator[Any, Any, SearchResult]:
        """Search ``task`` against ``system``; ``key`` seeds every random choice."""
        problem = Problem(self, task, system, key)
        original = yield from problem.evaluate([original_candidate(task.text)])
        problem.original = original[0] if original else None
        if problem.original is None:
            return problem.result("skipped", "original not asked (budget)")
        reason = self.goal.skip(problem.original.answer)
        if reason is not None:
            return problem.result("skipped", reason)
        if not problem.modifiable:
            return problem.result("skipped", "no word can be edited under the constraints")
        if not problem.room(1):
            return problem.result("skipped", f"max_words allows no edit in "
                                             f"{len(problem.ctx.words)} words")
        yield from self.method.run(problem)
        found = problem.found
        if found is not None and (found.success or (self.goal.maximize and found.score > 0)):
            return problem.result("success")
        return problem.result("failed", "query budget spent" if problem.exhausted
                              else "no candidate left")


class Problem:
    """One unit's search state (see the module docstring)."""

    def __init__(self, attack: Attack, task: Task, system: Answerer, key: int) -> None:
        self.attack, self.task, self.system, self.key = attack, task, system, key
        words = split_words(task.text)
        info: tuple[Any, ...] = ()
        if attack.needs_analysis and words:
            from rattle.attacks.search.analysis import analyse

            info = analyse([task.text], [words])[0]
        self.ctx = Context(task.text, words, info, task.protected_terms)
        self.queries = 0
        self.memo: dict[str, Tried] = {}
        self.rejected: Counter[str] = Counter()
        self.original: Tried | None = None
        self.found: Tried | None = None  # a success (or the best so far when maximising)
        allowed = [i for i in range(len(words))
                   if all(c.word is None or c.word(self.ctx, i) for c in attack.constraints)]
        # TextAttack ranks only the words some transformation can edit.
        self.modifiable = [i for i in allowed if any(self.proposals(i, t) for t in attack.transformations)]

    # -- candidates -----------------------------------------------------------------------------
    def proposals(self, index: int, t: Transformation) -> list[str]:
        info = self.ctx.info[index] if self.ctx.info else _NO_INFO
        key = derive_seed(self.key, t.name, canonical(t.options), index)
        return t.candidates(self.ctx.words[index], info, key)

    def room(self, n_changed: int) -> bool:
        """Whether ``n_changed`` edited words are allowed."""
        return all(c.count is None or c.count(self.ctx, n_changed) for c in self.attack.constraints)

    @property
    def exhausted(self) -> bool:
        return self.queries >= self.attack.budget

    def expand(self, base: Candidate, index: int) -> list[tuple[Candidate, int | None]]:
        """Every candidate that edits word ``index`` of ``base`` (one transformation each),
        with the swapped word index for word swaps."""
        if index in base.changed() or not self.room(len(base.changes) + 1):
            return []
        changes = {c.index: c for c in base.changes}
        out = []
        for t in self.attack.transformations:
            for after in self.proposals(index, t):
                made = build(self.ctx.text, self.ctx.words, {**changes, index: Change(index, after, t.name)})
                out.append((made, index if t.swap else None))
        return out

    def admissible(self, pairs: Sequence[tuple[Candidate, int | None]]) -> list[Candidate]:
        """The candidates every text constraint keeps (checked in order, one batch each);
        rejections are counted per constraint."""
        keep = list(pairs)
        for c in self.attack.constraints:
            if c.texts is None or not keep:
                continue
            mask = c.texts(self.ctx, [p[0] for p in keep], [p[1] for p in keep])
            self.rejected[c.name] += mask.count(False)
            keep = [p for p, ok in zip(keep, mask, strict=True) if ok]
        return [p[0] for p in keep]

    # -- asking ---------------------------------------------------------------------------------
    def evaluate(self, candidates: Sequence[Candidate]) -> Generator[Any, Any, list[Tried]]:
        """The candidates' answers: new texts are asked (one list yield for all of them, up to
        the budget), texts asked before come from this search's memo at no cost."""
        new: list[Candidate] = []
        for c in candidates:
            if c.text not in self.memo and all(c.text != n.text for n in new):
                new.append(c)
        new = new[: max(0, self.attack.budget - self.queries)]
        if new:
            per_text = [self.task.queries(c.text) for c in new]
            flows = [self.system.flow(q) for qs in per_text for q in qs]
            replies = yield from gather(flows)
            at = 0
            for c, qs in zip(new, per_text, strict=True):
                answer = self.task.read(c.text, replies[at:at + len(qs)])
                at += len(qs)
                self.queries += 1
                if self.original is None:
                    success, score = False, 0.0
                else:
                    success, score = self.attack.goal.judge(self.original.answer, answer)
                self.memo[c.text] = Tried(c, answer, success, score, self.queries)
        return [self.memo[c.text] for c in _unique(candidates) if c.text in self.memo]

    def best(self, tried: Sequence[Tried]) -> Tried:
        """The best of a step: among successes the most similar to the original (as
        TextAttack's greedy search), otherwise the highest score (first on ties)."""
        wins = [t for t in tried if t.success]
        if len(wins) > 1 and self.attack.measure is not None:
            sims = self.attack.measure(self.ctx.text, [t.candidate.text for t in wins])
            return wins[max(range(len(wins)), key=lambda i: (sims[i], -i))]
        if wins:
            return wins[0]
        return max(tried, key=lambda t: t.score)

    def consider(self, tried: Sequence[Tried]) -> bool:
        """Keep the step's best if it beats what was found; True when the search is done."""
        if not tried:
            return False
        top = self.best(tried)
        better = self.found is None or top.success or top.score > self.found.score
        if better and top.candidate.changes:
            self.found = top
        return top.success and not self.attack.goal.maximize

    # -- the result -----------------------------------------------------------------------------
    def result(self, outcome: Outcome, reason: str = "") -> SearchResult:
        similarity = None
        if self.found is not None and self.attack.measure is not None and outcome != "skipped":
            similarity = self.attack.measure(self.ctx.text, [self.found.candidate.text])[0]
        return SearchResult(outcome, self.original, self.found if outcome != "skipped" else None,
                            self.queries, len(self.ctx.words), len(self.modifiable), reason,
                            similarity, dict(self.rejected))


def _unique(candidates: Sequence[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    out = []
    for c in candidates:
        if c.text not in seen:
            seen.add(c.text)
            out.append(c)
    return out

