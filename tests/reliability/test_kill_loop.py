"""SIGKILL at 20+ random points in every phase; the final results equal an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.run.test_resume import (lines, metrics_run, rattle_cmd, reference_run, start_server,
                                   stored)

KILLS = 24


@pytest.mark.slow
def test_sigkill_loop_across_phases(tmp_path: Path) -> None:
    server, url, log = start_server(tmp_path, latency=0.004)
    env = {**os.environ, "OPENAI_API_KEY": "unused"}
    rng = random.Random(20261129)
    try:
        reference, total = reference_run(url, tmp_path, env)
        ws, out = tmp_path / "ws", tmp_path / "out"
        phases = {"planning": 0, "requests": 0, "after requests": 0}
        for _ in range(KILLS):
            before_log = lines(log)
            before_store = stored(ws) if (ws / "store.sqlite").exists() else 0
            proc = subprocess.Popen(rattle_cmd(url, ws, out), env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if before_store >= total or rng.random() < 0.25:
                time.sleep(rng.uniform(0.05, 1.2))  # start-up, planning, judging or writing
            else:
                target = before_log + rng.randint(1, 60)
                while lines(log) < target and proc.poll() is None:
                    time.sleep(0.002)
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            now = stored(ws) if (ws / "store.sqlite").exists() else 0
            phase = ("planning" if now == before_store and lines(log) == before_log else
                     "after requests" if before_store >= total else "requests")
            phases[phase] += 1
            # Nothing stored is asked again: the server saw at most the missing requests
            # (plus those in flight when killed).
            assert lines(log) - before_log <= total - before_store + 8
        assert phases["planning"] > 0 and phases["requests"] > 0, phases
        subprocess.run(rattle_cmd(url, ws, out), check=True, env=env, capture_output=True)
        assert (out / "results.jsonl").read_bytes() == (reference / "results.jsonl").read_bytes()
        assert stored(ws) == total
    finally:
        server.kill()
        server.wait()


@pytest.mark.slow
def test_forced_kill_after_requests_and_mid_outputs_resumes_without_asking(
        tmp_path: Path) -> None:
    """The window the random loop only hits by chance: every request stored, the run folder
    not (or not completely) written. The rerun sends nothing and writes the same files."""
    server, url, log = start_server(tmp_path, latency=0.0)
    env = {**os.environ, "OPENAI_API_KEY": "unused"}
    try:
        reference, total = reference_run(url, tmp_path, env)
        for point in ("after-requests", "mid-outputs"):
            ws, out = tmp_path / f"ws-{point}", tmp_path / f"out-{point}"
            killed = subprocess.run(rattle_cmd(url, ws, out), env={**env, "RATTLE_FAULT_KILL_AT": point},
                                    capture_output=True)
            assert killed.returncode == -signal.SIGKILL, killed.stderr[-500:]
            assert stored(ws) == total
            if point == "after-requests":
                assert not (out / "results.jsonl").exists()
            else:
                assert (out / "metrics.json").exists() and not (out / "report.html").exists()
            asked = lines(log)
            subprocess.run(rattle_cmd(url, ws, out), check=True, env=env, capture_output=True)
            assert lines(log) == asked  # nothing sent again
            run = metrics_run(out)
            assert run["requests_sent"] == 0 and run["requests_cached"] == total
            for name in ("results.jsonl", "metrics.csv"):
                assert (out / name).read_bytes() == (reference / name).read_bytes(), name
            assert (json.loads((out / "metrics.json").read_text())["metrics"]
                    == json.loads((reference / "metrics.json").read_text())["metrics"])
            tables = sorted(p.name for p in (reference / "tables").iterdir())
            assert tables and sorted(p.name for p in (out / "tables").iterdir()) == tables
            for name in tables:
                assert (out / "tables" / name).read_bytes() == (reference / "tables" / name).read_bytes()
            assert (out / "report.html").is_file()
    finally:
        server.kill()
        server.wait()
