"""Same seed: byte-identical variants and metrics in separate processes and hash seeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def cli(*args: str, hashseed: str, cwd: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    subprocess.run([sys.executable, "-m", "rattle.cli", *args], check=True, env=env, cwd=cwd,
                   capture_output=True)


def test_variants_and_metrics_identical_across_processes(tmp_path: Path) -> None:
    outs = []
    for hashseed in ("0", "123", "98765"):
        run = tmp_path / f"h{hashseed}"
        run.mkdir()
        cli("perturb", "mini-mc", str(run / "v.jsonl"), "--attack", "words.replace",
            "--param", "rate=0.4", "--seed", "5", hashseed=hashseed, cwd=run)
        cli("run", "rcc.robustness", "--model", "scripted/echo", "--param", "samples=1",
            "--out", str(run / "r"), "--workspace", str(run / "ws"), "--max-unmeasured", "1",
            hashseed=hashseed, cwd=run)
        metrics = json.loads((run / "r" / "metrics.json").read_text())["metrics"]
        outs.append(((run / "v.jsonl").read_bytes(), (run / "r" / "results.jsonl").read_bytes(),
                     json.dumps(metrics, sort_keys=True)))
    assert outs[0] == outs[1] == outs[2]
