"""The CLI: bad input gives one clear line and exit 2; runs write the run folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


def test_quick_with_scripted_model_writes_the_run_folder(tmp_path: Path) -> None:
    code, out = invoke("run", "quick", "--model", "scripted/constant?text=(A)", "--out",
                       str(tmp_path / "run"), "--workspace", str(tmp_path / "ws"))
    assert code == 0, out
    run_dir = tmp_path / "run"
    for name in ("results.jsonl", "metrics.json", "metrics.csv", "report.html"):
        assert (run_dir / name).is_file()
    payload = json.loads((run_dir / "metrics.json").read_text())
    run = payload["run"]
    for key in ("suite", "model", "system", "dataset", "seed", "rattle_version", "judge",
                "requests_total", "requests_sent", "requests_cached", "requests_failed",
                "tokens_prompt", "tokens_completion"):
        assert key in run
    assert run["suite"] == "quick" and run["requests_sent"] == run["requests_total"] > 0
    names = {m["name"] for m in payload["metrics"]}
    assert {"accuracy", "er", "acr", "em", "f1"} <= names
    for m in payload["metrics"]:
        assert set(m) == {"name", "value", "ci_low", "ci_high", "n", "n_unmeasured", "group"}
        if m["value"] is not None and m["name"] in ("accuracy", "er", "acr"):
            assert 0.0 <= m["ci_low"] <= m["value"] <= m["ci_high"] <= 1.0
    first = json.loads((run_dir / "results.jsonl").read_text().splitlines()[0])
    assert {"attack", "version", "params", "seed", "edits", "correct", "response"} <= set(first)
    # A second identical run asks nothing.
    code, _ = invoke("run", "quick", "--model", "scripted/constant?text=(A)", "--out",
                     str(tmp_path / "run2"), "--workspace", str(tmp_path / "ws"))
    assert code == 0
    run2 = json.loads((tmp_path / "run2" / "metrics.json").read_text())["run"]
    assert run2["requests_sent"] == 0 and run2["requests_cached"] == run["requests_total"]


def test_dry_run_sends_nothing(tmp_path: Path) -> None:
    code, out = invoke("run", "rcc.robustness", "--model", "scripted/echo", "--dry-run",
                       "--workspace", str(tmp_path / "ws"), "--out", str(tmp_path / "o"))
    assert code == 0, out
    assert "to send" in out and "tokens" in out
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["run", "--model", "nosuch/x"], "unknown model 'nosuch'"),
        (["run", "nosuch.suite", "--model", "scripted/echo"], "unknown suite 'nosuch.suite'"),
        (["run", "--model", "scripted/echo", "--dataset", "missing.jsonl"], "no such dataset"),
        (["run", "--model", "scripted/echo", "--param", "oops"], "key=value"),
        (["run", "--model", "scripted/echo", "--param", "bogus=1"],
         "suite quick: unknown option 'bogus'; valid options: dataset (str?), limit (int?)"),
        (["run", "rcc.robustness", "--model", "scripted/echo", "--param", "samples=many"],
         "suite rcc.robustness: option samples='many' is not a valid int"),
        (["run", "--model", "scripted/echo?txt=1"],
         "model scripted/echo?txt=1: unknown option 'txt'; valid options: text (str)"),
        (["run", "--system", "http", "--model", "scripted/echo"], "--system http needs --url"),
    ],
)
def test_bad_input_is_one_clear_error(tmp_path: Path, args: list[str], expected: str) -> None:
    code, out = invoke(*args, "--workspace", str(tmp_path / "ws"))
    assert code == 2, out
    assert expected in out
    assert "Traceback" not in out


def test_missing_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    code, out = invoke("run", "--model", "openai/gpt-4o-mini", "--workspace", str(tmp_path / "w"))
    assert code == 2 and "OPENAI_API_KEY is not set" in out


def test_unreachable_server(tmp_path: Path) -> None:
    code, out = invoke("run", "quick", "--model", "openai/m?max_retries=0", "--base-url",
                       "http://127.0.0.1:9/v1", "--workspace", str(tmp_path / "w"), "--limit", "1")
    assert code == 2 and "cannot reach http://127.0.0.1:9/v1" in out


def test_malformed_dataset_line_names_file_and_line(tmp_path: Path) -> None:
    data = tmp_path / "qa.jsonl"
    data.write_text('{"question": "q1", "answers": ["a"]}\n{"question": "q2", "answers": [\n')
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--dataset", str(data),
                       "--workspace", str(tmp_path / "w"))
    assert code == 2
    assert f"{data}:2: invalid JSON" in out
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--dataset", str(data),
                       "--workspace", str(tmp_path / "w"), "--skip-invalid",
                       "--out", str(tmp_path / "o"))
    assert code == 0, out


def test_missing_field_is_named(tmp_path: Path) -> None:
    data = tmp_path / "qa.jsonl"
    data.write_text('{"question": "q1", "answers": "a"}\n{"answers": ["b"]}\n')
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--dataset", str(data),
                       "--workspace", str(tmp_path / "w"))
    assert code == 2 and f"{data}:2: missing or empty question (field 'question')" in out


def test_too_many_unmeasured_exits_non_zero(tmp_path: Path) -> None:
    code, out = invoke("run", "quick", "--model", "scripted/echo?error_rate=0.9",
                       "--workspace", str(tmp_path / "w"), "--out", str(tmp_path / "o"))
    assert code == 3 and "unmeasured" in out
    assert (tmp_path / "o" / "results.jsonl").is_file()  # what was computed is kept


def test_list_and_suites() -> None:
    code, out = invoke("list", "perturbation")
    assert code == 0 and "chars.delete@2" in out and "visual.homoglyph@2" in out
    code, out = invoke("list", "nonsense")
    assert code == 2
    code, out = invoke("suites")
    assert code == 0 and "rcc.credibility" in out and "Ye et al." in out
    # Papers are cited as papers (title, authors, year, arXiv id), never by a file name.
    assert ".txt" not in out
    for arxiv in ("arXiv:2305.10235", "arXiv:2403.12077", "arXiv:2410.15107"):
        assert arxiv in out
    assert "Toward Robust RALMs" in out and "Hu et al. (2024)" in out


def test_tables_and_summary_show_the_model_name_not_its_cache_identity(tmp_path: Path) -> None:
    code, out = invoke("run", "qa.context", "--model", "scripted/constant?text=Paris", "--limit",
                       "2", "--out", str(tmp_path / "r"), "--workspace", str(tmp_path / "w"))
    assert code == 0 and "scripted/constant?text=Paris" in out
    run = json.loads((tmp_path / "r" / "metrics.json").read_text())["run"]
    assert run["model"] == "scripted/constant?text=Paris"
    assert run["model_identity"] == 'scripted/constant?{"text":"Paris"}'
    html = (tmp_path / "r" / "report.html").read_text()
    assert "scripted/constant?text=Paris" in html and "{&quot;text&quot;" not in html


def test_report_rerenders_without_models(tmp_path: Path) -> None:
    invoke("run", "quick", "--model", "scripted/echo", "--out", str(tmp_path / "r"),
           "--workspace", str(tmp_path / "w"))
    (tmp_path / "r" / "report.html").unlink()
    code, _ = invoke("report", str(tmp_path / "r"))
    assert code == 0 and (tmp_path / "r" / "report.html").is_file()


def test_cache_stats_and_clear(tmp_path: Path) -> None:
    invoke("run", "quick", "--model", "scripted/echo", "--out", str(tmp_path / "r"),
           "--workspace", str(tmp_path / "w"), "--limit", "2")
    code, out = invoke("cache", "stats", "--workspace", str(tmp_path / "w"))
    assert code == 0 and "scripted/echo" in out
    code, out = invoke("cache", "clear", "--workspace", str(tmp_path / "w"))
    assert code == 0 and "deleted" in out
    code, out = invoke("cache", "stats", "--workspace", str(tmp_path / "w"))
    assert "responses: 0" in out


def test_perturb_writes_variants(tmp_path: Path) -> None:
    out_file = tmp_path / "v.jsonl"
    code, out = invoke("perturb", "mini-mc", str(out_file), "--attack", "chars.delete",
                       "--param", "rate=0.5", "--seed", "3")
    assert code == 0, out
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 12
    assert all(r["attack"] == "chars.delete" and r["params"]["rate"] == 0.5 for r in rows)
    assert all(r["edits"] for r in rows)
    again = tmp_path / "v2.jsonl"
    invoke("perturb", "mini-mc", str(again), "--attack", "chars.delete", "--param", "rate=0.5",
           "--seed", "3")
    assert again.read_bytes() == out_file.read_bytes()
    code, out = invoke("perturb", "mini-mc", str(again), "--attack", "chars.explode")
    assert code == 2 and "unknown perturbation 'chars.explode'" in out


def test_max_cost_stops_and_resumes(tmp_path: Path) -> None:
    from rattle.testing.fake_openai import FakeOpenAIServer

    with FakeOpenAIServer() as server:
        base = ["run", "qa.context", "--model", "openai/m?max_retries=0", "--base-url",
                server.base_url, "--workspace", str(tmp_path / "w"), "--out", str(tmp_path / "o"),
                "--concurrency", "1"]
        code, out = invoke(*base, "--price", "1000,1000", "--max-cost", "0.05")
        assert code == 3 and "--max-cost $0.05 reached" in out
        first = len(server.requests)
        assert 0 < first < 30
        code, out = invoke(*base, "--price", "1000,1000")
        assert code == 0, out
        assert "cost $" in out
        assert len(server.requests) == 30  # only the rest was asked
        code, out = invoke(*base, "--max-cost", "1")
        assert code == 2 and "needs a price" in out


def test_dry_run_reports_cost_for_priced_models(tmp_path: Path) -> None:
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--dry-run",
                       "--workspace", str(tmp_path / "w"), "--price", "1,2")
    assert code == 0 and "estimated cost $" in out


def test_dry_run_of_the_loglik_protocol(tmp_path: Path) -> None:
    code, out = invoke("run", "rcc.robustness", "--model", "scripted/echo", "--param",
                       "protocol=loglik", "--limit", "1", "--dry-run",
                       "--workspace", str(tmp_path / "w"))
    assert code == 0 and "dry run of rcc.robustness" in out and "34 to send" in out


def test_verbose_reaches_engines_that_take_it() -> None:
    from rattle.models import load_model
    from rattle.run.config import RunConfig

    settings = RunConfig(model="scripted/echo", verbose=True).model_settings()
    assert settings == {"verbose": True}
    assert load_model("scripted/echo", **settings).display_name == "scripted/echo"  # not taken


def test_dry_run_counts_the_fluency_gate_without_scoring(tmp_path: Path) -> None:
    # The gate's model is asked nothing in a dry run: its requests are counted, every variant
    # the rules write is kept in the count, and the store stays empty.
    from rattle.run.runner import RunConfig, run_suite
    from rattle.run.store import Store

    def config(fluency: str) -> RunConfig:
        return RunConfig(suite="factoid.attacks", model="scripted/echo", out=str(tmp_path / "o"),
                         workspace=str(tmp_path / "ws"), limit=3,
                         suite_options={"fluency": fluency})

    dry = run_suite(config("scripted/echo"), dry_run=True)
    ungated = run_suite(config("none"), dry_run=True)
    assert dry.run_info["cases"] == ungated.run_info["cases"] > 3
    # one score per distinct text: the three claims and each kept variant
    assert dry.run_info["prepare_requests"] == {"to_send": dry.run_info["cases"], "cached": 0}
    assert "prepare_requests" not in ungated.run_info
    store = Store(str(tmp_path / "ws"))
    assert store.stats().responses == 0
    store.close()
    code, out = invoke("run", "factoid.attacks", "--model", "scripted/echo", "--dry-run",
                       "--limit", "2", "--param", "fluency=scripted/echo",
                       "--workspace", str(tmp_path / "ws"))
    assert code == 0 and "requests to other models" in out, out
