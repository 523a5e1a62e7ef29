"""Embedded model throughput: rattle beside llama.cpp's engine driven directly, beside
llama-cpp-python, and over 1, 2, 4, 8 parallel slots, in one run with interleaved rounds.

Prompts: the RCC single-turn prompts of the built-in multiple-choice set (each repeats its
item's instruction and passage) and the closed-book questions of the built-in QA set, all
with rattle's default system prompt, greedy, ``--max-tokens`` tokens at most.

- direct@P: one ``xllamacpp.Server`` with P slots and P threads calling
  ``handle_chat_completions`` (the engine batches the concurrent requests).
- rattle@P: ``embedded?n_parallel=P`` through the executor and a fresh store (nothing cached),
  as ``rattle run`` drives it (prompt cache on, the default); rattle@1-cache is one slot
  with ``cache_prompt=0`` (every prompt evaluated whole: order-independent answers).
- llama-cpp-python (when installed): one ``Llama`` answering the prompts in order, as
  rattle's embedded model did before it moved to xllamacpp.

Every engine is loaded once before timing; each round runs every configuration once, in
the same order, so slow spells of a shared machine hit all of them. Prints medians in
requests/second and the ratios: rattle/direct per slot count (target 0.9), rattle/llama-cpp-
python, and the slot-scaling curve rattle@P / rattle@1.

Usage: python bench/embedded.py [--threads 2] [--max-tokens 16] [--rounds 3] [--slots 1,2,4,8]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rattle.datasets import load_dataset
from rattle.items import Message
from rattle.models import ChatRequest, Completion, GenParams, load_model
from rattle.models.embedded import embedded_gguf_path
from rattle.run.executor import Executor
from rattle.run.store import Store
from rattle.suites.rcc_protocol import single_turn
from rattle.systems.llm import DEFAULT_SYSTEM_PROMPT


def prompts(max_tokens: int) -> list[ChatRequest]:
    system = Message("system", DEFAULT_SYSTEM_PROMPT)
    params = GenParams(max_tokens=max_tokens)
    out = [ChatRequest((system, Message("user", single_turn(item, j))), params)
           for item in load_dataset("mini-mc") for j in range(len(item.questions))]
    out += [ChatRequest((system, Message("user", q.text)), params)
            for item in load_dataset("mini-qa") for q in item.questions]
    return out


def body(r: ChatRequest, cache: bool) -> dict[str, Any]:
    """What rattle's model sends for a greedy request."""
    p = r.params
    return {"messages": [{"role": m.role, "content": m.content} for m in r.messages],
            "max_tokens": p.max_tokens, "temperature": p.temperature, "top_p": p.top_p,
            "top_k": 1, "seed": p.seed, "cache_prompt": cache}


def direct_server(slots: int, threads: int, n_ctx: int) -> Callable[[list[ChatRequest]], int]:
    """xllamacpp driven directly with the settings rattle uses: flash attention off on CPU,
    the prompt cache on."""
    import xllamacpp as xlc

    cache = True

    p = xlc.CommonParams()
    p.model.path = str(embedded_gguf_path())
    p.n_ctx = n_ctx * slots
    p.n_parallel = slots
    p.n_batch = p.n_ubatch = 512
    p.cpuparams.n_threads = p.cpuparams_batch.n_threads = threads
    p.n_gpu_layers = 0
    p.flash_attn_type = xlc.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
    p.cache_prompt = cache
    p.cache_ram_mib = 512 if cache else 0
    p.verbosity = -1
    server = xlc.Server(p)
    pool = ThreadPoolExecutor(max_workers=slots)

    def run(reqs: list[ChatRequest]) -> int:
        outs = list(pool.map(lambda r: server.handle_chat_completions(body(r, cache)), reqs))
        return sum(int(o["usage"]["completion_tokens"]) for o in outs)

    return run


def rattle_model(slots: int, threads: int, n_ctx: int,
                 extra: str = "") -> Callable[[list[ChatRequest]], int]:
    model = load_model(f"embedded?n_threads={threads}&n_parallel={slots}&n_ctx={n_ctx}{extra}")
    model.server  # type: ignore[attr-defined]  # noqa: B018  (loads the weights untimed)

    def flow(r: ChatRequest) -> Generator[ChatRequest, Completion, Completion]:
        c = yield r
        return c

    def run(reqs: list[ChatRequest]) -> int:
        with tempfile.TemporaryDirectory() as d:
            ex = Executor(model, Store(Path(d)))
            ex.run(((i, flow(r)) for i, r in enumerate(reqs)), lambda *_: None)
            return ex.stats.tokens_completion

    return run


