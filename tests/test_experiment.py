"""Experiment files: a matrix of models × suites, its report and gates, and errors that name
the file, the line and the key."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.errors import DataError
from rattle.run.experiment import load_experiment

from .report.junit_schema import validate

RULES = """
- {pattern: "capital of France", reply: "Paris"}
- {pattern: "Romeo", reply: "William Shakespeare"}
- {pattern: "symbol for water", reply: "H2O"}
- {pattern: "Red Planet", reply: "Mars"}
- {pattern: "Seine", reply: "(B)"}
"""


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_the_smallest_file_runs(tmp_path: Path) -> None:
    exp = Path(__file__).parents[1] / "examples" / "experiment.yaml"
    # scripted/echo repeats the prompt: its multiple-choice replies choose nothing and its
    # verdicts say nothing, so most of its cases are unmeasured (status 3 by default).
    code, out = invoke("run", str(exp), "--out", str(tmp_path / "x"), "--workspace",
                       str(tmp_path / "ws"))
    assert code == 3 and "scripted/echo × quick" in out and "unmeasured" in out
    code, out = invoke("run", str(exp), "--out", str(tmp_path / "x"), "--workspace",
                       str(tmp_path / "ws"), "--max-unmeasured", "1")
    assert code == 0, out
    folders = sorted(p.name for p in (tmp_path / "x").iterdir() if p.is_dir())
    assert folders == ["01-scripted-echo--quick", "02-scripted-constant-text-A--quick"]
    for f in folders:
        run = json.loads((tmp_path / "x" / f / "metrics.json").read_text())["run"]
        assert run["suite"] == "quick" and run["config"]["limit"] == 3
    assert (tmp_path / "x" / "matrix.html").is_file()


def test_two_models_two_suites_make_the_matrix_report(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    good, const = f"scripted/rules?file={rules}&default=(A)", "scripted/constant?text=(A)"
    exp = tmp_path / "exp.yaml"
    exp.write_text(f"""
models: ["{good}", "{const}"]
suites: [qa.context, rcc.robustness]
limit: 4
params:
  rcc.robustness: {{samples: 1, protocol: single}}
gates:
  - "accuracy[suite=qa.context,condition=gold]<0.5"
  - "delta(accuracy)<-0.5"
