"""A run against a fault-injecting server completes; failures are unmeasured, never cached or
wrong; the API key never reaches any output."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.testing.fake_openai import FakeOpenAIServer

CANARY = "sk-canary-RATTLE-1234567890"
ACTIONS = ("ok", "ok", "ok", "429", "500", "503", "reset", "timeout", "malformed", "empty",
           "truncated")


def faults(number: int, body: dict) -> str:  # type: ignore[type-arg]
    # Drawn from a hash of the request and the attempt: each attempt may fail differently.
    digest = hashlib.sha256(f"{number}|{json.dumps(body['messages'])}".encode()).digest()
    return ACTIONS[digest[0] % len(ACTIONS)]


def test_faulty_backend_run_completes_with_unmeasured_accounting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    caplog.set_level(logging.DEBUG)
    with FakeOpenAIServer(faults=faults, timeout_sleep_s=0.6, retry_after=0.01) as server:
        result = CliRunner().invoke(app, [
            "run", "qa.context", "--model",
            "openai/m?max_retries=1&backoff_s=0.01&timeout_s=0.3", "--base-url", server.base_url,
            "--workspace", str(tmp_path / "ws"), "--out", str(tmp_path / "run"),
            "--concurrency", "4", "--max-unmeasured", "1"])
    assert result.exit_code == 0, result.output
    run = json.loads((tmp_path / "run" / "metrics.json").read_text())["run"]
    records = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    failed = [r for r in records if r["error"]]
    assert run["requests_failed"] == len(failed) > 0
    assert all(r["correct"] is None for r in failed)  # unmeasured, not wrong
    assert run["unmeasured"] == len(failed)
    import sqlite3

    db = sqlite3.connect(tmp_path / "ws" / "store.sqlite")
    cached = db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    logged = db.execute("SELECT COUNT(*) FROM failures").fetchone()[0]
    assert cached == run["requests_sent"] - len(failed) and logged == len(failed)
    assert db.execute("SELECT COUNT(*) FROM responses WHERE text = ''").fetchone()[0] == 0
    # The key was sent, and appears nowhere rattle wrote or logged.
    assert any(h.get("Authorization") == f"Bearer {CANARY}" for h in server.headers_seen)
    for path in [*(tmp_path / "run").rglob("*"), *(tmp_path / "ws").rglob("*")]:
        if path.is_file():
            assert CANARY.encode() not in path.read_bytes(), path
    assert CANARY not in result.output and CANARY not in caplog.text
