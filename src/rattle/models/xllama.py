"""A GGUF model on llama.cpp's own C++ server engine, in-process through ``xllamacpp``.

One ``xllamacpp.Server`` per model, with ``n_parallel`` slots (default: the executor's
concurrency, 1 unless ``--concurrency`` says more): the executor keeps ``concurrency``
single-request calls in flight (``batch_size`` 1), each on its own worker thread (the engine
releases the GIL), so llama.cpp batches the concurrent requests continuously, one decode step
for every busy slot. The prompt cache is on: each slot keeps the KV cache of its last prompt
and the engine picks the slot whose cache shares the longest prefix with a new prompt, so
prompts that repeat an instruction or a passage are evaluated only past the shared part.
``cache_prompt=0`` turns it off: every answer is then computed from an empty slot, bit-identical
whatever was asked before (slower; docs/engine.md).

Log-likelihood scoring: llama.cpp's server returns log-probabilities for generated tokens
only (no prompt log-probabilities, no ``echo``). A continuation is therefore scored by
*forcing* it: a grammar that accepts exactly its token ids (``<[id]>``), greedy decoding, and
the log-probability the engine reports for each forced token, which it computes from the raw
logits before any sampler or grammar (``post_sampling_probs`` off). docs/engine.md records the
check against llama-cpp-python's teacher-forced scores.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import logging
import math
import os
import secrets
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rattle.errors import BackendError, ConfigError, MissingExtraError
from rattle.items import Message, Usage
from rattle.models.base import SCORING, ChatRequest, Completion, ScoreRequest, request_identity

log = logging.getLogger(__name__)

ENGINE = "xllamacpp"
#: Slots when neither ``n_parallel`` nor ``--concurrency`` is given. llama.cpp's CPU kernels
#: round differently for different batch shapes (other sequences in the same decode step, a
#: prompt partly cached), enough to flip a rare greedy near-tie; one slot keeps a run's
#: requests in one deterministic order, so a repeated run is bit-identical (docs/engine.md).
DEFAULT_PARALLEL = 1
#: Host-memory prompt cache: slot states kept for reuse by later prompts. llama.cpp's own
#: default is 8 GiB; a small model's states are a few MB each.
DEFAULT_CACHE_RAM_MIB = 512
#: First-token alternatives read back when every continuation is one token (option letters).
TOP_LOGPROBS = 20
_GGUF_MAGIC = b"GGUF"


def engine_version() -> str:
    """The installed xllamacpp version (part of the model identity); no import needed."""
    try:
        return importlib.metadata.version(ENGINE)
    except importlib.metadata.PackageNotFoundError:
        raise MissingExtraError(ENGINE, "embedded", "llama.cpp models (embedded, llamacpp/)") from None


def _import_engine() -> Any:
    try:
        import xllamacpp
    except ImportError:
        raise MissingExtraError(ENGINE, "embedded", "llama.cpp models (embedded, llamacpp/)") from None
    return xllamacpp


class LlamaServerModel:
    """A GGUF file on llama.cpp's server engine (xllamacpp): parallel slots, greedy, cached."""

    def __init__(
        self,
        path: Path,
        *,
        label: str,
        display_name: str = "",
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_batch: int = 512,
        n_parallel: int | None = None,
        n_gpu_layers: int = 0,
        cache_ram_mib: int = DEFAULT_CACHE_RAM_MIB,
        cache_prompt: bool | None = None,
        verbose: bool = False,
        concurrency: int | None = None,
    ) -> None:
        if not path.is_file():
            raise ConfigError(f"GGUF file {str(path)!r} not found; pass an existing .gguf path")
        with path.open("rb") as fh:
            if fh.read(4) != _GGUF_MAGIC:
                raise ConfigError(f"{path} is not a GGUF file (no GGUF header); pass a .gguf model")
        for key, value in (("n_ctx", n_ctx), ("n_batch", n_batch)):
            if value < 1:
                raise ConfigError(f"model option {key}={value} must be at least 1")
        if n_parallel is not None and n_parallel < 1:
            raise ConfigError(f"model option n_parallel={n_parallel} must be at least 1")
        self.path = path
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, os.cpu_count() or 1)
        self.n_batch = n_batch
        self.n_gpu_layers = n_gpu_layers
        self.cache_ram_mib = cache_ram_mib
        self.verbose = verbose
        self._cache_prompt = cache_prompt
        options: dict[str, Any] = {"file": path.name, "size": path.stat().st_size, "n_ctx": n_ctx,
                                   "engine": ENGINE, "engine_version": engine_version()}
        if n_gpu_layers:
            # GPU kernels round differently from the CPU ones: their answers are their own.
            options["n_gpu_layers"] = n_gpu_layers
        self.identity = request_identity("llamacpp", label, options)
        self.display_name = display_name or f"llamacpp/{path.name}"
        self.capabilities = frozenset({SCORING})
        # One request per call and one call per slot: with several slots the engine batches
        # the calls in flight (continuous batching).
        self.batch_size = 1
        self._n_parallel = n_parallel
        self.concurrency = n_parallel or concurrency or DEFAULT_PARALLEL
        self._server: Any = None
        self._pool: ThreadPoolExecutor | None = None
        self._http: Any = None
        self._api_key = secrets.token_hex(16)
        self._lock = threading.Lock()
        self._tokens: dict[str, list[int]] = {}
        #: prompt tokens the engine actually evaluated (the rest came from its prompt cache)
        self.prompt_tokens_evaluated = 0
        self.prompt_tokens = 0

    @property
    def n_parallel(self) -> int:
        """Slots: ``n_parallel`` if given, else the executor's concurrency when first used."""
        return self._n_parallel or max(1, self.concurrency)

    @property
    def cache_prompt(self) -> bool:
        """Reuse cached prompt prefixes when generating (on unless the option turns it off;
        off, every answer is bit-identical whatever was asked before it)."""
        return True if self._cache_prompt is None else self._cache_prompt

    # -- the engine ---------------------------------------------------------------------------
    def _params(self, slots: int) -> Any:
        xlc = _import_engine()
        p = xlc.CommonParams()
        p.model.path = str(self.path)
        # The server divides its context among the slots: each request gets n_ctx tokens.
        p.n_ctx = self.n_ctx * slots
        p.n_parallel = slots
        p.fit_params = False  # the context asked for, not one fitted to free memory
        p.n_batch = self.n_batch
        p.n_ubatch = min(self.n_batch, p.n_ubatch)
        p.cpuparams.n_threads = self.n_threads
        p.cpuparams_batch.n_threads = self.n_threads
        p.n_gpu_layers = self.n_gpu_layers
        if not self.n_gpu_layers:
            # llama.cpp's CPU flash attention (its default "auto" turns it on) works in half
            # precision and moves SmolLM2's log-probabilities by up to 0.5 nats from the
            # float32 reference; without it they agree with llama-cpp-python's to about 0.1
            # (docs/engine.md).
            p.flash_attn_type = xlc.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
        p.cache_prompt = self.cache_prompt
        p.cache_ram_mib = self.cache_ram_mib if self.cache_prompt else 0
        # Greedy by default; requests carry their own sampling settings.
        p.sampling.temp = 0.0
        p.sampling.top_k = 1
        # The engine also listens on a random loopback port (used here for /tokenize only);
        # a per-process key keeps other local programs out.
        p.api_keys = [self._api_key]
        p.verbosity = 3 if self.verbose or log.isEnabledFor(logging.DEBUG) else -1
        return p

    @property
    def server(self) -> Any:
        """The engine, started on first use (loads the weights)."""
        with self._lock:
            if self._server is None:
                slots = self.n_parallel
                params = self._params(slots)
                start = time.perf_counter()
                try:
                    self._server = _import_engine().Server(params)
                except RuntimeError as exc:
                    raise BackendError(
                        f"llama.cpp cannot load {self.path} ({exc}); rerun with the model option "
                        "verbose=1 (e.g. --model 'embedded?verbose=1') to see llama.cpp's log"
                    ) from None
                log.info("llama.cpp (%s %s) loaded %s with %d slots in %.1f s", ENGINE,
                         engine_version(), self.path.name, slots, time.perf_counter() - start)
            return self._server

    def _worker(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.n_parallel,
                                                thread_name_prefix="llama-slot")
            return self._pool

    def _chat(self, body: dict[str, Any]) -> dict[str, Any]:
        out: Any = self.server.handle_chat_completions(body)
        if not isinstance(out, dict):
            raise BackendError(f"llama.cpp returned {type(out).__name__}, expected a JSON object")
        return out

    @staticmethod
    def _messages(messages: Sequence[Message]) -> list[dict[str, str]]:
        return [{"role": m.role, "content": m.content} for m in messages]

    # -- generation ---------------------------------------------------------------------------
    def _complete(self, request: ChatRequest) -> Completion:
        p = request.params
        body: dict[str, Any] = {
            "messages": self._messages(request.messages),
            "max_tokens": p.max_tokens,
            "temperature": p.temperature,
            "top_p": p.top_p,
            "top_k": 1 if p.temperature == 0 else 40,
            "seed": p.seed,
            "cache_prompt": self.cache_prompt,
        }
        if p.stop:
            body["stop"] = list(p.stop)
        start = time.perf_counter()
        try:
            out = self._chat(body)
        except (RuntimeError, ValueError) as exc:
            return Completion("", error=f"llama.cpp: {exc}")
        if "error" in out:
            err = out["error"]
            return Completion("", error=f"llama.cpp: {err.get('message', err) if isinstance(err, dict) else err}")
        usage = out.get("usage") or {}
        choice = out["choices"][0]
        prompt = int(usage.get("prompt_tokens", 0))
        cached = int((usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0))
        with self._lock:
            self.prompt_tokens += prompt
            self.prompt_tokens_evaluated += prompt - cached
        return Completion(
            choice["message"].get("content") or "",
            Usage(prompt, int(usage.get("completion_tokens", 0))),
            time.perf_counter() - start,
            finish_reason=str(choice.get("finish_reason") or ""),
        )

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        loop = asyncio.get_running_loop()
        pool = self._worker()
        return list(await asyncio.gather(
            *(loop.run_in_executor(pool, self._complete, r) for r in requests)))

    # -- log-likelihood scoring ---------------------------------------------------------------
    def tokenize(self, text: str) -> list[int]:
        """Token ids of ``text`` on its own (no BOS, special tokens read as text)."""
        known = self._tokens.get(text)
        if known is not None:
            return known
        import httpx

        address = str(self.server.listening_address)
        with self._lock:
            if self._http is None:
                self._http = httpx.Client(base_url=address, timeout=60.0,
                                          headers={"Authorization": f"Bearer {self._api_key}"})
            client = self._http
        reply = client.post("/tokenize", json={"content": text, "add_special": False,
                                               "parse_special": False})
        if reply.status_code != 200:
            raise BackendError(f"llama.cpp /tokenize answered {reply.status_code}: {reply.text[:200]}")
        tokens = [int(t) for t in reply.json()["tokens"]]
        if len(self._tokens) > 50_000:
            self._tokens.clear()
        self._tokens[text] = tokens
        return tokens

    def _forced(self, messages: list[dict[str, str]], tokens: Sequence[int],
                top: int = 1) -> list[dict[str, Any]]:
        """Decode exactly ``tokens`` after the prompt; the engine's per-token log-probs."""
        body = {
            "messages": messages,
            "max_tokens": len(tokens),
            "temperature": 0.0,
            "top_k": 1,
            "logprobs": True,
            "top_logprobs": top,
            # Every option from an empty slot: the same computation for each, whatever was
            # asked before (a cached prompt moves log-probabilities by up to 0.14 nats).
            "cache_prompt": False,
            "grammar": "root ::= " + " ".join(f"<[{t}]>" for t in tokens),
        }
        out = self._chat(body)
        if "error" in out:
            raise BackendError(f"llama.cpp cannot score a continuation: {out['error']}")
        content = out["choices"][0]["logprobs"]["content"]
        got = [int(d["id"]) for d in content]
        if got != list(tokens):
            raise BackendError(f"llama.cpp decoded tokens {got} while forcing {list(tokens)}")
        usage = out.get("usage") or {}
        cached = int((usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0))
        with self._lock:
            self.prompt_tokens_evaluated += int(usage.get("prompt_tokens", 0)) - cached
        return list(content)

    def _score_tokens(self, messages: list[dict[str, str]], tokens: Sequence[int]) -> float:
        if not tokens:
            return 0.0
        return math.fsum(float(d["logprob"]) for d in self._forced(messages, tokens))

    def _letters(self, messages: list[dict[str, str]],
                 ids: Sequence[int]) -> dict[int, float]:
        """Log-probabilities of single-token continuations from one decoding step: the first
        token's top alternatives (raw logits, like every forced score)."""
        body_tokens = sorted(set(ids))
        body = {
            "messages": messages,
            "max_tokens": 1,
            "temperature": 0.0,
            "top_k": 1,
            "logprobs": True,
            "top_logprobs": TOP_LOGPROBS,
            "cache_prompt": False,
            "grammar": "root ::= " + " | ".join(f"<[{t}]>" for t in body_tokens),
        }
        out = self._chat(body)
        if "error" in out:
            raise BackendError(f"llama.cpp cannot score continuations: {out['error']}")
        first = out["choices"][0]["logprobs"]["content"][0]
        found = {int(d["id"]): float(d["logprob"]) for d in first.get("top_logprobs") or []}
        found[int(first["id"])] = float(first["logprob"])
        return {t: found[t] for t in body_tokens if t in found}

    def _score(self, request: ScoreRequest) -> list[float]:
        messages = self._messages(request.messages)
        tokens = [self.tokenize(c) for c in request.continuations]
        known: dict[int, float] = {}
        if len(tokens) > 1 and all(len(t) == 1 for t in tokens):
            known = self._letters(messages, [t[0] for t in tokens])
        pool = self._worker()
        futures = {i: pool.submit(self._score_tokens, messages, t)
                   for i, t in enumerate(tokens) if not (len(t) == 1 and t[0] in known)}
        return [futures[i].result() if i in futures else known[t[0]]
                for i, t in enumerate(tokens)]

    async def loglikelihood(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        """Sum of log-probabilities of each continuation's tokens after the chat prompt."""
        # Each request waits on its continuations, which run on the slot workers: the waiting
        # happens on the loop's default threads, never on a slot worker.
        loop = asyncio.get_running_loop()
        return list(await asyncio.gather(
            *(loop.run_in_executor(None, self._score, r) for r in requests)))

    async def aclose(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
            http, self._http = self._http, None
        if pool is not None:
            pool.shutdown(wait=True)
        if http is not None:
            http.close()
        with self._lock:
            self._server = None  # the engine stops its loop when released
