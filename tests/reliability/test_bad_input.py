"""Empty and huge passages, bad CLI values, unknown formats: handled, with clear errors."""

from __future__ import annotations

import json
import time
from pathlib import Path

from typer.testing import CliRunner

from rattle.cli import app
from rattle.items import Item, Question
from rattle.perturbations.base import Perturbation
from rattle.registry import entries


def invoke(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.output + (r.stderr if r.stderr_bytes else "")


def test_empty_and_huge_passages() -> None:
    huge = " ".join(["lorem ipsum dolor sit amet"] * 40_000)  # 200k words, ~1.1 MB
    for e in entries("perturbation"):
        p = Perturbation(e.name, {"rate": 0.1} if e.name.startswith(("chars", "words")) else {})
        empty = p.apply(Item("e", (Question("Why?"),), passage=""), 0)
        assert empty.target in ("question", "prompt", "options")
        start = time.perf_counter()
        if e.name != "words.insert" and e.name != "words.replace":  # WordNet per word: slow
            p.apply(Item("h", (Question("Why?"),), passage=huge), 0)
        assert time.perf_counter() - start < 20


def test_bad_cli_values(tmp_path: Path) -> None:
    code, out = invoke("run", "--limit", "0", "--model", "scripted/echo")
    assert code == 2 and "--limit" in out
    code, out = invoke("run", "--max-unmeasured", "2", "--model", "scripted/echo")
    assert code == 2 and "--max-unmeasured" in out
    code, out = invoke("run", "rcc.robustness", "--model", "scripted/echo", "--param",
                       "protocol=telepathy", "--workspace", str(tmp_path / "w"))
    assert code == 2 and "option protocol='telepathy' is not a valid multi|single|loglik" in out


def test_unknown_format(tmp_path: Path) -> None:
    f = tmp_path / "data.txt"
    f.write_text("just some text\n")
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--dataset", str(f),
                       "--workspace", str(tmp_path / "w"))
    assert code == 2 and "unknown dataset format" in out and "data.txt" in out


def test_skip_invalid_counts_what_it_skipped(tmp_path: Path) -> None:
    f = tmp_path / "q.jsonl"
    f.write_text(json.dumps({"question": "q1", "answers": ["a"]}) + "\n{broken\n"
                 + json.dumps({"answers": ["b"]}) + "\n")
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--dataset", str(f),
                       "--workspace", str(tmp_path / "w"), "--out", str(tmp_path / "o"),
                       "--skip-invalid")
    assert code == 0, out
    run = json.loads((tmp_path / "o" / "metrics.json").read_text())["run"]
    assert run["cases"] == 1  # one valid item, closed book only (no documents)
    skipped = run["suite_notes"]["skipped_invalid"]
    assert len(skipped) == 2 and "q.jsonl:2" in skipped[0] and "q.jsonl:3" in skipped[1]
