"""TextAttack's greedy word-importance search on the items and target of ``bench/search.py``.

Runs in a separate virtualenv that has TextAttack (it cannot share rattle's: see
docs/search.md for how that venv is made offline); ``bench/search.py --textattack PYTHON``
starts it and compares its queries per success with rattle's greedy on the same units.
The target is the lexical stand-in, wrapped as a TextAttack ``ModelWrapper`` that returns the
softmax of its option votes; the attacked text is the passage (or the question when there
is none), as in ``search.mc``. The edits are the ones both have offline: random character
deletion and insertion and word deletion (TextAttack's homoglyph swap reads a data file its
wheel does not ship). Prints one JSON object per unit.

Usage (in the TextAttack venv, rattle's ``src`` and ``bench`` on PYTHONPATH):
    python bench/search_textattack.py DATASET LIMIT BUDGET STOP_WORDS_JSON
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import replace
from typing import Any

import textattack  # type: ignore[import-not-found]
from search import LexicalStandIn  # bench/search.py: the same target
from textattack.constraints.overlap import MaxWordsPerturbed  # type: ignore[import-not-found]
from textattack.constraints.pre_transformation import (  # type: ignore[import-not-found]
    RepeatModification, StopwordModification)
from textattack.goal_functions import UntargetedClassification  # type: ignore[import-not-found]
from textattack.models.wrappers import ModelWrapper  # type: ignore[import-not-found]
from textattack.search_methods import GreedyWordSwapWIR  # type: ignore[import-not-found]
from textattack.transformations import (  # type: ignore[import-not-found]
    CompositeTransformation, WordDeletion, WordSwapRandomCharacterDeletion,
    WordSwapRandomCharacterInsertion)

import rattle.datasets.formats  # noqa: F401  (registers the readers: rattle is not installed here)
from rattle.datasets import load_dataset
from rattle.items import Item
from rattle.suites.rcc_protocol import single_turn


class Wrapper(ModelWrapper):  # type: ignore[misc]
    """The lexical stand-in's option probabilities for question ``sub`` of ``item`` with the
    attacked text put back in its place."""

    def __init__(self, item: Item, sub: int, target: str) -> None:
        self.item, self.sub, self.target = item, sub, target
        self.model = LexicalStandIn()

    def __call__(self, texts: list[str]) -> list[list[float]]:
        out = []
        q = self.item.questions[self.sub]
        options = [o.text for o in q.displayed]
        for text in texts:
            if self.target == "passage":
                shown = replace(self.item, passage=text)
            else:
                qs = list(self.item.questions)
                qs[self.sub] = replace(q, text=text)
                shown = replace(self.item, questions=tuple(qs))
            prompt = single_turn(shown, self.sub)
            votes = self.model.votes(prompt[: prompt.find("(A)")], options)
            top = max(votes)
            weights = [math.exp(v - top) for v in votes]
            out.append([w / sum(weights) for w in weights])
        return out


def main() -> None:
    dataset, limit, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(sys.argv[4], encoding="utf-8") as fh:
        stop_words = set(json.load(fh))  # spaCy's list, as rattle's protected constraint
    random.seed(0)  # TextAttack's random character edits draw from the global generator
    for item in load_dataset(dataset, limit=limit):
        target = "passage" if item.passage else "question"
        for sub, q in enumerate(item.questions):
            if not q.options:
                continue
            protected = stop_words | {w.lower() for o in q.options for w in o.text.split()}
            wrapper = Wrapper(item, sub, target)
            goal = UntargetedClassification(wrapper, query_budget=budget)
            transformation = CompositeTransformation([
                WordSwapRandomCharacterDeletion(random_one=True),
                WordSwapRandomCharacterInsertion(random_one=True), WordDeletion()])
            constraints = [RepeatModification(), StopwordModification(stopwords=protected),
                           MaxWordsPerturbed(max_percent=0.2)]
            attack = textattack.Attack(goal, constraints, transformation,
                                       GreedyWordSwapWIR(wir_method="delete"))
            text = item.passage if target == "passage" else q.text
            label = max(range(len(q.options)), key=lambda k: wrapper([text])[0][k])
            result: Any = attack.attack(text, label)
            outcome = {"SuccessfulAttackResult": "success", "FailedAttackResult": "failed",
                       "SkippedAttackResult": "skipped"}.get(type(result).__name__, "failed")
            print(json.dumps({"unit": f"{item.id}#{sub}", "outcome": outcome,
                              "queries": result.perturbed_result.num_queries}), flush=True)


if __name__ == "__main__":
    main()
