"""Harness overhead: how much time rattle spends outside the model.

1. Zero-latency scripted model: cases/second through plan -> store -> judge -> metrics for
   ``rcc.robustness`` (single-turn) on a synthetic dataset, beside the reference of calling the
   same model directly on the same requests (no planning, store, judging or metrics).
2. Embedded model (SmolLM2 via llama.cpp): the share of wall time spent outside the model on
   the ``quick`` suite, cold store.

Each size runs in its own process, so its peak RSS is its own.

Usage: python bench/overhead.py [--cases 10000 100000 1000000] [--embedded-limit 3] [--skip-embedded]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from rattle.datasets import BUILTIN
from rattle.run.config import build_suite, build_system
from rattle.run.runner import RunConfig, run_suite

# Variants per attack and item: 20 gives 317 cases per item, so a million cases come from
# 3,200 items and the run's memory, not the dataset's, is what the peak RSS shows.
SAMPLES = 20


def synthetic_dataset(n_items: int, path: Path) -> None:
    base = json.loads(BUILTIN["mini-mc"].read_text())
    records = list(base.values())
    out = {str(i): records[i % len(records)] for i in range(n_items)}
    path.write_text(json.dumps(out))


def direct_model_seconds(config: RunConfig) -> tuple[float, int]:
    """Reference: the same requests straight to the model, nothing else."""
    suite = build_suite(config)
    system = build_system(config)
    requests = []
    for case in suite.cases():
        flow = system.flow(case.query)
        requests.append(next(flow))
    model = system.backend
    start = time.perf_counter()
    for i in range(0, len(requests), model.batch_size):
        asyncio.run(model.generate(requests[i : i + model.batch_size]))
    return time.perf_counter() - start, len(requests)


def scripted_cases(n_cases: int, tmp: Path) -> None:
    """One run of about ``n_cases`` cases in a fresh process, for its own peak RSS."""
    import subprocess

    # rcc.robustness, single-turn, SAMPLES variants per attack: (1 + 9 * SAMPLES) variants per
    # item, 1.75 questions per mini item on average.
    items = max(1, round(n_cases / ((1 + 9 * SAMPLES) * 1.75)))
    code = ("import sys; sys.path.insert(0, 'bench'); from overhead import scripted; "
            f"from pathlib import Path; scripted({items}, Path({str(tmp)!r}), direct=False)")
    subprocess.run([sys.executable, "-c", code], check=True)


def scripted(n_items: int, tmp: Path, direct: bool = True) -> None:
    data = tmp / f"synthetic-{n_items}.json"
    synthetic_dataset(n_items, data)
    config = RunConfig(suite="rcc.robustness", model="scripted/constant?text=(A)",
                       dataset=str(data), workspace=str(tmp / f"ws-{n_items}"),
                       out=str(tmp / f"run-{n_items}"),
                       suite_options={"protocol": "single", "samples": SAMPLES})
    start = time.perf_counter()
    outcome = run_suite(config)
    wall = time.perf_counter() - start
    cases = int(outcome.run_info["records"])
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sec = outcome.run_info["seconds"]
    core = sec["plan_ask_judge"] + sec["metrics"]
    line = (f"scripted  cases={cases:>8}  plan+store+judge+metrics {cases / core:>6.0f} cases/s "
            f"({core:6.1f} s); with outputs (jsonl, parquet, report) {cases / wall:>6.0f} "
            f"cases/s ({wall:6.1f} s)  peak RSS {rss:5.0f} MB")
    if direct:
        ref_seconds, n_req = direct_model_seconds(config)
        line += (f"  | direct model calls {n_req / ref_seconds:.0f} req/s, rattle/direct time "
                 f"{wall / ref_seconds:.0f}x")
    print(line, flush=True)
    print(f"RATIO harness_{cases}_cases {cases / core:.0f} cases/s (target 5000 cases/s; "
          f"peak RSS {rss:.0f} MB)", flush=True)


def embedded(limit: int, tmp: Path) -> None:
    config = RunConfig(suite="quick", model="embedded", limit=limit,
                       workspace=str(tmp / "ws-embedded"), out=str(tmp / "run-embedded"))
    start = time.perf_counter()
    outcome = run_suite(config)
    wall = time.perf_counter() - start
    model_s = outcome.stats.model_seconds
    print(f"embedded  quick --limit {limit}: {outcome.run_info['requests_sent']} requests, wall "
          f"{wall:.1f} s, in the model {model_s:.1f} s, outside the model "
          f"{wall - model_s:.1f} s = {100 * (wall - model_s) / wall:.1f}% of wall time")
    print(f"RATIO embedded_time_outside_model {100 * (wall - model_s) / wall:.1f}% of wall time")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--embedded-limit", type=int, default=3)
    parser.add_argument("--skip-embedded", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for n in args.cases:
            scripted_cases(n, tmp)
        if not args.skip_embedded:
            embedded(args.embedded_limit, tmp)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
