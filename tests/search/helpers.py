"""Shared test helpers: a multiple-choice item, a scripted target, and one search run through
the executor and a store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rattle.attacks.search.build import make_attack
from rattle.attacks.search.engine import Attack, SearchResult
from rattle.items import Item, Option, Question
from rattle.models import load_model
from rattle.run.executor import Executor
from rattle.run.store import Store
from rattle.suites.search_tasks import ChoiceTask
from rattle.systems.llm import LLMSystem

OPTIONS = ("bread", "fish", "salt", "wine")


def mc_item(passage: str, item_id: str = "m0") -> Item:
    q = Question("What did he sell?", answers=("bread",),
                 options=tuple(Option(o) for o in OPTIONS), correct=0)
    return Item(item_id, (q,), passage=passage, dataset="toy")


def rules_model(tmp: Path, word: str) -> Any:
    """Answers (A) while ``word`` appears as a whole word in the prompt, else (B)."""
    path = tmp / f"rules-{word}.json"
    path.write_text(json.dumps({rf"\b{word}\b": "(A)"}))
    return load_model(f"scripted/rules?file={path}&default=(B)")


def attack(**options: Any) -> Attack:
    defaults: dict[str, Any] = {"method": "greedy", "goal": "flip", "budget": 50,
                                "transformations": "chars.delete",
                                "constraints": "protected,max_words",
                                "measure_similarity": False}
    return make_attack(**{**defaults, **options})


def search(model: Any, tasks: list[Any], made: Attack, store: Store | None, *, key: int = 0,
           **executor: Any) -> dict[int, SearchResult]:
    """Search every task (search ``i`` keyed ``key + i``) through an executor."""
    system = LLMSystem(model)
    results: dict[int, SearchResult] = {}
    flows = ((i, made.flow(t, system, key=key + i)) for i, t in enumerate(tasks))
    Executor(model, store, **executor).run(flows, results.__setitem__)
    return results


def choice(item: Item) -> ChoiceTask:
    return ChoiceTask(item, 0, "passage", "single")
