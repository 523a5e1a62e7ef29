"""Speed of the rule extractors (docs/judging.md): milliseconds per reply over every dev reply
of the six labelled sets, against a reference measured in the same run.

The reference is the shared preparation step alone (``judges.reply.prepare``: reasoning blocks,
markup, Unicode), which every extractor runs first; with ``--against SRC`` the same replies also
go through another checkout's extractors (``SRC`` is its ``src`` folder, e.g. an export of an
older commit), in a subprocess so the two never share modules.

    PYTHONPATH=src python bench/judges.py [--repeat 3] [--against /tmp/old/src]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_TIMER = r"""
import json, sys, time
from rattle.judges import agreement as ag
rows = json.load(open(sys.argv[1]))
repeat = int(sys.argv[2])
out = {}
for set_name, items in rows.items():
    predict = ag.predictor(set_name)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for row in items:
            predict(row)
        times.append(time.perf_counter() - start)
    out[set_name] = min(times)
print(json.dumps(out))
"""


def _dev_rows() -> dict[str, list[dict[str, object]]]:
    from rattle.judges import agreement as ag

    return {s: ag.load_labels(s, "dev") for s in ag.SETS}


def _time_here(rows: dict[str, list[dict[str, object]]], repeat: int) -> dict[str, float]:
    from rattle.judges import agreement as ag

    out = {}
    for set_name, items in rows.items():
        predict = ag.predictor(set_name)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            for row in items:
                predict(row)
            times.append(time.perf_counter() - start)
        out[set_name] = min(times)
    return out


def _time_prepare(rows: dict[str, list[dict[str, object]]], repeat: int) -> float:
    from rattle.judges.reply import prepare

    replies = [str(r["reply"]) for items in rows.values() for r in items]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for reply in replies:
            prepare(reply)
        times.append(time.perf_counter() - start)
    return min(times)


def _time_elsewhere(src: str, rows: dict[str, list[dict[str, object]]], repeat: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rows, f)
    try:
        env = {**os.environ, "PYTHONPATH": src}
        done = subprocess.run([sys.executable, "-c", _TIMER, f.name, str(repeat)], env=env,
                              capture_output=True, text=True, check=True)
        return {k: float(v) for k, v in json.loads(done.stdout).items()}
    finally:
        Path(f.name).unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per set; the fastest counts")
    parser.add_argument("--against", help="another checkout's src folder to time on the same replies")
    args = parser.parse_args()
    rows = _dev_rows()
    n = sum(len(v) for v in rows.values())
    here = _time_here(rows, args.repeat)
    ref = _time_prepare(rows, args.repeat)
    print(f"{n} dev replies, best of {args.repeat}")
    for set_name, seconds in here.items():
        print(f"  {set_name:15s} {1000 * seconds / len(rows[set_name]):6.2f} ms/reply")
    total = sum(here.values())
    print(f"  all extractors  {1000 * total / n:6.2f} ms/reply ({total:.2f} s)")
    print(f"  reference: prepare() alone {1000 * ref / n:.2f} ms/reply; ratio {total / ref:.1f}x")
    if args.against:
        other = _time_elsewhere(args.against, rows, args.repeat)
        total_other = sum(other.values())
        print(f"  against {args.against}: {1000 * total_other / n:.2f} ms/reply ({total_other:.2f} s);"
              f" ratio this/that {total / total_other:.2f}")


if __name__ == "__main__":
    main()
