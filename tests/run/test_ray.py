"""The Ray executor gives results identical to the local executor, for actors and tasks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rattle.run.runner import RunConfig, run_suite
from rattle.testing.fake_openai import FakeOpenAIServer


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def results(tmp: Path, name: str, **kw: object) -> bytes:
    cfg = RunConfig(suite="rcc.robustness", limit=3, suite_options={"samples": 1},
                    workspace=str(tmp / f"ws-{name}"), out=str(tmp / name), **kw)  # type: ignore[arg-type]
    out = run_suite(cfg)
    assert out.run_info["requests_sent"] > 0
    return (tmp / name / "results.jsonl").read_bytes()


@pytest.mark.slow
def test_local_model_as_actors(tmp_path: Path) -> None:
    local = results(tmp_path, "local", model="scripted/echo")
    on_ray = results(tmp_path, "ray", model="scripted/echo", executor="ray", replicas=2)
    assert on_ray == local


@pytest.mark.slow
def test_api_model_as_tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    with FakeOpenAIServer() as server:
        local = results(tmp_path, "local", model="openai/m", base_url=server.base_url)
        on_ray = results(tmp_path, "ray", model="openai/m", base_url=server.base_url,
                         executor="ray")
    assert on_ray == local