""")
    out = tmp_path / "out"
    code, text = invoke("run", str(exp), "--out", str(out), "--workspace", str(tmp_path / "ws"),
                        "--junit", str(tmp_path / "junit.xml"),
                        "--fail-if", "er[attack=original]>0.9")  # added to the file's gates
    assert code == 4, text
    assert "gates: 1 passed, 2 failed" in text
    cells = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert len(cells) == 4 and cells[0].endswith("--qa.context") and cells[3].startswith("04-")
    matrix = json.loads((out / "matrix.json").read_text())
    assert [(c["model"], c["suite"]) for c in matrix["cells"]] == [
        (good, "qa.context"), (good, "rcc.robustness"), (const, "qa.context"),
        (const, "rcc.robustness")]
    boards = {(b["part"], b["metric"]): b for b in matrix["leaderboards"]}
    qa = boards[("qa.context", "accuracy")]
    assert qa["columns"] == ["closed_book", "gold", "gold+distractor"] and qa["dataset"] == "mini-qa"
    assert [(r["model"], r["mean"]) for r in qa["rows"]] == [(good, 1.0), (const, 0.0)]
    cell = qa["rows"][0]["cells"]["gold"]
    assert (cell["value"], cell["ci_low"], cell["ci_high"], cell["n"]) == (1.0, 1.0, 1.0, 4)
    # rules answer (B) on the Seine passage: 2 of 8 questions per attack, (A) gets 1 of 8
    rcc = boards[("rcc.robustness", "accuracy")]
    assert [(r["model"], r["mean"]) for r in rcc["rows"]] == [(good, 0.25), (const, 0.125)]
    er = boards[("rcc.robustness", "er")]  # lower is better: the same order
    assert [r["model"] for r in er["rows"]] == [good, const]
    diffs = {(d["group"]["suite"], d["group"].get("condition", d["group"].get("attack"))): d
             for d in matrix["comparisons"]}
    gold = diffs[("qa.context", "gold")]
    assert (gold["a"], gold["b"], gold["diff"], gold["n_items"]) == (good, const, -1.0, 4)
    assert gold["ci_low"] == gold["ci_high"] == -1.0 and gold["significant"]
    original = diffs[("rcc.robustness", "original")]
    assert original["diff"] == -0.125 and original["ci_low"] <= -0.125 <= original["ci_high"]
    assert [(g["gate"], g["passed"]) for g in matrix["gates"]] == [
        ("accuracy[suite=qa.context,condition=gold]<0.5", False),
        ("delta(accuracy)<-0.5", False), ("er[attack=original]>0.9", True)]
    # each cell records the gates that apply to it
    per_cell = {c: [(g["gate"], g["passed"]) for g in
                    json.loads((out / c / "metrics.json").read_text()).get("gates", [])]
                for c in cells}
    assert per_cell[cells[0]] == [("accuracy[suite=qa.context,condition=gold]<0.5", True)]
    assert per_cell[cells[2]] == [("accuracy[suite=qa.context,condition=gold]<0.5", False)]
    assert per_cell[cells[1]] == [("er[attack=original]>0.9", True)]
    html = (out / "matrix.html").read_text()
    assert "<h2>Leaderboards</h2>" in html and "<h2>Paired comparisons" in html
    assert "default=(A)" in html and "&amp;default" in html and "default-src 'none'" in html
    md = (out / "matrix.md").read_text()
    assert "| 1 | " + good.replace("|", "\\|") + " | 100.0 [100.0, 100.0] |" in md
    root = validate((tmp_path / "junit.xml").read_text())
    assert len(root) == 4 and root[2].get("name", "").startswith(const + " × qa.context")


def test_dry_run_estimates_the_whole_matrix_and_sends_nothing(tmp_path: Path) -> None:
    exp = tmp_path / "e.yaml"
    exp.write_text('models: ["scripted/echo", "scripted/constant?text=(A)"]\n'
                   "suites: [qa.context]\nlimit: 2\n")
    code, out = invoke("run", str(exp), "--dry-run", "--workspace", str(tmp_path / "ws"),
                       "--price", "1,2")
    assert code == 0, out
    assert out.count("dry run of qa.context") == 2  # 2 items × 3 conditions each
    assert "whole matrix: 2 runs, 12 requests to send" in out
    with sqlite3.connect(tmp_path / "ws" / "store.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 0


def test_per_cell_flags_cannot_come_from_the_command_line(tmp_path: Path) -> None:
    exp = tmp_path / "e.yaml"
    exp.write_text("models: [scripted/echo]\nsuites: [qa.context]\n")
    code, out = invoke("run", str(exp), "--model", "scripted/echo", "--dry-run")
    assert code == 2 and "--model cannot be combined with an experiment file" in out
    code, out = invoke("run", str(exp), "--limit", "3", "--dry-run")
    assert code == 2 and "set `limit` in the file" in out


@pytest.mark.parametrize(("text", "line", "message"), [
    ("models: [scripted/echo]\nsuites: [quick]\nmodle: 3\n", 3,
     "unknown key 'modle'; valid keys: models"),
    ("models: [scripted/echo]\n", 1, "missing key 'suites'"),
    ("models:\n  - scripted/echo\n  - scripted/constant?txet=(A)\nsuites: [quick]\n", 3,
     "unknown option 'txet'; valid options: text (str)"),
    ("models:\n  - nosuch/model\nsuites: [quick]\n", 2, "unknown model 'nosuch'"),
    ("models: [scripted/echo]\nsuites:\n  - quick\n  - quik\n", 4, "unknown suite 'quik'"),
    ("models: [scripted/echo]\nsuites: [quick]\nlimit: three\n", 3,
     "limit='three' is not a valid int"),
    ("models: [scripted/echo]\nsuites: [quick]\nlimit: 0\n", 3, "limit must be at least 1"),
    ("models: [scripted/echo]\nsuites: [rcc.robustness]\nparams:\n  rcc.robustness:\n"
     "    protocol: single\n    sample: 2\n", 6,
     "suite rcc.robustness has no option 'sample'; valid options: samples (int)"),
    ("models: [scripted/echo]\nsuites: [rcc.robustness]\nparams:\n  rcc.robustness:\n"
     "    protocol: chat\n", 5, "protocol='chat' is not a valid multi|single|loglik"),
    ("models: [scripted/echo]\nsuites: [rcc.robustness]\nparams:\n  rcc.robustness:\n"
     "    limit: 2\n", 5, "limit is set for every cell, not per suite"),
    ("models: [scripted/echo]\nsuites: [quick]\nparams:\n  qa.context: {}\n", 4,
     "params for 'qa.context', which is not in suites"),
    ("models: [scripted/echo]\nsuites: [quick]\njudge: scripted/echo\n", 3,
     "none of the suites takes a judge"),
    ("models: [scripted/echo]\nsuites: [quick]\ngates:\n  - asr>0.3\n  - asr >> 0.3\n", 5,
     "--fail-if 'asr >> 0.3': expected a number"),
    ("models: [scripted/echo, scripted/echo]\nsuites: [quick]\n", 1, "listed twice"),
    ("models: [scripted/echo]\nsuites: [quick]\ndatasets: [nowhere.jsonl]\n", 3,
     "no such dataset file or built-in set 'nowhere.jsonl'"),
    ("models: [scripted/echo\nsuites: [quick]\n", 2, "not valid YAML"),
    ("- scripted/echo\n", 1, "an experiment file is a mapping of keys"),
])
def test_malformed_files_name_the_line_and_the_key(tmp_path: Path, text: str, line: int,
                                                   message: str) -> None:
    exp = tmp_path / "bad.yaml"
    exp.write_text(text)
    with pytest.raises(DataError) as err:
        load_experiment(exp)
    assert str(err.value).startswith(f"{exp}:{line}: "), str(err.value)
    assert message in str(err.value)
    code, out = invoke("run", str(exp), "--dry-run")
    assert code == 2 and f"{exp}:{line}: " in out


def test_errors_name_the_key_path(tmp_path: Path) -> None:
    exp = tmp_path / "bad.yaml"
    exp.write_text("models: [scripted/echo]\nsuites: [rcc.robustness]\nparams:\n"
                   "  rcc.robustness: {samples: many}\n")
    with pytest.raises(DataError, match=r"\(field 'params\.rcc\.robustness\.samples'\)"):
        load_experiment(exp)


def test_datasets_resolve_next_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "qa.jsonl").write_text(
        json.dumps({"question": "Capital of France?", "answers": ["Paris"], "ctxs": [
            {"title": "France", "text": "Paris is the capital of France.", "hasanswer": True},
            {"title": "Spain", "text": "Madrid is the capital of Spain.", "hasanswer": False}]})
        + "\n")
    exp = tmp_path / "data" / "e.yaml"
    exp.write_text("models: [scripted/echo]\nsuites: [qa.context]\ndatasets: [qa.jsonl, mini-qa]\n")
    loaded = load_experiment(exp)
    assert loaded.datasets == [str(tmp_path / "data" / "qa.jsonl"), "mini-qa"]
    assert [c.folder() for c in loaded.cells()] == ["01-scripted-echo--qa.context--qa.jsonl",
                                                    "02-scripted-echo--qa.context--mini-qa"]
    code, out = invoke("run", str(exp), "--out", str(tmp_path / "o"), "--workspace",
                       str(tmp_path / "ws"))
    assert code == 0, out
    run = json.loads((tmp_path / "o" / "01-scripted-echo--qa.context--qa.jsonl" /
                      "metrics.json").read_text())["run"]
    assert run["records"] == 3 and run["config"]["dataset"] == str(tmp_path / "data" / "qa.jsonl")
