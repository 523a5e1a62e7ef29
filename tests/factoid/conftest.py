"""The real embedded model for the factoid tests (the fluency gate scores with it).

llama-cpp-python built from source on a CPU with AMX repacks quantised weights into AMX
buffers; where the kernel does not grant AMX to the process (this machine's VM), the first
forward pass raises SIGILL and kills pytest. A probe in a subprocess finds out; when it
crashes, llama.cpp's extra buffer types (the repacking only: same weights, same scores) are
turned off before the model loads. Elsewhere the model loads as it is.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

_PROBE = ("import asyncio\nfrom rattle.models import load_model\nfrom rattle.models.base import "
          "ScoreRequest\nfrom rattle.items import Message\nm = load_model('embedded')\n"
          "asyncio.run(m.loglikelihood([ScoreRequest((Message('user', 'Hi'),), ('Yes.',))]))\n")


def _embedded_runs() -> bool:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                              timeout=600, check=False)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


@pytest.fixture(scope="session", autouse=True)
def _llama_cpp_without_amx() -> None:
    if _embedded_runs():
        return
    try:
        import llama_cpp
        import llama_cpp.llama as llama_module
    except ImportError:
        return
    default = llama_cpp.llama_model_default_params

    def params() -> Any:
        p = default()
        p.use_extra_bufts = False
        return p

    llama_cpp.llama_model_default_params = params
    llama_module.llama_cpp.llama_model_default_params = params


@pytest.fixture(scope="session")
def embedded_scorer(_llama_cpp_without_amx: None) -> Iterator[Any]:
    """The embedded model, one thread (faster than two on a busy two-core machine)."""
    from rattle.errors import ConfigError
    from rattle.models import load_model

    try:
        model = load_model("embedded?n_threads=1")
    except ConfigError:  # a backend without that option
        model = load_model("embedded")
    yield model
    asyncio.run(model.aclose())


class LoadedFlows:
    """The run's FlowRunner (``StoreFlows``) with models already loaded: a name in ``loaded``
    is driven through the real executor and ``store`` without loading it again (the tests
    share one embedded model); any other name is loaded as ``rattle run`` would."""

    dry_run = False

    def __init__(self, store: Any, **loaded: Any) -> None:
        from rattle.run.executor import StoreFlows

        self.store, self.loaded, self.runner = store, loaded, StoreFlows(store)

    def with_model(self, model: str, flows: Any, on_result: Any) -> None:
        from rattle.run.executor import Executor

        if model in self.loaded:
            Executor(self.loaded[model], self.store).run(flows, on_result)
        else:
            self.runner.with_model(model, flows, on_result)

    def offline(self, flows: Any, on_result: Any, *, why: str) -> None:
        self.runner.offline(flows, on_result, why=why)
