"""``transformers/<path>``: a local Hugging Face model directory on the CPU or a GPU.

Optional extra (``pip install 'rattle[transformers]'``). Loading is offline: the path must be a
local directory (or a GGUF file, dequantised by transformers with ``?gguf_file=``). Hub ids work
for users with network access when ``allow_download=1`` is passed.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from rattle.errors import ConfigError, MissingExtraError
from rattle.items import Usage
from rattle.models.base import SCORING, ChatRequest, Completion, ScoreRequest, request_identity
from rattle.registry import register


class TransformersModel:
    """A causal LM from a local directory (or GGUF file), generation and scoring."""

    def __init__(self, path: str, *, gguf_file: str | None = None, device: str = "cpu",
                 allow_download: bool = False) -> None:
        self.path = path
        self.gguf_file = gguf_file
        self.device = device
        self.allow_download = allow_download
        if not self.allow_download and not Path(path).exists():
            raise ConfigError(
                f"transformers model path {path!r} does not exist; pass a local model directory "
                "(or ?allow_download=1 for a hub id on a machine with network access)"
            )
        identity_options = {k: v for k, v in (("gguf_file", gguf_file),
                                              ("allow_download", "1" if allow_download else None))
                            if v is not None}
        self.identity = request_identity("transformers", path, identity_options)
        self.capabilities = frozenset({SCORING})
        self.display_name = f"transformers/{Path(path).name or path}"
        self.batch_size = 8
        self.concurrency = 1
        self._lock = threading.Lock()
        self._model: Any = None
        self._tok: Any = None

    def _ensure(self) -> None:
        if self._model is not None:
            return
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError:
            raise MissingExtraError("transformers", "transformers", "the transformers backend") from None
        kwargs: dict[str, Any] = {"local_files_only": not self.allow_download}
        if self.gguf_file:
            kwargs["gguf_file"] = self.gguf_file
        self._tok = AutoTokenizer.from_pretrained(self.path, **kwargs)
        model: Any = AutoModelForCausalLM.from_pretrained(self.path, **kwargs)
        self._model = model.to(self.device)
        self._model.eval()

    def _ids(self, messages: Sequence[Any]) -> Any:
        chat = [{"role": m.role, "content": m.content} for m in messages]
        if getattr(self._tok, "chat_template", None):
            return self._tok.apply_chat_template(
                chat, add_generation_prompt=True, return_tensors="pt", return_dict=False
            )
        text = "\n".join(f"{m['role']}: {m['content']}" for m in chat) + "\nassistant:"
        return self._tok(text, return_tensors="pt").input_ids

    def _complete(self, request: ChatRequest) -> Completion:
        import torch

        p = request.params
        start = time.perf_counter()
        ids = self._ids(request.messages).to(self.device)
        with torch.no_grad():
            out = self._model.generate(
                ids,
                max_new_tokens=p.max_tokens,
                do_sample=p.temperature > 0,
                temperature=p.temperature if p.temperature > 0 else None,
                top_p=p.top_p if p.temperature > 0 else None,
                pad_token_id=self._tok.eos_token_id,
            )
        new = out[0, ids.shape[1]:]
        text = self._tok.decode(new, skip_special_tokens=True)
        for stop in p.stop:
            cut = text.find(stop)
            if cut >= 0:
                text = text[:cut]
        return Completion(
            text, Usage(int(ids.shape[1]), int(new.shape[0])), time.perf_counter() - start
        )

    def _run(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        with self._lock:
            self._ensure()
            return [self._complete(r) for r in requests]

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        return await asyncio.to_thread(self._run, requests)

    def _score(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        import torch

        with self._lock:
            self._ensure()
            results = []
            for request in requests:
                prompt = self._ids(request.messages)[0].tolist()
                scores = []
                for continuation in request.continuations:
                    cont = self._tok(continuation, add_special_tokens=False).input_ids
                    ids = torch.tensor([prompt + cont], device=self.device)
                    with torch.no_grad():
                        logits = self._model(ids).logits[0].double()
                    logp = torch.log_softmax(logits, dim=-1)
                    total = sum(float(logp[len(prompt) - 1 + j, t]) for j, t in enumerate(cont))
                    scores.append(total)
                results.append(scores)
            return results

    async def loglikelihood(self, requests: Sequence[ScoreRequest]) -> list[list[float]]:
        return await asyncio.to_thread(self._score, requests)

    async def aclose(self) -> None:
        self._model = None


@register("model", "transformers", free=True, local=True)
def transformers(
    name: str,
    *,
    gguf_file: Annotated[str | None, "a GGUF file inside the directory (dequantised)"] = None,
    device: Annotated[str, "torch device: cpu, cuda, cuda:1, mps"] = "cpu",
    allow_download: Annotated[bool, "allow a hub id (network access needed)"] = False,
) -> TransformersModel:
    """A local Hugging Face model directory: transformers/<path> (extra: transformers)."""
    if not name:
        raise ConfigError("transformers/<path> needs a local model directory")
    return TransformersModel(name, gguf_file=gguf_file, device=device,
                             allow_download=allow_download)
