"""Sans-I/O flows and the runner a suite is given to drive them (STYLE.md 10).

A flow is a generator that yields a request (anything with ``key(identity)``) and receives a
``Completion``; it returns its result. Suites generate attacks and judge answers with flows;
they never import the executor: the run hands them a :class:`FlowRunner` bound to its store
(``rattle.run.executor.StoreFlows``), or :class:`OfflineFlows` when no model may be asked.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any, Protocol

from rattle.errors import ConfigError
from rattle.models.base import Completion

Flow = Generator[Any, Completion, Any]
OnResult = Callable[[Any, Any], None]


class FlowRunner(Protocol):
    """Drives flows to their results for a suite (attack generation, judging). ``dry_run``:
    requests are counted, not sent, and flows get empty placeholder answers."""

    dry_run: bool

    def with_model(self, model: str, flows: Iterable[tuple[Any, Flow]],
                   on_result: OnResult) -> None:
        """Run ``flows`` against ``model`` (a model spec), every request through the store."""
        ...

    def offline(self, flows: Iterable[tuple[Any, Flow]], on_result: OnResult, *,
                why: str) -> None:
        """Run flows that ask no model; ``why`` names what would need one if a flow asks."""
        ...


def run_offline(flows: Iterable[tuple[Any, Flow]], on_result: OnResult,
                why: str = "this step needs a model") -> None:
    """Drive flows that ask no model (rule-based attacks, offline judges) to their results."""
    for tag, flow in flows:
        try:
            next(flow)
        except StopIteration as stop:
            on_result(tag, stop.value)
        else:
            raise ConfigError(f"{why}: {tag!r} asked for a model")


class OfflineFlows:
    """A :class:`FlowRunner` that asks no model (library use of rule-based suites)."""

    dry_run = False

    def with_model(self, model: str, flows: Iterable[tuple[Any, Flow]],
                   on_result: OnResult) -> None:
        raise ConfigError(f"asking {model} needs a store: prepare the suite with "
                          "rattle.run.executor.StoreFlows(Store(workspace)), or use `rattle run`")

    def offline(self, flows: Iterable[tuple[Any, Flow]], on_result: OnResult, *,
                why: str) -> None:
        run_offline(flows, on_result, why)
