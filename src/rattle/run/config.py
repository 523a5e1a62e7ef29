"""What a run is configured with, and how the suite and the system under test are built.

Every suite option (``--param``, experiment files) is checked against the registered suite
factory's signature (``rattle.options``), and every model option against the provider's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rattle import registry
from rattle.suites.base import Suite
from rattle.systems import System


@dataclass
class RunConfig:
    """One run: the suite and its options, the system under test, limits and where to write."""

    suite: str = "quick"
    model: str = "embedded"
    system: str = "llm"
    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    out: str | None = None
    workspace: str = ".rattle"
    base_url: str | None = None
    api_key_env: str | None = None
    concurrency: int | None = None
    max_tokens: int = 32
    system_prompt: str | None = None
    suite_options: dict[str, Any] = field(default_factory=dict)
    system_options: dict[str, Any] = field(default_factory=dict)
    max_requests: int | None = None
    max_cost: float | None = None
    price: str | None = None
    executor: str = "local"
    ray_address: str | None = None
    replicas: int = 2
    skip_invalid: bool = False
    verbose: bool = False

    def public(self) -> dict[str, Any]:
        """The config as recorded in outputs (no secrets: keys are never part of it)."""
        d = dict(self.__dict__)
        d["system_options"] = {k: v for k, v in self.system_options.items() if k != "headers"}
        return d

    def model_settings(self) -> dict[str, Any]:
        """Run-wide model options from the command line (a provider takes those it declares)."""
        settings: dict[str, Any] = {}
        if self.base_url:
            settings["base_url"] = self.base_url
        if self.api_key_env:
            settings["api_key_env"] = self.api_key_env
        if self.concurrency:
            settings["concurrency"] = self.concurrency
        if self.verbose:
            settings["verbose"] = True  # local engines show their own log
        return settings


# Options every suite factory takes from the run itself (not from --param).
RUN_OPTIONS = ("dataset", "limit", "seed", "skip_invalid")


def build_suite(config: RunConfig) -> Suite:
    """The registered suite with the run's options and ``--param`` options, typed."""
    options = {"dataset": config.dataset, "limit": config.limit, "seed": config.seed,
               "skip_invalid": config.skip_invalid, **config.suite_options}
    suite: Suite = registry.create("suite", config.suite, options, where=f"suite {config.suite}")
    return suite


def build_backend(config: RunConfig) -> Any:
    """The model behind the system, wrapped by the run's executor (local or Ray)."""
    options = {"address": config.ray_address, "replicas": config.replicas}
    return registry.create("executor", config.executor, options,
                           args=(config.model, config.model_settings()),
                           where=f"--executor {config.executor}", lenient=tuple(options))


def build_system(config: RunConfig) -> System:
    """The system under test: an LLM (or RAG reader) over the model, or the user's service."""
    from rattle.models.base import GenParams

    entry = registry.get("system", config.system)
    if not entry.meta.get("uses_model", True):  # the user's own service (http)
        service: System = entry.factory(**config.system_options)
        return service
    opts: dict[str, Any] = {"params": GenParams(max_tokens=config.max_tokens, seed=config.seed)}
    if config.system_prompt is not None:
        opts["system_prompt"] = config.system_prompt
    opts.update(config.system_options)
    system: System = entry.factory(build_backend(config), **opts)
    return system
