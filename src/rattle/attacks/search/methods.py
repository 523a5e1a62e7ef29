"""Search methods (kind ``search_method``): greedy, beam and random, each under the budget.

- ``greedy``: TextAttack's greedy word-importance search (GreedyWordSwapWIR, "delete"
  ranking; Morris et al. 2020, arXiv:2005.05909): every editable word is deleted once (leave
  one out) and words are ranked by how far that moves the answer; then, word by word in that
  order, all candidate edits of the word are asked as one batch and the best is kept if it
  scores higher, until the goal is met or the budget is spent.
- ``beam``: the same word order, keeping the ``width`` best texts at each step instead of one
  (greedy is beam with width 1). TextAttack's BeamSearch instead expands every word at every
  step, which costs (words x edits) queries per step: more than a 10-50 query budget.
- ``random``: best-of-N random edits (garak's buffs, promptfoo's best-of-N strategy): each try
  edits ``words`` random editable words with a random proposal; the first try that meets the
  goal wins.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Annotated, Any

from rattle.attacks.search.engine import Method, Problem, Tried
from rattle.attacks.search.text import Candidate, Change, build
from rattle.errors import ConfigError
from rattle.registry import register
from rattle.seeding import rng_for

Steps = Generator[Any, Any, None]


def rank(p: Problem) -> Generator[Any, Any, list[int]]:
    """Leave-one-out word importance: the editable words, most important first (unasked
    ones, past the budget, last; ties in text order). A deletion that already meets the goal
    is kept when ``words.delete`` is one of the attack's transformations."""
    probes = [build(p.ctx.text, p.ctx.words, {i: Change(i, "", "words.delete")})
              for i in p.modifiable]
    tried = yield from p.evaluate(probes)
    importance = {t.candidate.changes[0].index: t.score for t in tried}
    if any(t.name == "words.delete" for t in p.attack.transformations):
        allowed = {c.text for c in p.admissible([(t.candidate, None) for t in tried])}
        p.consider([t for t in tried if t.candidate.text in allowed])
    return sorted(p.modifiable, key=lambda i: (-importance.get(i, -1.0), i))


def _done(p: Problem) -> bool:
    return p.found is not None and p.found.success and not p.attack.goal.maximize


def _beam(width: int) -> Any:
    def run(p: Problem) -> Steps:
        order = yield from rank(p)
        if _done(p):
            return
        assert p.original is not None
        beam: list[Tried] = [p.original]
        for i in order:
            if p.exhausted:
                return
            pairs = [pair for state in beam for pair in p.expand(state.candidate, i)]
            candidates = p.admissible(pairs)
            if not candidates:
                continue
            tried = yield from p.evaluate(candidates)
            if p.consider(tried):
                return
            pool = _unique([*beam, *tried])  # beam first: ties keep the current texts
            beam = sorted(pool, key=lambda t: -t.score)[:width]

    return run


def _unique(tried: Sequence[Tried]) -> list[Tried]:
    seen: set[str] = set()
    out = []
    for t in tried:
        if t.candidate.text not in seen:
            seen.add(t.candidate.text)
            out.append(t)
    return out


@register("search_method", "greedy")
def greedy() -> Method:
    """Greedy word-importance search (TextAttack GreedyWordSwapWIR, leave-one-out ranking)."""
    return Method("greedy", _beam(1))


@register("search_method", "beam")
def beam(*, width: Annotated[int, "texts kept at each step"] = 4) -> Method:
    """Beam search of `width` texts over the greedy word order (importance ranking)."""
    if width < 1:
        raise ConfigError(f"beam: width must be at least 1, got {width}")
    return Method("beam", _beam(width), {"width": width})


# Tries allowed per query of budget before a random search gives up: tries whose text was
# asked before or that a constraint rejects cost no query.
TRIES_PER_QUERY = 20


@register("search_method", "random")
def random_edits(*, words: Annotated[int, "words edited per try (capped by max_words)"] = 1,
                 step: Annotated[int, "tries asked per batch"] = 1) -> Method:
    """Best-of-N random edits (garak buffs, promptfoo best-of-N): the baseline."""
    if words < 1 or step < 1:
        raise ConfigError(f"random: words and step must be at least 1, got {words}, {step}")

    def run(p: Problem) -> Steps:
        rng = rng_for(p.key, "random")
        menu = {i: [(t, after) for t in p.attack.transformations for after in p.proposals(i, t)]
                for i in p.modifiable}
        k = max((n for n in range(1, min(words, len(p.modifiable)) + 1) if p.room(n)), default=0)
        tries = 0
        while k and not p.exhausted and tries < p.attack.budget * TRIES_PER_QUERY:
            pairs: list[tuple[Candidate, int | None]] = []
            for _ in range(step):
                chosen = sorted(rng.sample(p.modifiable, k))
                changes: dict[int, Change] = {}
                swapped = None
                for i in chosen:
                    t, after = menu[i][rng.randrange(len(menu[i]))]
                    changes[i] = Change(i, after, t.name)
                    if t.swap and swapped is None:
                        swapped = i
                pairs.append((build(p.ctx.text, p.ctx.words, changes), swapped))
            tries += step
            candidates = p.admissible(pairs)
            if not candidates:
                continue
            tried = yield from p.evaluate(candidates)
            if p.consider(tried):
                return

    return Method("random", run, {"words": words, "step": step})
