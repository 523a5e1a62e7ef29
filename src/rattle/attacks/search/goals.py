"""Goals: when has a search succeeded, and how close is a candidate (kind ``goal``).

A goal compares the target's answer to a candidate with its answer to the original text. It
says whether to attack at all (``skip``: a reason, e.g. the original is already wrong, as
TextAttack skips examples its model gets wrong), whether a candidate succeeds, and a score in
[0, 1] that ranks words and candidates: 1 for a success, otherwise how far the answer moved.
Where the target scored the options (log-likelihood protocols) the score is the probability
taken from the original answer; for generated replies it is the character distance between
the replies (a reply that changes is closer to changing its answer).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rattle.errors import ConfigError
from rattle.registry import register

# Scores of unsuccessful candidates stay below a success.
BELOW_SUCCESS = 0.999


@dataclass(frozen=True)
class Answer:
    """The target's answer to one text, as goals read it.

    ``value`` is the parsed answer (an option index, a normalised short answer, a yes/no
    verdict, or a dataset accuracy), None when unmeasured; ``probs`` the probability of each
    answer where the target scored them; ``parts`` the per-question answers of a dataset
    evaluation (prompt attacks); ``error`` why the request failed, if it did.
    """

    value: Any
    correct: bool | None
    text: str = ""
    probs: Mapping[Any, float] = field(default_factory=dict)
    gold: Any = None
    verdict: bool | None = None
    parts: tuple[Any, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class Goal:
    """A named goal: ``skip(original)`` -> reason or None; ``judge(original, new)`` ->
    (success, score in [0, 1]); ``maximize``: keep searching after a success is impossible
    (the prompt attack's accuracy drop has no success, only a largest drop)."""

    name: str
    skip: Callable[[Answer], str | None]
    judge: Callable[[Answer, Answer], tuple[bool, float]]
    maximize: bool = False


def _distance(a: str, b: str) -> float:
    return 1.0 - difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _partial(original: Answer, new: Answer, anchor: Any) -> float:
    if new.probs and anchor is not None:
        score = 1.0 - float(new.probs.get(anchor, 0.0))
    else:
        score = _distance(original.text, new.text)
    return min(max(score, 0.0), BELOW_SUCCESS)


@register("goal", "flip")
def flip() -> Goal:
    """The parsed answer differs from the original's (any change, right or wrong)."""

    def skip(original: Answer) -> str | None:
        return "original answer unmeasured" if original.value is None else None

    def judge(original: Answer, new: Answer) -> tuple[bool, float]:
        if new.value is not None and new.value != original.value:
            return True, 1.0
        return False, _partial(original, new, original.value)

    return Goal("flip", skip, judge)


@register("goal", "wrong")
def wrong() -> Goal:
    """An answer the original got right is no longer correct."""

    def skip(original: Answer) -> str | None:
        if original.correct is None:
            return "original answer unmeasured"
        return None if original.correct else "original answer already wrong"

    def judge(original: Answer, new: Answer) -> tuple[bool, float]:
        if new.correct is False:
            return True, 1.0
        return False, _partial(original, new, original.gold)

    return Goal("wrong", skip, judge)


@register("goal", "verdict_flip")
def verdict_flip() -> Goal:
    """A claim's yes/no verdict differs from the verdict on the original claim."""

    def skip(original: Answer) -> str | None:
        if original.verdict is None and original.value is not None:
            raise ConfigError("goal verdict_flip needs claims answered with a verdict "
                              "(suite search.claims); use goal=flip or goal=wrong here")
        return "original verdict unmeasured" if original.verdict is None else None

    def judge(original: Answer, new: Answer) -> tuple[bool, float]:
        if new.verdict is not None and new.verdict != original.verdict:
            return True, 1.0
        return False, _partial(original, new, None)

    return Goal("verdict_flip", skip, judge)


@register("goal", "drop")
def drop() -> Goal:
    """The largest relative accuracy drop over a dataset (promptbench's prompt attack, PDR)."""

    def skip(original: Answer) -> str | None:
        if original.value is None:
            return "clean accuracy unmeasured"
        return None if original.value > 0 else "clean accuracy is 0: nothing to drop"

    def judge(original: Answer, new: Answer) -> tuple[bool, float]:
        if new.value is None:
            return False, 0.0
        return False, max(0.0, (original.value - new.value) / original.value)

    return Goal("drop", skip, judge, maximize=True)
