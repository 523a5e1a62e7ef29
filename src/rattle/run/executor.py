"""Drives many sans-I/O flows against one backend, asking each distinct request once.

A flow is a generator that yields a request (anything with ``key(identity)``: a ChatRequest, a
ScoreRequest, an HTTP request) and receives a ``Completion``; it returns its result when done
(STYLE.md 10). The executor keeps a window of flows in progress, answers what the store
already holds, batches the rest to the backend with bounded concurrency, and commits every
successful answer as soon as it arrives, so a killed run loses nothing that completed.

A flow may also yield a ``list`` of requests (one step of a search: all its candidates) and
then receives the ``list`` of their completions, in order; each request of the list is
deduplicated, cached and batched exactly like a single one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from rattle.errors import BackendError, ConfigError, RunAborted
from rattle.flows import Flow, OnResult, run_offline
from rattle.models.base import SCORING, Completion, Scorer, ScoreRequest
from rattle.run.store import Store

log = logging.getLogger(__name__)

MEMO_SIZE = 50_000  # answers kept in memory for repeats; the store answers the rest


class Backend(Protocol):
    """What the executor calls: a model, an HTTP service, a Ray pool (``Model``'s shape)."""

    identity: str
    display_name: str
    batch_size: int
    concurrency: int
    capabilities: frozenset[str]

    async def generate(self, requests: Any) -> list[Completion]: ...

    async def aclose(self) -> None: ...


@dataclass
class ExecStats:
    """Request counts, tokens and model time of one executor run."""

    requests_total: int = 0
    requests_sent: int = 0
    requests_cached: int = 0
    requests_failed: int = 0
    tokens_prompt: int = 0
    tokens_completion: int = 0
    flows_done: int = 0
    retries: int = 0
    started: float = field(default_factory=time.perf_counter)
    model_seconds: float = 0.0

    def as_counts(self) -> dict[str, int]:
        return {
            "requests_total": self.requests_total,
            "requests_sent": self.requests_sent,
            "requests_cached": self.requests_cached,
            "requests_failed": self.requests_failed,
            "tokens_prompt": self.tokens_prompt,
            "tokens_completion": self.tokens_completion,
        }


@dataclass
class _Waiting:
    gen: Flow
    tag: Any
    #: the completions of a yielded list of requests, filled as they arrive
    batch: list[Completion | None] | None = None
    missing: int = 0


class Executor:
    """Runs flows to completion. ``on_result(tag, result)`` receives each finished flow."""

    def __init__(
        self,
        backend: Backend,
        store: Store | None,
        *,
        window: int | None = None,
        max_requests: int | None = None,
        dry_run: bool = False,
        progress: Callable[[ExecStats], None] | None = None,
        price: tuple[float, float] | None = None,
        max_cost: float | None = None,
    ) -> None:
        self.backend = backend
        self.store = store
        self.window = window or max(256, backend.batch_size * backend.concurrency * 4)
        self.max_requests = max_requests
        self.dry_run = dry_run
        self.progress = progress
        self.price = price
        self.max_cost = max_cost
        if max_cost is not None and price is None:
            raise ConfigError(f"--max-cost needs a price for {backend.identity}: pass --price IN,OUT")
        self.stats = ExecStats()
        self.estimated_prompt_chars = 0
        # Answers of this run, for identical requests asked again soon (bounded: older ones
        # are answered by the store instead); keys seen, for counting distinct requests.
        self._memo: OrderedDict[str, Completion] = OrderedDict()
        self._seen: set[int] = set()  # 64-bit key prefixes: collisions are negligible
        self._semaphore = asyncio.Semaphore(max(1, backend.concurrency))
        self._limit_hit = False

    # -- public ------------------------------------------------------------------------------
    def run(self, flows: Iterable[tuple[Any, Flow]], on_result: Callable[[Any, Any], None]) -> ExecStats:
        return asyncio.run(self.arun(flows, on_result))

    async def arun(
        self, flows: Iterable[tuple[Any, Flow]], on_result: Callable[[Any, Any], None]
    ) -> ExecStats:
        source: Iterator[tuple[Any, Flow]] = iter(flows)
        # Flows waiting on each request key, with the slot of a yielded list (None: single).
        waiting: dict[str, list[tuple[_Waiting, int | None]]] = {}
        requests: dict[str, Any] = {}
        in_flight: dict[asyncio.Task[list[Completion]], list[str]] = {}
        queued: list[str] = []
        active = 0
        exhausted = False
        identity = self.backend.identity

        def lookup(req: Any) -> tuple[str, Completion | None]:
            key: str = req.key(identity)
            seen = int(key[:16], 16)
            if seen not in self._seen:
                self._seen.add(seen)
                self.stats.requests_total += 1
            return key, self._memo.get(key)

        def wait(w: _Waiting, key: str, req: Any, slot: int | None) -> None:
            if key not in waiting:
                waiting[key] = []
                requests[key] = req
                queued.append(key)
            waiting[key].append((w, slot))

        def advance(w: _Waiting, value: Any) -> None:
            """Step a flow until it needs an unanswered request or finishes."""
            nonlocal active
            while True:
                try:
                    req = next(w.gen) if value is None else w.gen.send(value)
                except StopIteration as stop:
                    active -= 1
                    self.stats.flows_done += 1
                    on_result(w.tag, stop.value)
                    return
                if isinstance(req, list):
                    slots: list[Completion | None] = []
                    unanswered = []
                    for j, one in enumerate(req):
                        key, known = lookup(one)
                        slots.append(known)
                        if known is None:
                            unanswered.append((key, one, j))
                    if not unanswered:
                        value = slots
                        continue
                    w.batch, w.missing = slots, len(unanswered)
                    for key, one, j in unanswered:
                        wait(w, key, one, j)
                    return
                key, known = lookup(req)
                if known is not None:
                    value = known
                    continue
                wait(w, key, req, None)
                return

        def deliver(key: str, completion: Completion) -> None:
            requests.pop(key, None)
            for w, slot in waiting.pop(key, []):
                if slot is None:
                    advance(w, completion)
                    continue
                assert w.batch is not None
                w.batch[slot] = completion
                w.missing -= 1
                if w.missing == 0:
                    done, w.batch = w.batch, None
                    advance(w, done)

        try:
            while True:
                while not exhausted and active < self.window:
                    try:
                        tag, gen = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    active += 1
                    advance(_Waiting(gen, tag), None)
                if queued:
                    keys, queued = queued, []
                    cached = self.store.get_many(keys) if self.store is not None else {}
                    misses = []
                    for key in keys:
                        hit = cached.get(key)
                        if hit is not None:
                            self.stats.requests_cached += 1
                            self._remember(key, hit)
                            deliver(key, hit)
                        else:
                            misses.append(key)
                    if self.dry_run:
                        for key in misses:
                            self.stats.requests_sent += 1
                            self.estimated_prompt_chars += requests[key].prompt_chars()
                            fake = Completion("")
                            self._remember(key, fake)
                            deliver(key, fake)
                        continue
                    self._launch(misses, requests, in_flight)
                    if queued:
                        continue
                if not in_flight:
                    if exhausted and active == 0:
                        break
                    if self._limit_hit:
                        raise RunAborted(
                            f"--max-requests {self.max_requests} reached; rerun with a higher "
                            "limit to continue (everything answered so far is kept in the store)"
                        )
                    if queued or (not exhausted and active < self.window):
                        continue
                    raise RuntimeError("executor stalled: flows wait on nothing")
                done, _ = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    keys = in_flight.pop(task)
                    completions = task.result()
                    self._record(keys, completions)
                    for key, completion in zip(keys, completions, strict=True):
                        deliver(key, completion)
                self.stats.retries = int(getattr(self.backend, "retries", 0))
                spent = self.cost()
                if self.max_cost is not None and spent is not None and spent >= self.max_cost:
                    raise RunAborted(
                        f"--max-cost ${self.max_cost:g} reached (${spent:.4f} spent); rerun with a "
                        "higher limit to continue (everything answered so far is kept in the store)"
                    )
                if self.progress is not None:
                    self.progress(self.stats)
        finally:
            for task in in_flight:
                task.cancel()
            if in_flight:
                await asyncio.gather(*in_flight, return_exceptions=True)
        if self.progress is not None:
            self.progress(self.stats)
        return self.stats

    def _remember(self, key: str, completion: Completion) -> None:
        self._memo[key] = completion
        if len(self._memo) > MEMO_SIZE:
            self._memo.popitem(last=False)

    def cost(self) -> float | None:
        from rattle.models.pricing import cost

        return cost(self.price, self.stats.tokens_prompt, self.stats.tokens_completion)

    # -- internals ---------------------------------------------------------------------------
    def _launch(
        self,
        misses: list[str],
        requests: dict[str, Any],
        in_flight: dict[asyncio.Task[list[Completion]], list[str]],
    ) -> None:
        size = max(1, self.backend.batch_size)
        pending = list(misses)
        # Requests of one kind go to one call: score requests use loglikelihood().
        while pending:
            if self.max_requests is not None and self.stats.requests_sent >= self.max_requests:
                # Stop sending; what is in flight still completes and is stored.
                self._limit_hit = True
                return
            chunk, pending = pending[:size], pending[size:]
            if self.max_requests is not None:
                room = self.max_requests - self.stats.requests_sent
                if len(chunk) > room:
                    pending = chunk[room:] + pending
                    chunk = chunk[:room]
            self.stats.requests_sent += len(chunk)
            task = asyncio.ensure_future(self._call([requests[k] for k in chunk]))
            in_flight[task] = chunk
        # Concurrency is bounded inside _call by the semaphore.

    async def _call(self, batch: list[Any]) -> list[Completion]:
        async with self._semaphore:
            start = time.perf_counter()
            try:
                if batch and isinstance(batch[0], ScoreRequest):
                    if SCORING not in self.backend.capabilities:
                        raise ConfigError(
                            f"{self.backend.display_name} cannot score log-likelihoods; use a "
                            "local model (embedded, llamacpp/, transformers/) or a generation "
                            "protocol")
                    out = await self._scores(batch)
                else:
                    out = await self.backend.generate(batch)
            finally:
                self.stats.model_seconds += time.perf_counter() - start
            if len(out) != len(batch):
                raise RuntimeError(f"backend returned {len(out)} answers for {len(batch)} requests")
            return out

    async def _scores(self, batch: list[Any]) -> list[Completion]:
        """Each request's scores as a completion; a request the backend cannot score (a
        BackendError: e.g. llama.cpp forcing a byte-fallback token) fails on its own, as a
        generation error does, instead of ending the run: the batch is asked again one by
        one to find it."""
        scorer = cast(Scorer, self.backend)
        try:
            return [Completion(json.dumps(s)) for s in await scorer.loglikelihood(batch)]
        except BackendError as e:
            if len(batch) == 1:
                log.warning("scoring failed: %s", e)
                return [Completion("", error=f"scoring failed: {e}")]
        return [(await self._scores([r]))[0] for r in batch]

    def _record(self, keys: list[str], completions: list[Completion]) -> None:
        ok = [(k, c) for k, c in zip(keys, completions, strict=True) if c.ok]
        bad = [(k, c.error or "") for k, c in zip(keys, completions, strict=True) if not c.ok]
        for _, c in ok:
            self.stats.tokens_prompt += c.usage.prompt_tokens
            self.stats.tokens_completion += c.usage.completion_tokens
        self.stats.requests_failed += len(bad)
        if self.store is not None:
            self.store.put_many(self.backend.identity, ok)
            self.store.record_failures(self.backend.identity, bad)
        for k, c in zip(keys, completions, strict=True):
            self._remember(k, c)


def run_flows(model_spec: str, store: Store | None, flows: Iterable[tuple[Any, Flow]],
              on_result: OnResult, *, dry_run: bool = False) -> ExecStats:
    """Drive ``flows`` against a freshly loaded ``model_spec`` (an attacker or a judge) in one
    event loop, closing the model's connections before the loop ends. ``dry_run``: answer
    from the store or count, send nothing (flows get empty placeholders)."""
    from rattle.models import load_model

    model = load_model(model_spec)

    async def drive() -> ExecStats:
        try:
            return await Executor(model, store, dry_run=dry_run).arun(flows, on_result)
        finally:
            await model.aclose()

    return asyncio.run(drive())


class StoreFlows:
    """The :class:`rattle.flows.FlowRunner` of a run: models are asked through ``store``
    (cached, resumable), one load and one event loop per call."""

    dry_run = False

    def __init__(self, store: Store | None) -> None:
        self.store = store

    def with_model(self, model: str, flows: Iterable[tuple[Any, Flow]],
                   on_result: OnResult) -> None:
        run_flows(model, self.store, flows, on_result)

    def offline(self, flows: Iterable[tuple[Any, Flow]], on_result: OnResult, *,
                why: str) -> None:
        run_offline(flows, on_result, why)


class DryFlows(StoreFlows):
    """The :class:`rattle.flows.FlowRunner` of a dry run: a preparing step's requests (an
    attacker, a fluency gate) are answered from the store or counted, never sent; steps that
    decide on the answers (the fluency gate) check ``dry_run`` and keep everything."""

    dry_run = True

    def __init__(self, store: Store | None) -> None:
        super().__init__(store)
        self.requests_sent = 0
        self.requests_cached = 0

    def with_model(self, model: str, flows: Iterable[tuple[Any, Flow]],
                   on_result: OnResult) -> None:
        stats = run_flows(model, self.store, flows, on_result, dry_run=True)
        self.requests_sent += stats.requests_sent
        self.requests_cached += stats.requests_cached
