"""rattle compare: a known accuracy gap is reported with a CI containing it; twins are not."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from rattle.cli import app
from rattle.report.compare import paired_accuracy
from rattle.report.load import load_run

RULES = """
- {pattern: "capital of France", reply: "Paris"}
- {pattern: "Romeo", reply: "William Shakespeare"}
- {pattern: "symbol for water", reply: "H2O"}
- {pattern: "Red Planet", reply: "Mars"}
- {pattern: "days are in a week", reply: "seven"}
- {pattern: "largest ocean", reply: "Pacific Ocean"}
"""


def run(tmp: Path, name: str, model: str) -> Path:
    out = tmp / name
    result = CliRunner().invoke(app, ["run", "qa.context", "--model", model, "--out", str(out),
                                      "--workspace", str(tmp / "ws")])
    assert result.exit_code == 0, result.output
    return out


def test_known_gap_and_identical_models(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    good = run(tmp_path, "good", f"scripted/rules?file={rules}&default=none")  # 6 of 10 right
    bad = run(tmp_path, "bad", "scripted/constant?text=none")  # 0 of 10
    twin = run(tmp_path, "twin", "scripted/constant?text=none&seed=1")
    diffs = paired_accuracy(load_run(bad), load_run(good), "bad", "good")
    assert len(diffs) == 3  # closed book, gold, gold + distractor
    for d in diffs:
        assert d.diff == 0.6 and d.n_items == 10
        assert d.ci_low is not None and d.ci_high is not None
        assert d.ci_low <= 0.6 <= d.ci_high and d.significant
        assert "good" in d.sentence() and "60.0 points more accurate" in d.sentence()
    same = paired_accuracy(load_run(bad), load_run(twin), "bad", "twin")
    assert all(d.diff == 0 and not d.significant for d in same)
    result = CliRunner().invoke(app, ["compare", str(bad), str(good), str(twin), "--out",
                                      str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    assert "60.0 points more accurate" in result.output
    md = (tmp_path / "cmp" / "compare.md").read_text()
    assert "| metric | group |" in md
    assert (tmp_path / "cmp" / "compare.html").read_text().startswith("<!DOCTYPE html>")


def test_compare_needs_two_runs(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["compare", str(tmp_path)])
    assert result.exit_code == 2


def test_load_run_gives_dataframes_and_parquet(tmp_path: Path) -> None:
    import pandas as pd

    out = run(tmp_path, "r", "scripted/echo")
    loaded = load_run(out)
    assert len(loaded.cases) == 30 and {"attack", "correct", "group.condition"} <= set(loaded.cases)
    assert {"name", "value", "ci_low", "ci_high", "n"} <= set(loaded.metrics)
    frame = pd.read_parquet(out / "results.parquet")
    assert len(frame) == 30 and frame["correct"].dtype == bool


def test_max_requests_stops_and_keeps(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["run", "qa.context", "--model", "scripted/echo",
                                      "--max-requests", "7", "--workspace", str(tmp_path / "ws"),
                                      "--out", str(tmp_path / "o")])
    assert result.exit_code == 3 and "--max-requests 7 reached" in result.output
    import sqlite3

    assert sqlite3.connect(tmp_path / "ws" / "store.sqlite").execute(
        "SELECT COUNT(*) FROM responses").fetchone()[0] == 7
