"""``http``: the user's own service, asked by POSTing JSON built from a template.

The body template is JSON in which ``{question}``, ``{last}`` (the last user turn) and
``{system}`` are replaced inside strings, and a string that is exactly ``"{documents}"`` or
``"{messages}"`` becomes the list itself. The answer (and optional citations) are read from the
reply by a dotted path (``answer``, ``data.0.text``; a leading ``$.`` is allowed). Header values
may name environment variables (``Authorization: Bearer ${MY_KEY}``); they are expanded at send
time and never stored. Redirects are not followed, so credentials never reach another host.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from rattle.errors import BackendError, ConfigError
from rattle.items import Query, Response, Usage
from rattle.models.base import Completion
from rattle.registry import register
from rattle.seeding import canonical, short_hash
from rattle.systems import to_response

DEFAULT_TEMPLATE = '{"question": "{question}", "documents": "{documents}"}'
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def get_path(data: Any, path: str) -> Any:
    """Follow a dotted path (``a.b.0.c``) through dicts and lists; None when absent."""
    cur = data
    for part in path.removeprefix("$.").removeprefix("$").split("."):
        if part == "":
            continue
        if isinstance(cur, dict):
            cur = cur.get(part)
        elif isinstance(cur, list) and part.lstrip("-").isdigit() and -len(cur) <= int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return None
    return cur


def render(template: Any, values: dict[str, str], lists: dict[str, Any]) -> Any:
    if isinstance(template, str):
        whole = template.strip()
        if whole.startswith("{") and whole.endswith("}") and whole[1:-1] in lists:
            return lists[whole[1:-1]]
        out = template
        for name, value in values.items():
            out = out.replace("{" + name + "}", value)
        return out
    if isinstance(template, list):
        return [render(t, values, lists) for t in template]
    if isinstance(template, dict):
        return {k: render(v, values, lists) for k, v in template.items()}
    return template


@dataclass(frozen=True)
class HttpRequest:
    """One POST body for the user's service; its key addresses the cache."""

    body: str  # canonical JSON

    def key(self, identity: str) -> str:
        return short_hash([identity, self.body], 32)

    def prompt_chars(self) -> int:
        return len(self.body)


class HttpBackend:
    """Posts request bodies to the user's service with retries; reads the answer (and
    citations) by JSON path. Header values come from the environment at send time."""

    def __init__(
        self,
        url: str,
        *,
        answer_path: str,
        citations_path: str | None,
        headers: dict[str, str],
        concurrency: int,
        timeout_s: float,
        max_retries: int,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(f"http system: --url {url!r} is not an http(s) URL")
        self.url = url
        self.answer_path = answer_path
        self.citations_path = citations_path
        self._headers = headers
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.identity = f"http[{url}|{answer_path}|{citations_path or ''}]"
        self.display_name = f"http {url}"
        self.capabilities: frozenset[str] = frozenset()
        self.batch_size = 1
        self.concurrency = concurrency
        self._client: Any = None
        self._successes = 0

    def _expanded_headers(self) -> dict[str, str]:
        out = {}
        for name, value in self._headers.items():
            def sub(m: re.Match[str], name: str = name) -> str:
                var = m.group(1) or m.group(2)
                if var not in os.environ:
                    raise BackendError(f"http system header {name!r} needs ${var}; set it")
                return os.environ[var]

            out[name] = _ENV.sub(sub, value)
        return out

    async def _one(self, request: HttpRequest) -> Completion:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(
                headers=self._expanded_headers(), timeout=self.timeout_s, follow_redirects=False
            )
        error = ""
        for attempt in range(self.max_retries + 1):
            start = time.perf_counter()
            try:
                resp = await self._client.post(
                    self.url, content=request.body, headers={"Content-Type": "application/json"}
                )
            except httpx.ConnectError:
                error = f"cannot connect to {self.url}"
                if self._successes == 0 and attempt == self.max_retries:
                    raise BackendError(
                        f"cannot reach {self.url}; is the service running? check --url"
                    ) from None
            except httpx.HTTPError as exc:
                error = f"{type(exc).__name__}"
            else:
                if resp.status_code == 200:
                    try:
                        data = resp.json()
                    except ValueError:
                        return Completion("", error="reply is not JSON")
                    answer = get_path(data, self.answer_path)
                    if answer is None:
                        return Completion("", error=f"reply has no {self.answer_path!r}")
                    extra: dict[str, Any] = {}
                    if self.citations_path:
                        cites = get_path(data, self.citations_path)
                        if isinstance(cites, list):
                            extra["citations"] = [str(c) for c in cites]
                    self._successes += 1
                    text = answer if isinstance(answer, str) else json.dumps(answer)
                    return Completion(text, Usage(), time.perf_counter() - start, extra=extra)
                if 300 <= resp.status_code < 400:
                    return Completion("", error=f"HTTP {resp.status_code} redirect not followed")
                error = f"HTTP {resp.status_code}"
                if resp.status_code < 500 and resp.status_code != 429:
                    return Completion("", error=error)
            if attempt < self.max_retries:
                await asyncio.sleep(min(8.0, 0.25 * 2**attempt))
        return Completion("", error=f"failed after {self.max_retries + 1} attempts: {error}")

    async def generate(self, requests: Sequence[HttpRequest]) -> list[Completion]:
        return list(await asyncio.gather(*(self._one(r) for r in requests)))

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


class HttpSystem:
    """The user's own service as the system under test: a JSON body from a template."""

    def __init__(self, backend: HttpBackend, template: str, system_prompt: str = "") -> None:
        try:
            self.template = json.loads(template)
        except ValueError as exc:
            raise ConfigError(f"http system: body template is not JSON: {exc}") from None
        self.backend = backend
        self.system_prompt = system_prompt
        self.identity = f"{backend.identity}|{short_hash(self.template)}"

    def flow(self, query: Query) -> Generator[Any, Completion, tuple[Response, ...]]:
        messages: list[dict[str, str]] = []
        if self.system_prompt:
            messages.append({"role": "system", "content": self.system_prompt})
        out: list[Response] = []
        docs = [{"id": d.id, "title": d.title, "text": d.text} for d in query.documents]
        for turn in query.turns:
            messages.append({"role": "user", "content": turn})
            values = {"question": query.question or turn, "last": turn,
                      "system": self.system_prompt}
            body = render(self.template, values, {"documents": docs, "messages": list(messages)})
            completion = yield HttpRequest(canonical(body))
            out.append(to_response(completion))
            messages.append({"role": "assistant", "content": completion.text})
        return tuple(out)


def parse_headers(raw: Sequence[str]) -> dict[str, str]:
    headers = {}
    for line in raw:
        name, sep, value = line.partition(":")
        if not sep or not name.strip():
            raise ConfigError(f"--header {line!r} must look like 'Name: value'")
        headers[name.strip()] = value.strip()
    return headers


@register("system", "http", uses_model=False)
def http(
    *,
    url: str,
    answer_path: str = "answer",
    citations_path: str | None = None,
    template: str = DEFAULT_TEMPLATE,
    headers: Sequence[str] = (),
    concurrency: int = 8,
    timeout_s: float = 60.0,
    max_retries: int = 3,
    system_prompt: str = "",
    **_: Any,
) -> HttpSystem:
    """The user's own service: POST JSON from a template, read the answer by a JSON path."""
    backend = HttpBackend(
        url,
        answer_path=answer_path,
        citations_path=citations_path,
        headers=parse_headers(headers),
        concurrency=concurrency,
        timeout_s=timeout_s,
        max_retries=max_retries,
    )
    return HttpSystem(backend, template, system_prompt)
