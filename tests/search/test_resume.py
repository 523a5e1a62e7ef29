"""A search killed part-way resumes from the store: no stored query is sent again."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from rattle.errors import RunAborted
from rattle.models.base import ChatRequest, Completion
from rattle.models.scripted import ScriptedModel
from rattle.run.runner import RunConfig, run_suite
from rattle.run.store import Store
from tests.search.helpers import attack, choice, mc_item, search


class Recording(ScriptedModel):
    """The scripted rules model, remembering the key of every request it answers."""

    def __init__(self, rules: Path) -> None:
        super().__init__("rules", file=str(rules), default="(B)", options={"file": str(rules)})
        self.keys: list[str] = []

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        self.keys += [r.key(self.identity) for r in requests]
        return await super().generate(requests)


PASSAGES = ["The old merchant sold fresh bread to hungry sailors near the harbour.",
            "A tired merchant carried warm bread past quiet sailors every evening.",
            "Young sailors bought bread from the merchant beside the windy harbour."]


def test_a_killed_search_resumes_without_resending_a_stored_query(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text('{"\\\\bharbour\\\\b": "(A)", "\\\\bsailors\\\\b": "(C)"}')
    tasks = [choice(mc_item(p, f"m{i}")) for i, p in enumerate(PASSAGES)]
    made = attack(transformations="chars.delete,chars.insert,visual.homoglyph", method="beam?width=2")
    reference = Recording(rules)
    expected = search(reference, tasks, made, Store(tmp_path / "reference"))
    total = len(reference.keys)
    assert total == len(set(reference.keys)) > 20

    store = tmp_path / "killed"
    first = Recording(rules)
    with pytest.raises(RunAborted):
        search(first, tasks, made, Store(store), max_requests=total // 2)
    assert len(first.keys) == total // 2
    second = Recording(rules)
    resumed = search(second, tasks, made, Store(store))
    assert not set(second.keys) & set(first.keys)  # nothing stored is asked again
    assert sorted(first.keys + second.keys) == sorted(reference.keys)
    assert resumed == expected
    third = Recording(rules)
    assert search(third, tasks, made, Store(store)) == expected and third.keys == []


def test_a_rerun_of_an_interrupted_search_suite_sends_only_the_rest(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text('{"\\\\bcapital\\\\b": "(A)", "\\\\bboils\\\\b": "(B)"}')

    def config(workspace: str, out: str, **extra: Any) -> RunConfig:
        return RunConfig(suite="search.mc", model=f"scripted/rules?file={rules}&default=(C)",
                         workspace=str(tmp_path / workspace), out=str(tmp_path / out),
                         suite_options={"similarity": False, "budget": 12,
                                        "constraints": "protected,max_words"}, **extra)

    whole = run_suite(config("ws-whole", "whole"))
    sent = whole.stats.requests_sent
    with pytest.raises(RunAborted):
        run_suite(config("ws", "cut", max_requests=sent // 3))
    again = run_suite(config("ws", "again"))
    assert again.stats.requests_sent == sent - sent // 3
    assert again.stats.requests_cached == sent // 3
    assert ((tmp_path / "again" / "results.jsonl").read_bytes()
            == (tmp_path / "whole" / "results.jsonl").read_bytes())