def llama_cpp_python(threads: int, n_ctx: int) -> Callable[[list[ChatRequest]], int] | None:
    try:
        import llama_cpp
    except ImportError:
        return None
    # A -march=native build faults (SIGILL) on VMs that report AMX without enabling it;
    # llama.cpp's extra buffer types (AMX, weight repacking) are turned off for the reference.
    default_params = llama_cpp.llama_model_default_params

    def params() -> Any:
        p = default_params()
        p.use_extra_bufts = False
        return p

    llama_cpp.llama_model_default_params = params
    llama_cpp.llama.llama_cpp.llama_model_default_params = params
    llm = llama_cpp.Llama(model_path=str(embedded_gguf_path()), n_ctx=n_ctx, n_threads=threads,
                          n_threads_batch=threads, verbose=False)

    def run(reqs: list[ChatRequest]) -> int:
        tokens = 0
        for r in reqs:
            out = llm.create_chat_completion(
                messages=[{"role": m.role, "content": m.content} for m in r.messages],
                max_tokens=r.params.max_tokens, temperature=0.0, top_k=1, seed=0)
            tokens += int(out["usage"]["completion_tokens"])
        return tokens

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slots", default="1,2,4,8")
    parser.add_argument("--n-ctx", type=int, default=2048, help="context per slot")
    parser.add_argument("--no-reference", action="store_true", help="skip llama-cpp-python")
    args = parser.parse_args()
    slots = [int(s) for s in args.slots.split(",")]
    reqs = prompts(args.max_tokens)

    configs: dict[str, Callable[[list[ChatRequest]], int]] = {}
    for p in slots:
        configs[f"direct@{p}"] = direct_server(p, args.threads, args.n_ctx)
        configs[f"rattle@{p}"] = rattle_model(p, args.threads, args.n_ctx)
        if p == 1:  # one slot without the prompt cache: what the cache is worth
            configs["rattle@1-cache"] = rattle_model(1, args.threads, args.n_ctx,
                                                     "&cache_prompt=0")
    reference = None if args.no_reference else llama_cpp_python(args.threads, args.n_ctx)
    if reference is not None:
        configs["llama-cpp-python"] = reference
    for run in configs.values():  # warm-up: first calls allocate buffers, fill caches
        run(reqs[:2])

    seconds: dict[str, list[float]] = {name: [] for name in configs}
    tokens: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, run in configs.items():
            start = time.perf_counter()
            tokens[name] = run(reqs)
            seconds[name].append(time.perf_counter() - start)

    rate = {name: len(reqs) / statistics.median(s) for name, s in seconds.items()}
    print(f"{len(reqs)} prompts, {args.threads} threads, greedy, max {args.max_tokens} tokens, "
          f"median of {args.rounds} interleaved rounds (requests/s; completion tokens of the "
          "last round)")
    for name, r in rate.items():
        spread = ", ".join(f"{len(reqs) / s:.2f}" for s in seconds[name])
        print(f"  {name:<18} {r:6.2f} req/s  (rounds: {spread}; {tokens[name]} tokens)")
    for p in slots:
        ratio = rate[f"rattle@{p}"] / rate[f"direct@{p}"]
        print(f"RATIO embedded_vs_direct@{p} {ratio:.2f} of xllamacpp driven directly (target 0.9)")
    if reference is not None:
        for p in slots:
            print(f"RATIO embedded@{p}_vs_llama_cpp_python "
                  f"{rate[f'rattle@{p}'] / rate['llama-cpp-python']:.2f}")
    base = rate[f"rattle@{slots[0]}"]
    curve = "  ".join(f"{p}: {rate[f'rattle@{p}'] / base:.2f}" for p in slots)
    print(f"RATIO embedded_slot_scaling rattle@P / rattle@{slots[0]}  {curve}")
    if "rattle@1-cache" in rate:
        print(f"RATIO embedded_prompt_cache rattle@1 / rattle@1-cache "
              f"{rate['rattle@1'] / rate['rattle@1-cache']:.2f}")


if __name__ == "__main__":
    main()
