"""Embedded model throughput: rattle beside llama.cpp driven directly, on the same prompts.

Prompts: the RCC single-turn prompts of the built-in multiple-choice set (every question of an
item repeats the item's instruction and passage), in dataset order. Direct: one
``llama_cpp.Llama`` answering them in that order. rattle: the same requests through the
executor and a fresh store (batches run in prompt order). Both greedy, same threads and
context. Prints prompt and generation tokens/second, the ratio, and the prompt tokens actually
evaluated (llama.cpp reuses the KV cache of the longest common prefix with the previous
prompt) against the naive count (every prompt evaluated from scratch).

Usage: python bench/embedded.py [--threads 2] [--max-tokens 16] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from rattle.datasets import load_dataset
from rattle.items import Message
from rattle.models import ChatRequest, GenParams, load_model
from rattle.models.embedded import embedded_gguf_path
from rattle.run.executor import Executor
from rattle.run.store import Store
from rattle.suites.rcc_protocol import single_turn
from rattle.systems.llm import DEFAULT_SYSTEM_PROMPT


def prompts(max_tokens: int) -> list[ChatRequest]:
    out = []
    for item in load_dataset("mini-mc"):
        for j in range(len(item.questions)):
            out.append(ChatRequest((Message("system", DEFAULT_SYSTEM_PROMPT),
                                    Message("user", single_turn(item, j))),
                                   GenParams(max_tokens=max_tokens)))
    return out


def evaluated(token_lists: list[list[int]]) -> int:
    total, previous = 0, []
    for tokens in token_lists:
        shared = 0
        for a, b in zip(previous, tokens[:-1], strict=False):
            if a != b:
                break
            shared += 1
        total += len(tokens) - shared
        previous = tokens
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import llama_cpp

    reqs = prompts(args.max_tokens)
    llm = llama_cpp.Llama(model_path=str(embedded_gguf_path()), n_ctx=4096,
                          n_threads=args.threads, n_threads_batch=args.threads, verbose=False)
    model = load_model(f"embedded?n_threads={args.threads}")
    model.llm  # load the weights outside the timing, as for the direct run  # noqa: B018

    def direct() -> tuple[float, int, int]:
        start = time.perf_counter()
        pt = ct = 0
        for r in reqs:
            out = llm.create_chat_completion(
                messages=[{"role": m.role, "content": m.content} for m in r.messages],
                max_tokens=args.max_tokens, temperature=0.0, top_k=1, seed=0)
            pt += out["usage"]["prompt_tokens"]
            ct += out["usage"]["completion_tokens"]
        return time.perf_counter() - start, pt, ct

    def through_rattle() -> tuple[float, Executor]:
        with tempfile.TemporaryDirectory() as d:
            ex = Executor(model, Store(Path(d)))

            def flow(r: ChatRequest):  # type: ignore[no-untyped-def]
                c = yield r
                return c

            start = time.perf_counter()
            ex.run(((i, flow(r)) for i, r in enumerate(reqs)), lambda *_: None)
            return time.perf_counter() - start, ex

    # Alternate the two, several rounds, and compare medians: this machine is noisy.
    direct_runs, ours_runs = [], []
    for _ in range(args.rounds):
        direct_runs.append(direct())
        ours_runs.append(through_rattle())
    direct_s = statistics.median(r[0] for r in direct_runs)
    _, pt, ct = direct_runs[0]
    ours_s = statistics.median(r[0] for r in ours_runs)
    ex = ours_runs[0][1]
    s = ex.stats
    tokenized = {id(r): model.llm.tokenize(model._prompt_text(r.messages).encode(), special=True)
                 for r in reqs}
    direct_eval = evaluated([tokenized[id(r)] for r in reqs])
    ordered = sorted(reqs, key=lambda r: r.payload()["messages"])
    ours_eval = evaluated([tokenized[id(r)] for r in ordered])
    asyncio.run(model.aclose())
    print(f"{len(reqs)} prompts, {args.threads} threads, greedy, max {args.max_tokens} tokens, "
          f"median of {args.rounds} alternating rounds")
    print(f"  direct llama.cpp: {direct_s:6.2f} s  prompt {pt / direct_s:7.0f} tok/s  "
          f"generation {ct / direct_s:6.0f} tok/s (tokens per wall second)")
    print(f"  through rattle:   {ours_s:6.2f} s  prompt {s.tokens_prompt / ours_s:7.0f} tok/s  "
          f"generation {s.tokens_completion / ours_s:6.0f} tok/s")
    print(f"  throughput ratio rattle/direct: {direct_s / ours_s:.2f}")
    print(f"RATIO embedded_throughput {direct_s / ours_s:.2f} of direct llama.cpp (target 0.9)")
    print(f"  prompt tokens evaluated: naive {pt}, direct order {direct_eval}, "
          f"rattle order {ours_eval} ({100 * (1 - ours_eval / pt):.0f}% fewer than naive)")
    print(f"RATIO embedded_prompt_tokens {ours_eval / pt:.2f} of the naive count ({ours_eval}/{pt})")


if __name__ == "__main__":
    main()
