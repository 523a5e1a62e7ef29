"""Run every benchmark and print one table of all ratios (``make bench``).

Each benchmark runs in its own process and prints ``RATIO <name> <text>`` lines; this script
passes their output through and collects those lines into a closing table.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCHES = ("overhead.py", "embedded.py", "perturbations.py", "retrieval.py", "ralm_e2e.py",
           "concurrency.py", "search.py")


def main() -> None:
    here = Path(__file__).parent
    rows: list[tuple[str, str]] = []
    start = time.perf_counter()
    for name in BENCHES:
        print(f"== {name}", flush=True)
        proc = subprocess.Popen([sys.executable, str(here / name)], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("RATIO "):
                _, key, text = line.rstrip("\n").split(" ", 2)
                rows.append((key, text))
            elif "Loading weights" not in line:
                print(line, end="", flush=True)
        if proc.wait() != 0:
            rows.append((name, f"FAILED (exit {proc.returncode})"))
    width = max(len(k) for k, _ in rows) if rows else 10
    print(f"\n== all ratios ({time.perf_counter() - start:.0f} s in all)")
    for key, text in rows:
        print(f"{key:<{width}}  {text}")


if __name__ == "__main__":
    main()
