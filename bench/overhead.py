"""Harness overhead: how much time rattle spends outside the model.

1. Zero-latency scripted model: cases/second through plan -> store -> judge -> metrics for
   ``rcc.robustness`` (single-turn) on a synthetic dataset, beside the reference of calling the
   same model directly on the same requests (no planning, store, judging or metrics).
2. Embedded model (SmolLM2 via llama.cpp): the share of wall time spent outside the model on
   the ``quick`` suite, cold store.

Usage: python bench/overhead.py [--items 200 1000] [--embedded-limit 3] [--skip-embedded]
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
from rattle.run.runner import RunConfig, build_suite, build_system, run_suite


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


def scripted(n_items: int, tmp: Path) -> None:
    data = tmp / f"synthetic-{n_items}.json"
    synthetic_dataset(n_items, data)
    config = RunConfig(suite="rcc.robustness", model="scripted/constant?text=(A)",
                       dataset=str(data), workspace=str(tmp / f"ws-{n_items}"),
                       out=str(tmp / f"run-{n_items}"),
                       suite_options={"protocol": "single", "samples": 1})
    start = time.perf_counter()
    outcome = run_suite(config)
    wall = time.perf_counter() - start
    cases = len(outcome.records)
    ref_seconds, n_req = direct_model_seconds(config)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"scripted  items={n_items:>6} cases={cases:>7}  rattle {cases / wall:>8.0f} cases/s "
          f"({wall:.2f} s)  direct model calls {n_req / ref_seconds:>9.0f} req/s "
          f"({ref_seconds:.2f} s)  ratio rattle/direct time {wall / ref_seconds:6.1f}x  "
          f"peak RSS {rss:.0f} MB")


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--embedded-limit", type=int, default=3)
    parser.add_argument("--skip-embedded", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for n in args.items:
            scripted(n, tmp)
        if not args.skip_embedded:
            embedded(args.embedded_limit, tmp)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
