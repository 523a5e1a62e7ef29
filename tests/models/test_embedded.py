"""Smoke test with the real embedded model (SmolLM2-135M-Instruct via llama.cpp)."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.items import Message
from rattle.models import ChatRequest, ScoreRequest, load_model
from rattle.models.embedded import embedded_gguf_path

pytestmark = pytest.mark.embedded
SYSTEM = Message("system", "You are a helpful assistant. Answer factual questions concisely.")


def test_gguf_is_found_inside_the_installed_package() -> None:
    path = embedded_gguf_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 90_000_000


def test_generates_greedy_and_deterministic() -> None:
    model = load_model("embedded?n_threads=2")
    req = ChatRequest((SYSTEM, Message("user", "What is the capital of France?")))
    a, b = asyncio.run(model.generate([req, req]))
    assert a.ok and "Paris" in a.text
    assert a.text == b.text
    assert a.usage.prompt_tokens > 10 and a.usage.completion_tokens > 0


def test_loglikelihood_scores_options() -> None:
    model = load_model("embedded?n_threads=2")
    req = ScoreRequest((SYSTEM, Message("user", "What is the capital of France?")),
                       ("The capital of France is Paris.", "The capital of France is a banana."))
    [[paris, banana]] = asyncio.run(model.loglikelihood([req]))  # type: ignore[attr-defined]
    assert math.isfinite(paris) and math.isfinite(banana) and paris < 0
    assert paris > banana


def test_quick_suite_end_to_end(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", "quick", "--limit", "2", "--out", str(tmp_path / "r"),
                                      "--workspace", str(tmp_path / "ws")])
    assert result.exit_code == 0, result.output
    records = [json.loads(x) for x in (tmp_path / "r" / "results.jsonl").read_text().splitlines()]
    assert records and any(r["response"].strip() for r in records)
    run = json.loads((tmp_path / "r" / "metrics.json").read_text())["run"]
    assert run["model"] == "embedded (SmolLM2-135M-Instruct Q4_1)"
    assert "smollm2" in run["model_identity"] and run["requests_sent"] > 0
