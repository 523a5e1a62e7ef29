"""Where requests are answered (kind ``executor``): this process, or a Ray cluster.

An executor entry wraps the model the run names into the backend the executor drives; the
planning, the store, judging and metrics stay in the driver either way.
"""

from __future__ import annotations

from typing import Annotated, Any

from rattle.models.base import Model
from rattle.registry import register


@register("executor", "local")
def local(model: str, settings: dict[str, Any]) -> Model:
    """Requests from this process: async, batched, bounded concurrency (the default)."""
    from rattle.models import load_model

    return load_model(model, **settings)


@register("executor", "ray")
def ray(
    model: str,
    settings: dict[str, Any],
    *,
    address: Annotated[str | None, "Ray cluster address (ray://head:10001); local Ray if unset"] = None,
    replicas: Annotated[int, "model replicas (actors) for local models"] = 2,
) -> Model:
    """Request batches on a Ray cluster: local models as actors, API models as tasks."""
    from rattle.run.ray_backend import RayBackend

    return RayBackend(model, settings, address=address, replicas=replicas)
