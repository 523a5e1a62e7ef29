"""The executor's list yields: a flow sends a step's requests as one list and gets the list of
completions back, each request deduplicated, cached and stored like a single one."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

from rattle.items import Message
from rattle.models import ChatRequest, load_model
from rattle.run.executor import Executor
from rattle.run.store import Store


def req(text: str) -> ChatRequest:
    return ChatRequest((Message("user", text),))


def steps(plan: list[Any]) -> Generator[Any, Any, list[Any]]:
    """Each step is a text (one request) or a list of texts (one list of requests)."""
    out: list[Any] = []
    for step in plan:
        if isinstance(step, list):
            got = yield [req(t) for t in step]
            out.append([c.text for c in got])
        else:
            got = yield req(step)
            out.append(got.text)
    return out


def run(model: Any, store: Store | None, plans: list[list[Any]]) -> dict[int, Any]:
    results: dict[int, Any] = {}
    Executor(model, store).run(((i, steps(p)) for i, p in enumerate(plans)), results.__setitem__)
    return results


def test_a_list_yield_gets_completions_in_order_and_duplicates_are_asked_once(tmp_path: Path) -> None:
    model = load_model("scripted/echo")
    plans = [[["a", "b", "a", "c"], "d", ["b", "e"]], [["c", "f"], []], ["a"]]
    results = run(model, Store(tmp_path), plans)
    assert results == {0: [["a", "b", "a", "c"], "d", ["b", "e"]], 1: [["c", "f"], []], 2: ["a"]}
    assert model.calls == 6  # a b c d e f, each once


def test_list_yields_are_answered_from_the_store_on_a_rerun(tmp_path: Path) -> None:
    plans = [[[f"x{i}", f"y{i}"], f"z{i}"] for i in range(20)]
    first = run(load_model("scripted/echo"), Store(tmp_path), plans)
    model = load_model("scripted/echo")
    assert run(model, Store(tmp_path), plans) == first
    assert model.calls == 0
    # Half stored: only the other half is asked.
    partial = tmp_path / "partial"
    run(load_model("scripted/echo"), Store(partial), [[[f"x{i}"]] for i in range(20)])
    model = load_model("scripted/echo")
    assert run(model, Store(partial), plans) == first
    assert model.calls == 40


def test_failed_requests_in_a_list_come_back_as_errors(tmp_path: Path) -> None:
    def flow() -> Generator[Any, Any, list[bool]]:
        got = yield [req(f"q{i}") for i in range(40)]
        return [c.ok for c in got]

    results: dict[int, Any] = {}
    faulty = load_model("scripted/echo?error_rate=0.3&seed=1")
    Executor(faulty, Store(tmp_path)).run([(0, flow())], results.__setitem__)
    oks = results[0]
    assert len(oks) == 40 and 0 < oks.count(False) < 40
