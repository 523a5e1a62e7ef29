"""``--executor ray``: send request batches to a Ray cluster; results land in the same store.

The executor, store and suites stay on the driver; only ``generate``/``loglikelihood`` calls
travel. Local models (embedded, llamacpp, transformers, scripted) run as a pool of actors,
each holding one model replica; API models fan out as tasks. The backend keeps the wrapped
model's identity, so cache keys, and therefore results, are identical to the local executor.

On a cluster (``--ray-address ray://head:10001``) every node needs the same rattle install
and, for API models, the key variable in its environment: keys are never shipped.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from typing import Any, cast

from rattle import registry
from rattle.errors import BackendError, MissingExtraError
from rattle.models import load_model
from rattle.models.base import Completion, Model, Scorer, ScoreRequest, can_score


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise MissingExtraError("ray", "ray", "the Ray executor") from None
    return ray


async def _call(spec: str, settings: dict[str, Any], batch: Sequence[Any]) -> Any:
    model = load_model(spec, **settings)
    try:
        return await _answer(model, batch)
    finally:
        await model.aclose()


async def _answer(model: Model, batch: Sequence[Any]) -> Any:
    if batch and isinstance(batch[0], ScoreRequest):
        if not can_score(model):
            raise BackendError(f"{model.display_name} cannot score log-likelihoods")
        return await cast(Scorer, model).loglikelihood(batch)
    return await model.generate(batch)


class ModelReplica:
    """One model replica (a Ray actor for local models)."""

    def __init__(self, spec: str, settings: dict[str, Any]) -> None:
        self.model = load_model(spec, **settings)
        self.loop = asyncio.new_event_loop()

    def run(self, batch: Sequence[Any]) -> Any:
        return self.loop.run_until_complete(_answer(self.model, batch))


def run_task(spec: str, settings: dict[str, Any], batch: Sequence[Any]) -> Any:
    return asyncio.run(_call(spec, settings, batch))


class RayBackend:
    """A model whose generate/loglikelihood calls run on a Ray cluster; it keeps the
    wrapped model's identity, so cache keys and results equal the local executor's."""

    def __init__(self, spec: str, settings: dict[str, Any], *, address: str | None = None,
                 replicas: int = 2) -> None:
        ray = _ray()
        if not ray.is_initialized():
            try:
                ray.init(address=address, ignore_reinit_error=True, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            except ConnectionError as exc:
                raise BackendError(f"cannot reach the Ray cluster at {address}: {exc}") from None
        local = load_model(spec, **settings)  # identity and batching, checked on the driver
        self.identity = local.identity
        self.display_name = local.display_name
        self.capabilities = local.capabilities
        self.batch_size = local.batch_size
        self.spec = spec
        self.settings = settings
        self.retries = 0
        provider = spec.split("/")[0].split("?")[0]
        if registry.get("model", provider).meta.get("local"):
            actor = ray.remote(num_cpus=1)(ModelReplica)
            self._actors = [actor.remote(spec, settings) for _ in range(max(1, replicas))]
            self.concurrency = len(self._actors)
        else:
            self._actors = []
            self._task = ray.remote(run_task)
            self.concurrency = max(1, local.concurrency)
        self._cycle = itertools.cycle(range(max(1, len(self._actors))))

    async def _submit(self, batch: Sequence[Any]) -> Any:
        if self._actors:
            ref = self._actors[next(self._cycle)].run.remote(list(batch))
        else:
            ref = self._task.remote(self.spec, self.settings, list(batch))
        return await ref

    async def generate(self, requests: Sequence[Any]) -> list[Completion]:
        return list(await self._submit(requests))

    async def loglikelihood(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        return list(await self._submit(requests))

    async def aclose(self) -> None:
        ray = _ray()
        for actor in self._actors:
            ray.kill(actor)
        self._actors = []
