"""Executor and store: dedup, cache reuse, errors never cached, unmeasured accounting."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

from rattle.items import Message
from rattle.models import ChatRequest, Completion, load_model
from rattle.run.executor import Executor
from rattle.run.store import Store


def flow(texts: list[str]) -> Generator[Any, Completion, list[str | None]]:
    out: list[str | None] = []
    for t in texts:
        c = yield ChatRequest((Message("user", t),))
        out.append(c.text if c.ok else None)
    return out


def run(model: Any, store: Store | None, plans: list[list[str]]) -> tuple[dict[int, Any], Any]:
    results: dict[int, Any] = {}
    ex = Executor(model, store)
    stats = ex.run(((i, flow(p)) for i, p in enumerate(plans)), results.__setitem__)
    return results, stats


def test_identical_requests_are_asked_once(tmp_path: Path) -> None:
    model = load_model("scripted/echo")
    plans = [["a", "b"], ["a", "c"], ["b"], ["a"]]
    results, stats = run(model, Store(tmp_path), plans)
    assert results == {0: ["a", "b"], 1: ["a", "c"], 2: ["b"], 3: ["a"]}
    assert model.calls == 3  # a, b, c
    assert stats.requests_total == 3 and stats.requests_sent == 3


def test_second_run_makes_zero_model_calls(tmp_path: Path) -> None:
    plans = [[f"q{i}", f"r{i}"] for i in range(50)]
    first, _ = run(load_model("scripted/echo"), Store(tmp_path), plans)
    model = load_model("scripted/echo")
    second, stats = run(model, Store(tmp_path), plans)
    assert second == first
    assert model.calls == 0
    assert stats.requests_cached == 100 and stats.requests_sent == 0


def test_errors_are_recorded_never_cached(tmp_path: Path) -> None:
    plans = [[f"q{i}"] for i in range(100)]
    faulty = load_model("scripted/echo?error_rate=0.25&seed=3")
    results, stats = run(faulty, Store(tmp_path), plans)
    failed = [i for i, r in results.items() if r == [None]]
    assert stats.requests_failed == len(failed) > 0
    store = Store(tmp_path)
    assert store.stats().failures == len(failed)
    assert store.stats().responses == 100 - len(failed)
    # A clean rerun asks exactly the failed requests again, and gets answers.
    clean = load_model("scripted/echo?seed=3")
    again, _ = run(clean, store, plans)
    assert clean.calls == len(failed)
    assert all(r == [f"q{i}"] for i, r in again.items())


def test_multi_turn_flows_stop_at_a_failed_turn_and_window_is_respected(tmp_path: Path) -> None:
    model = load_model("scripted/echo")
    plans = [[f"t{i}-{j}" for j in range(3)] for i in range(600)]
    ex = Executor(model, Store(tmp_path), window=16)
    results: dict[int, Any] = {}
    ex.run(((i, flow(p)) for i, p in enumerate(plans)), results.__setitem__)
    assert len(results) == 600 and results[599] == ["t599-0", "t599-1", "t599-2"]


def test_dry_run_counts_without_calling(tmp_path: Path) -> None:
    model = load_model("scripted/echo")
    ex = Executor(model, Store(tmp_path), dry_run=True)
    ex.run(((i, flow(["x", f"y{i}"])) for i in range(10)), lambda *_: None)
    assert model.calls == 0
    assert ex.stats.requests_total == 11
    assert ex.estimated_prompt_chars == 1 + sum(len(f"y{i}") for i in range(10))


class _PickyScorer:
    """A scorer that cannot score one continuation (as llama.cpp cannot force a byte-fallback
    token), like a backend raising BackendError for the whole batch it was given."""

    display_name = identity = "picky"
    capabilities = frozenset({"loglikelihood"})
    concurrency = 1
    batch_size = 8

    def __init__(self) -> None:
        self.batches: list[int] = []

    async def generate(self, requests: Any) -> Any:
        raise AssertionError("not asked")

    async def loglikelihood(self, requests: Any) -> list[list[float]]:
        from rattle.errors import BackendError

        self.batches.append(len(requests))
        if any("Þ" in c for r in requests for c in r.continuations):
            raise BackendError("llama.cpp decoded tokens [1] while forcing [1, 2]")
        return [[-float(len(c)) for c in r.continuations] for r in requests]

    async def aclose(self) -> None:
        return None


def test_a_request_the_scorer_cannot_score_fails_alone(tmp_path: Path) -> None:
    from rattle.models import ScoreRequest

    def scored(text: str) -> Generator[Any, Completion, Any]:
        c = yield ScoreRequest((Message("user", "q"),), (text,))
        return c.text if c.ok else c.error

    model = _PickyScorer()
    results: dict[str, Any] = {}
    store = Store(tmp_path)
    stats = Executor(model, store).run(((t, scored(t)) for t in ("ab", "Þingvellir", "abc")),
                                       results.__setitem__)
    assert results["ab"] == "[-2.0]" and results["abc"] == "[-3.0]"
    assert results["Þingvellir"].startswith("scoring failed: llama.cpp decoded tokens")
    assert stats.requests_failed == 1
    assert model.batches == [3, 1, 1, 1]  # the batch failed, then each request alone
    # the two good answers are stored; the failed one is asked again by a rerun
    again: dict[str, Any] = {}
    Executor(model, store).run(((t, scored(t)) for t in ("ab", "abc")), again.__setitem__)
    assert again == {"ab": "[-2.0]", "abc": "[-3.0]"}
    store.close()
