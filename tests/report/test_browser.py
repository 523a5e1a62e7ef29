"""Reports in headless Chromium (Debian's chromium): nothing injected runs, pages render.

`make test` and `.ci/run` install chromium when it is missing; with CI set, a missing browser
fails these tests instead of skipping them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.metrics.core import MetricValue
from rattle.report.html import write_report

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]
PAYLOADS = [
    "<script>document.title='pwned-script'</script>",
    "<img src=x onerror=\"document.title='pwned-img'\">",
    "javascript:document.title='pwned-js'",
    "</script><script>document.title='pwned-close'</script>",
    "<svg onload=\"document.title='pwned-svg'\"></svg>",
]


def browser() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):
        pytest.fail("chromium is missing: .ci/run must install it (apt-get install chromium)")
    pytest.skip("chromium is not installed (make test installs it)")


def chrome(tmp: Path, *args: str, timeout: int = 120) -> tuple[str, str]:
    profile = tmp / f"profile-{time.monotonic_ns()}"
    out = subprocess.run([browser(), *FLAGS, f"--user-data-dir={profile}", *args],
                         capture_output=True, text=True, timeout=timeout)
    return out.stdout, out.stderr


def console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines()
            if "CONSOLE" in line and ("Uncaught" in line or "Error" in line or "Refused" in line)]


def test_injected_markup_never_runs(tmp_path: Path) -> None:
    data = tmp_path / "qa.jsonl"
    data.write_text("".join(json.dumps({"question": f"Question {p}", "answers": [p],
                                        "ctxs": [{"title": p, "text": p, "hasanswer": True}]}) + "\n"
                            for p in PAYLOADS))
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps([{"pattern": "Question (.*)", "reply": "\\1"},
                                 {"pattern": ".*", "reply": PAYLOADS[1]}]))
    result = CliRunner().invoke(app, ["run", "qa.context", "--dataset", str(data), "--model",
                                      f"scripted/rules?file={rules}", "--out", str(tmp_path / "run"),
                                      "--workspace", str(tmp_path / "ws")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "run" / "report.html").resolve()
    dom, err = chrome(tmp_path, "--virtual-time-budget=3000", "--dump-dom", page.as_uri())
    assert "pwned" not in re.search(r"<title>(.*?)</title>", dom, re.S).group(1)  # type: ignore[union-attr]
    assert "page 1 of 1 (10 cases)" in dom  # the report's own script did run
    assert "&lt;img src=x onerror=" in dom  # payloads shown as text
    assert "<img src=\"x\"" not in dom and "<svg onload" not in dom  # no element was injected
    assert not console_errors(err), console_errors(err)
    shot = tmp_path / "shot.png"
    chrome(tmp_path, "--window-size=1280,1600", f"--screenshot={shot}", page.as_uri())
    assert shot.stat().st_size > 20_000  # a rendered page, not a blank one


@pytest.mark.parametrize("suite", ["rcc.robustness", "rcc.consistency", "qa.context",
                                   "ralm.conflict", "factoid.attacks"])
def test_each_suite_family_renders_without_console_errors(tmp_path: Path, suite: str) -> None:
    args = ["run", suite, "--model", "scripted/constant?text=(A)", "--out", str(tmp_path / "r"),
            "--workspace", str(tmp_path / "ws"), "--max-unmeasured", "1"]
    if suite == "rcc.robustness":
        args += ["--param", "samples=1"]
    if suite.startswith("rcc"):
        args += ["--limit", "4"]
    if suite.startswith("factoid"):
        args[3] = "scripted/constant?text=No."  # a verdict, so ASR is measured and charted
        args += ["--limit", "4"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r" / "report.html").resolve()
    dom, err = chrome(tmp_path, "--virtual-time-budget=3000", "--dump-dom", page.as_uri())
    assert re.search(r"page 1 of \d+ \(\d+ cases\)", dom)
    assert "<svg" in dom  # charts
    assert not console_errors(err), console_errors(err)


@pytest.mark.slow
def test_a_100k_case_report_opens_and_pages(tmp_path: Path) -> None:
    records = [{"case_id": f"item-{i // 4}/chars.delete#{i % 4}", "attack": "chars.delete",
                "group": {"level": ""}, "edits": [[0, "word", "wrd"]], "question": f"Question {i}?",
                "response": f"(B) answer {i}", "parsed": "B", "gold": "A", "correct": i % 3 == 0,
                "status": "parsed"} for i in range(100_000)]
    metrics = [MetricValue("accuracy", 1 / 3, 0.32, 0.34, 100_000, 0, {"attack": "chars.delete"})]
    page = tmp_path / "big.html"
    page.write_text(write_report({"suite": "synthetic", "model": "none"}, records, metrics))
    start = time.perf_counter()
    dom, err = chrome(tmp_path, "--virtual-time-budget=10000", "--dump-dom",
                      page.resolve().as_uri() + "#page=1234")
    elapsed = time.perf_counter() - start
    assert "page 1234 of 2000 (100000 cases)" in dom
    assert "Question 61700?" in dom  # first case of page 1234 (50 per page)
    assert not console_errors(err)
    assert elapsed < 60
