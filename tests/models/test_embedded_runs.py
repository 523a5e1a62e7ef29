"""Whole runs on the embedded model: the quick suite end to end, the same answers in a second
fresh run and after an interrupted run is resumed, and ``protocol=loglik`` scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rattle.cli import app

pytestmark = pytest.mark.embedded


def run(tmp: Path, name: str, *args: str) -> tuple[int, Path]:
    out = tmp / name
    result = CliRunner().invoke(app, ["run", *args, "--out", str(out),
                                      "--workspace", str(tmp / f"ws-{name}")])
    return result.exit_code, out


def answers(out: Path) -> list[tuple[Any, ...]]:
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    return sorted((r["case_id"], r.get("sub"), r["response"], r["correct"]) for r in records)


def test_quick_suite_same_answers_fresh_and_after_resume(tmp_path: Path) -> None:
    quick = ("quick", "--limit", "1", "--model", "embedded?n_threads=2")
    code, first = run(tmp_path, "first", *quick)
    assert code == 0
    metrics = json.loads((first / "metrics.json").read_text())["run"]
    assert metrics["model"] == "embedded (SmolLM2-135M-Instruct Q4_1)"
    assert "smollm2" in metrics["model_identity"] and "xllamacpp" in metrics["model_identity"]
    assert metrics["requests_sent"] == metrics["requests_total"] == 18
    reference = answers(first)
    assert len(reference) == 18 and any(r[2].strip() for r in reference)

    code, second = run(tmp_path, "second", *quick)
    assert code == 0 and answers(second) == reference

    # Interrupted after 6 requests (exit 3), then resumed in the same workspace.
    code, resumed = run(tmp_path, "resumed", *quick, "--max-requests", "6")
    assert code == 3 and not (resumed / "results.jsonl").exists()
    code, resumed = run(tmp_path, "resumed", *quick)
    assert code == 0
    assert json.loads((resumed / "metrics.json").read_text())["run"]["requests_sent"] == 12
    assert answers(resumed) == reference


def test_loglik_protocol_scores_options(tmp_path: Path) -> None:
    args = ("rcc.robustness", "--limit", "1", "--param", "samples=1", "--param",
            "protocol=loglik", "--model", "embedded?n_threads=2")
    code, out = run(tmp_path, "loglik", *args)
    assert code == 0
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert records
    for r in records:
        scores = r["logprobs"]
        assert all(s < 0 for s in scores)
        best = max(range(len(scores)), key=scores.__getitem__)
        assert r["response"] == f"({chr(65 + best)})"
