"""``openai/<model>``: any OpenAI-compatible chat-completions server.

OpenAI itself, vLLM, llama.cpp's server, Ollama, LiteLLM. Async with adaptive concurrency
(at most ``concurrency`` requests in flight; halved on each 429, grown back by one per window
of successes),
retries with exponential backoff and full jitter that honour ``Retry-After`` on 429 and 5xx,
a per-request timeout, and token usage recorded. The API key is read from the environment
(``OPENAI_API_KEY`` or the variable named by ``api_key_env``) and never stored or logged.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections.abc import Sequence
from typing import Annotated, Any

from rattle.errors import BackendError, ConfigError
from rattle.items import Usage
from rattle.models.base import ChatRequest, Completion, request_identity
from rattle.registry import register

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
POOL_SHARD = 16  # connections per HTTP client (see OpenAIModel._http)


class AdaptiveLimit:
    """AIMD concurrency: halve the limit on a rate-limit answer, add one after a limit's worth
    of successes, never above the configured maximum."""

    def __init__(self, maximum: int) -> None:
        self.maximum = max(1, maximum)
        self.limit = self.maximum
        self.lowest = self.maximum
        self.active = 0
        self._ok = 0
        self._cond: asyncio.Condition | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _condition(self) -> asyncio.Condition:
        loop = asyncio.get_running_loop()
        if self._cond is None or self._loop is not loop:  # one condition per event loop
            self._cond = asyncio.Condition()
            self._loop = loop
        return self._cond

    async def __aenter__(self) -> None:
        cond = self._condition()
        async with cond:
            await cond.wait_for(lambda: self.active < self.limit)
            self.active += 1

    async def __aexit__(self, *exc: object) -> None:
        cond = self._condition()
        async with cond:
            self.active -= 1
            cond.notify_all()

    def backoff(self) -> None:
        self.limit = max(1, self.limit // 2)
        self.lowest = min(self.lowest, self.limit)
        self._ok = 0

    def success(self) -> None:
        self._ok += 1
        if self._ok >= self.limit and self.limit < self.maximum:
            self.limit += 1
            self._ok = 0


def _retry_after(headers: Any) -> float | None:
    raw = headers.get("retry-after") if headers is not None else None
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        return None


class OpenAIModel:
    """Chat completions over HTTP with retries; one request per ``generate`` item."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        concurrency: int = 8,
        timeout_s: float = 60.0,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        if not model:
            raise ConfigError("openai/<model> needs a model name, e.g. --model openai/gpt-4o-mini")
        self.model = model
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        env = api_key_env or "OPENAI_API_KEY"
        self._key = os.environ.get(env)
        if not self._key and self.base_url == DEFAULT_BASE_URL:
            raise BackendError(
                f"{env} is not set; set it, pass --api-key-env NAME for another variable, "
                "or --base-url for a local OpenAI-compatible server"
            )
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.extra_body = dict(extra_body or {})
        self.identity = request_identity("openai", model, {"base_url": self.base_url})
        self.display_name = f"openai/{model}"
        self.capabilities: frozenset[str] = frozenset()
        self.batch_size = 1
        self.concurrency = max(1, concurrency)
        self.retries = 0
        self._successes = 0
        self._clients: list[Any] = []
        self._next = 0
        self.limiter = AdaptiveLimit(self.concurrency)

    def _http(self) -> Any:
        """One of several small connection pools, round robin.

        httpcore scans its whole pool for every request it assigns, so one pool of hundreds
        of connections costs O(connections x waiting requests); shards of 16 keep that flat.
        """
        if not self._clients:
            import httpx

            headers = {"Content-Type": "application/json"}
            if self._key:
                headers["Authorization"] = f"Bearer {self._key}"
            for _ in range(max(1, -(-self.concurrency // POOL_SHARD))):
                self._clients.append(httpx.AsyncClient(
                    base_url=self.base_url,
                    headers=headers,
                    timeout=httpx.Timeout(self.timeout_s),
                    follow_redirects=False,
                    limits=httpx.Limits(max_connections=POOL_SHARD,
                                        max_keepalive_connections=POOL_SHARD),
                ))
        self._next = (self._next + 1) % len(self._clients)
        return self._clients[self._next]

    def _body(self, request: ChatRequest) -> dict[str, Any]:
        p = request.params
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
            "max_tokens": p.max_tokens,
            "temperature": p.temperature,
            "top_p": p.top_p,
            "seed": p.seed,
        }
        if p.stop:
            body["stop"] = list(p.stop)
        body.update(self.extra_body)
        return body

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        cap = min(self.max_backoff_s, self.backoff_s * (2**attempt))
        jittered = random.uniform(0, cap)  # full jitter; timing only, never affects results
        return max(jittered, retry_after or 0.0)

    async def _one(self, request: ChatRequest) -> Completion:
        import httpx

        client = self._http()
        body = self._body(request)
        last_error = ""
        connect_failures = 0
        for attempt in range(self.max_retries + 1):
            start = time.perf_counter()
            retry_after: float | None = None
            try:
                async with self.limiter:
                    resp = await client.post("/chat/completions", json=body)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                connect_failures += 1
                last_error = f"cannot connect to {self.base_url}: {type(exc).__name__}"
            except httpx.TimeoutException:
                last_error = f"timed out after {self.timeout_s:g}s"
            except httpx.TransportError as exc:
                last_error = f"transport error: {type(exc).__name__}"
            else:
                if resp.status_code == 200:
                    completion = self._parse(resp, time.perf_counter() - start)
                    if completion.ok:
                        self._successes += 1
                        self.limiter.success()
                        return completion
                    last_error = completion.error or "bad response"
                elif resp.status_code in RETRY_STATUS:
                    retry_after = _retry_after(resp.headers)
                    last_error = f"HTTP {resp.status_code}"
                    if resp.status_code == 429:
                        self.limiter.backoff()
                else:
                    detail = resp.text[:200].replace("\n", " ")
                    if resp.status_code in (401, 403):
                        raise BackendError(
                            f"{self.base_url} refused the key (HTTP {resp.status_code}); "
                            "check the API key variable"
                        )
                    if resp.status_code == 404 and self._successes == 0:
                        raise BackendError(
                            f"{self.base_url}/chat/completions answered 404 for model "
                            f"{self.model!r}: {detail}; check --base-url and the model name"
                        )
                    return Completion("", error=f"HTTP {resp.status_code}: {detail}")
            if attempt < self.max_retries:
                self.retries += 1
                await asyncio.sleep(self._delay(attempt, retry_after))
        if connect_failures == self.max_retries + 1 and self._successes == 0:
            raise BackendError(
                f"cannot reach {self.base_url} (connection failed {connect_failures} times); "
                "is the server running? check --base-url"
            )
        return Completion("", error=f"failed after {self.max_retries + 1} attempts: {last_error}")

    def _parse(self, resp: Any, latency: float) -> Completion:
        try:
            data = resp.json()
            choices = data.get("choices") or []
            if not choices:
                return Completion("", error="response had no choices")
            message = choices[0].get("message") or {}
            text = message.get("content")
            if not isinstance(text, str):
                return Completion("", error="response had no message content")
            usage = data.get("usage") or {}
            extra: dict[str, Any] = {}
            citations = data.get("citations") or message.get("citations")
            if isinstance(citations, list):
                extra["citations"] = [str(c) for c in citations]
            return Completion(
                text,
                Usage(int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)),
                latency,
                finish_reason=str(choices[0].get("finish_reason") or ""),
                extra=extra,
            )
        except (ValueError, AttributeError, TypeError) as exc:
            return Completion("", error=f"malformed response: {type(exc).__name__}")

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        return list(await asyncio.gather(*(self._one(r) for r in requests)))

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()
        self._clients = []


@register("model", "openai", free=False, local=False)
def openai(
    name: str,
    *,
    base_url: Annotated[str | None, "server URL (default $OPENAI_BASE_URL or OpenAI's)"] = None,
    api_key_env: Annotated[str | None, "environment variable holding the key"] = None,
    concurrency: Annotated[int, "requests in flight (halves on 429, grows back)"] = 8,
    timeout_s: Annotated[float, "seconds per request"] = 60.0,
    max_retries: Annotated[int, "retries of a failed request"] = 5,
    backoff_s: Annotated[float, "first retry delay (doubles, jittered)"] = 0.5,
) -> OpenAIModel:
    """Any OpenAI-compatible chat-completions server (--base-url, key from OPENAI_API_KEY)."""
    return OpenAIModel(name, base_url=base_url or None, api_key_env=api_key_env or None,
                       concurrency=concurrency, timeout_s=timeout_s, max_retries=max_retries,
                       backoff_s=backoff_s)
