"""The OpenAI-compatible backend against a local fake server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import time

import pytest

from rattle.errors import BackendError
from rattle.items import Message
from rattle.models import ChatRequest, load_model
from rattle.testing.fake_openai import FakeOpenAIServer


def ask(model, n: int = 1):  # type: ignore[no-untyped-def]
    reqs = [ChatRequest((Message("user", f"question {i}"),)) for i in range(n)]
    return asyncio.run(model.generate(reqs))


def fast(url: str, **opts: str) -> object:
    q = "&".join(f"{k}={v}" for k, v in {"backoff_s": "0.01", **opts}.items())
    return load_model(f"openai/test-model?{q}", base_url=url)


def test_answers_and_usage() -> None:
    with FakeOpenAIServer() as server:
        [c] = ask(fast(server.base_url))
    assert c.ok and c.text == "question 0"
    assert c.usage.prompt_tokens == 2 and c.usage.completion_tokens == 2
    assert server.requests[0]["model"] == "test-model"
    assert server.requests[0]["temperature"] == 0.0


def test_retries_429_500_503_then_succeeds_honouring_retry_after() -> None:
    with FakeOpenAIServer(faults=["429", "500", "503"], retry_after=0.3) as server:
        model = fast(server.base_url)
        start = time.perf_counter()
        [c] = ask(model)
        elapsed = time.perf_counter() - start
    assert c.ok and c.text == "question 0"
    assert server.actions == ["429", "500", "503", "ok"]
    assert model.retries == 3  # type: ignore[attr-defined]
    assert elapsed >= 0.3  # waited at least Retry-After


def test_timeout_malformed_empty_and_reset_are_retried() -> None:
    with FakeOpenAIServer(faults=["timeout", "malformed", "empty", "reset", "truncated"],
                          timeout_sleep_s=1.0) as server:
        [c] = ask(fast(server.base_url, timeout_s="0.3", max_retries="6"))
    assert c.ok
    assert server.actions[:5] == ["timeout", "malformed", "empty", "reset", "truncated"]


def test_gives_up_after_retries_with_an_error_not_an_answer() -> None:
    with FakeOpenAIServer(faults=lambda n, body: "500") as server:
        [c] = ask(fast(server.base_url, max_retries="2"))
    assert not c.ok and "3 attempts" in (c.error or "") and c.text == ""
    assert len(server.requests) == 3


def test_missing_key_for_the_default_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(BackendError) as info:
        load_model("openai/gpt-4o-mini")
    assert "OPENAI_API_KEY" in str(info.value) and "--base-url" in str(info.value)


def test_named_key_variable_is_sent_as_bearer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_CANARY_KEY", "sk-canary-123")
    with FakeOpenAIServer() as server:
        ask(load_model("openai/m", base_url=server.base_url, api_key_env="MY_CANARY_KEY"))
    assert server.headers_seen[0]["Authorization"] == "Bearer sk-canary-123"


def test_unreachable_server_is_one_clear_error() -> None:
    model = load_model("openai/m?max_retries=1&backoff_s=0.01", base_url="http://127.0.0.1:9/v1")
    with pytest.raises(BackendError) as info:
        ask(model)
    assert "cannot reach http://127.0.0.1:9/v1" in str(info.value)


def test_redirects_are_not_followed() -> None:
    with FakeOpenAIServer(faults=lambda n, b: "redirect") as server:
        [c] = ask(fast(server.base_url, max_retries="0"))
    assert not c.ok and "307" in (c.error or "")


def test_adaptive_concurrency_backs_off_on_429_and_recovers() -> None:
    # The server accepts at most 4 requests at once and answers 429 beyond that.
    with FakeOpenAIServer(latency_s=0.03, max_active=4, retry_after=0.0) as server:
        model = load_model("openai/m?concurrency=32&backoff_s=0.01&max_retries=12",
                           base_url=server.base_url)
        limiter = model.limiter  # type: ignore[attr-defined]

        async def main() -> tuple[list[bool], int, int]:
            reqs = [ChatRequest((Message("user", f"q{i}"),)) for i in range(520)]
            first = await model.generate(reqs[:120])
            lowest, before = limiter.lowest, limiter.limit
            server.max_active = None  # the limit is lifted: concurrency grows back
            await model.generate(reqs[120:])
            await model.aclose()
            return [c.ok for c in first], lowest, before

        oks, lowest, before = asyncio.run(main())
        assert all(oks)
        assert lowest <= 4  # it backed off to what the server accepts
        assert 0 < server.actions.count("429") < 120
        assert limiter.limit > before
