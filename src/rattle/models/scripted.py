"""``scripted/<name>``: the shipped, deterministic test double (STYLE.md 11).

- ``scripted/echo`` repeats the last user message;
- ``scripted/constant?text=...`` always answers ``text``;
- ``scripted/rules?file=rules.yaml`` answers with the reply of the first regex that matches the
  last user message (``default=`` when none does); the file is a mapping ``regex: reply`` or a
  list of ``{pattern, reply}``, in JSON or YAML.

Every variant accepts ``latency_ms`` (simulated time per request), ``error_rate`` (share of
requests that fail, drawn from a hash of the request so reruns see the same faults) and ``seed``.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from rattle.errors import ConfigError, DataError
from rattle.items import Usage
from rattle.models.base import SCORING, ChatRequest, Completion, ScoreRequest, request_identity
from rattle.registry import register
from rattle.seeding import derive_seed, short_hash

SCRIPTS = ("echo", "constant", "rules")


def _text(value: Any) -> str:
    """An option value as the user would have typed it (identity and display name)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _load_rules(path: str) -> list[tuple[re.Pattern[str], str]]:
    file = Path(path)
    if not file.is_file():
        raise ConfigError(f"scripted/rules: rules file {path!r} not found; pass ?file=<yaml or json>")
    text = file.read_text(encoding="utf-8")
    try:
        if file.suffix in (".yaml", ".yml"):
            import yaml

            data: Any = yaml.safe_load(text)
        else:
            data = json.loads(text)
    except Exception as exc:
        raise DataError(f"cannot parse rules: {exc}", path=path) from None
    pairs: list[tuple[str, str]] = []
    if isinstance(data, dict):
        pairs = [(str(k), str(v)) for k, v in data.items()]
    elif isinstance(data, list):
        for i, row in enumerate(data):
            if not isinstance(row, dict) or "pattern" not in row or "reply" not in row:
                raise DataError(
                    "each rule needs 'pattern' and 'reply'", path=path, field=f"[{i}]"
                )
            pairs.append((str(row["pattern"]), str(row["reply"])))
    else:
        raise DataError("rules must be a mapping or a list", path=path)
    compiled = []
    for pattern, reply in pairs:
        try:
            compiled.append((re.compile(pattern, re.DOTALL), reply))
        except re.error as exc:
            raise DataError(f"bad regex {pattern!r}: {exc}", path=path) from None
    return compiled


class ScriptedModel:
    """Deterministic replies; faults and latency drawn from a hash of the request.

    ``options`` are the options the user gave (typed), which name the model in tables and,
    except fault injection and latency, make its identity.
    """

    def __init__(self, script: str, *, text: str = "", default: str = "",
                 file: str | None = None, latency_ms: float = 0.0, error_rate: float = 0.0,
                 seed: int = 0, concurrency: int | None = None,
                 options: dict[str, Any] | None = None) -> None:
        if script not in SCRIPTS:
            raise ConfigError(
                f"unknown scripted model {script!r}; use one of: "
                + ", ".join(f"scripted/{s}" for s in SCRIPTS)
            )
        given = dict(options or {})
        self.script = script
        self.latency_s = latency_ms / 1000.0
        self.error_rate = error_rate
        self.seed = seed
        self.text = text
        self.default = default
        self.rules: list[tuple[re.Pattern[str], str]] = []
        ident_opts: dict[str, Any] = {k: _text(v) for k, v in sorted(given.items())}
        if script == "rules":
            if not file:
                raise ConfigError("scripted/rules needs ?file=<yaml or json of regex -> reply>")
            self.rules = _load_rules(file)
            ident_opts["file"] = short_hash([(p.pattern, r) for p, r in self.rules])
        # error_rate and latency do not change a successful answer, so they stay out of the
        # identity: a rerun without faults reuses the answers cached by a faulty run.
        for k in ("latency_ms", "error_rate", "concurrency"):
            ident_opts.pop(k, None)
        self.identity = request_identity("scripted", script, ident_opts)
        shown = "&".join(f"{k}={_text(v)}" for k, v in sorted(given.items()))
        self.display_name = f"scripted/{script}" + (f"?{shown}" if shown else "")
        self.capabilities = frozenset({SCORING})
        self.batch_size = 256
        # Without latency there is nothing to overlap: one call at a time.
        self.concurrency = max(1, concurrency or 64) if self.latency_s > 0 else 1
        self.calls = 0

    def reply(self, request: ChatRequest) -> str:
        last = next((m.content for m in reversed(request.messages) if m.role == "user"), "")
        if self.script == "echo":
            return last
        if self.script == "constant":
            return self.text
        for pattern, reply in self.rules:
            match = pattern.search(last)
            if match:
                return match.expand(reply)
        return self.default

    def _faulty(self, request: ChatRequest) -> bool:
        if self.error_rate <= 0:
            return False
        draw = derive_seed(self.seed, request.key(self.identity)) / 2**64
        return draw < self.error_rate

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        self.calls += len(requests)
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        out = []
        for request in requests:
            start = time.perf_counter()
            if self._faulty(request):
                out.append(Completion("", error="scripted fault (error_rate)"))
                continue
            text = self.reply(request)
            usage = Usage(
                prompt_tokens=request.prompt_chars() // 4 + 1, completion_tokens=len(text) // 4 + 1
            )
            out.append(Completion(text, usage, self.latency_s + time.perf_counter() - start))
        return out

    async def loglikelihood(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        """Deterministic pseudo log-likelihoods: shorter continuations score higher; a
        ``rules`` model adds 10 to continuations its first matching rule's reply occurs in."""
        self.calls += len(requests)
        out = []
        for request in requests:
            favourite = self.reply(ChatRequest(request.messages)) if self.script == "rules" else ""
            out.append([-float(len(c)) + (10.0 if favourite and favourite in c else 0.0)
                        for c in request.continuations])
        return out

    async def aclose(self) -> None:
        return None


@register("model", "scripted", free=True, local=True)
def scripted(
    name: str,
    *,
    text: Annotated[str, "constant: the reply"] = "",
    file: Annotated[str | None, "rules: YAML/JSON mapping regex -> reply"] = None,
    default: Annotated[str, "rules: the reply when no rule matches"] = "",
    latency_ms: Annotated[float, "simulated milliseconds per request"] = 0.0,
    error_rate: Annotated[float, "share of requests that fail (drawn from the request hash)"] = 0.0,
    seed: Annotated[int, "seed of the fault draws"] = 0,
    concurrency: Annotated[int | None, "calls in flight when latency_ms > 0 (default 64)"] = None,
) -> ScriptedModel:
    """Deterministic test double: scripted/echo, scripted/constant?text=, scripted/rules?file=."""
    from rattle.options import non_defaults

    given = non_defaults(scripted, text=text, file=file, default=default,
                         latency_ms=latency_ms, error_rate=error_rate, seed=seed)
    return ScriptedModel(name or "echo", text=text, default=default, file=file,
                         latency_ms=latency_ms, error_rate=error_rate, seed=seed,
                         concurrency=concurrency, options=given)
