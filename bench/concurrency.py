"""Concurrency scaling against a local fake OpenAI-compatible server that adds 50 ms latency.

For each ``--concurrency`` level, the same number of distinct requests go through rattle's
executor and store; throughput is compared to the ideal (concurrency / latency). The server
runs in its own process (127.0.0.1 only).

Usage: python bench/concurrency.py [--levels 1 8 32 128] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rattle.items import Message
from rattle.models import ChatRequest, load_model
from rattle.run.executor import Executor
from rattle.run.store import Store


def flows(n: int, tag: str):  # type: ignore[no-untyped-def]
    for i in range(n):
        def flow(i: int = i):  # type: ignore[no-untyped-def]
            c = yield ChatRequest((Message("user", f"{tag} question {i}"),))
            return c.ok
        yield i, flow()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 8, 32, 128])
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        port_file = Path(d) / "port"
        server = subprocess.Popen([sys.executable, "-m", "rattle.testing.fast_openai",
                                   "--latency", str(args.latency), "--port-file", str(port_file)])
        try:
            for _ in range(200):
                if port_file.exists():
                    break
                time.sleep(0.05)
            url = port_file.read_text()
            print(f"{'concurrency':>11} {'requests':>9} {'req/s':>8} {'ideal':>8} {'ratio':>6}")
            for level in args.levels:
                n = min(1024, max(64, 8 * level))
                model = load_model(f"openai/bench?concurrency={level}", base_url=url)
                ex = Executor(model, Store(Path(d) / f"ws{level}"))
                results: dict[int, bool] = {}
                start = time.perf_counter()
                ex.run(flows(n, f"c{level}"), results.__setitem__)
                elapsed = time.perf_counter() - start
                ideal = level / args.latency
                print(f"{level:>11} {n:>9} {n / elapsed:>8.0f} {ideal:>8.0f} "
                      f"{n / elapsed / ideal:>6.2f}  ({sum(results.values())} ok)")
                print(f"RATIO concurrency_{level} {n / elapsed / ideal:.2f} of ideal "
                      f"({n / elapsed:.0f} vs {ideal:.0f} req/s, {args.latency * 1000:.0f} ms latency)")
        finally:
            server.kill()


if __name__ == "__main__":
    main()
