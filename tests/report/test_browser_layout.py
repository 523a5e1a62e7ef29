"""The report at 1280 px in headless Chromium (driven over the DevTools pipe): no sideways page
scroll, the headline cards first, and filters that change which cases are shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.metrics.core import MetricValue
from rattle.report.html import write_report

from .cdp import Browser
from .test_browser import browser

WIDTH = 1280


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("quick")
    result = CliRunner().invoke(app, [
        "run", "quick", "--model", "scripted/echo", "--limit", "3", "--out", str(tmp / "r"),
        "--workspace", str(tmp / "ws"), "--max-unmeasured", "1",
        "--fail-if", "accuracy[suite=qa.context]<0.5"])
    assert result.exit_code == 4, result.output  # echo gets closed-book questions wrong
    return tmp / "r"


def records(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]


def no_page_scroll(b: Browser) -> None:
    width = b.eval("[document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                   " window.innerWidth]")
    assert width == [WIDTH, WIDTH, WIDTH], width


def test_headline_first_no_sideways_scroll_and_filters(quick_run: Path, tmp_path: Path) -> None:
    recs = records(quick_run)
    with Browser(browser(), tmp_path / "profile") as b:
        b.open((quick_run / "report.html").resolve().as_uri(), width=WIDTH)
        no_page_scroll(b)
        # the first thing after the title is the headline: one card per suite part
        first = b.eval("document.querySelector('header').nextElementSibling.id")
        assert first == "headline"
        cards = b.eval("[...document.querySelectorAll('#headline .card h2')].map(e => e.textContent)")
        assert cards == ["rcc.robustness", "qa.context", "factoid.attacks"]
        tops = b.eval("[...document.querySelectorAll('body > section, body > details')]"
                      ".map(e => [e.id, e.getBoundingClientRect().top])")
        assert [t[0] for t in sorted(tops, key=lambda t: t[1])][:1] == ["headline"]
        assert tops[-1][0] == "run-details"
        assert b.eval("document.getElementById('run-details').open") is False
        card = b.eval("document.querySelectorAll('#headline .card')[1].textContent")
        assert "FAILED: accuracy[suite=qa.context]<0.5" in card
        info = "document.getElementById('page-info').textContent"
        assert b.eval(info) == f"page 1 of 2 ({len(recs)} cases)"

        def choose(select: str, value: str) -> None:
            b.eval(f"(() => {{const s = document.getElementById('{select}'); s.value = "
                   f"{json.dumps(value)}; s.dispatchEvent(new Event('change')); }})()")

        def shown_attacks() -> list[str]:
            return b.eval("[...document.querySelectorAll('#case-body tr td:nth-child(2) .atk')]"
                          ".map(e => e.textContent)")  # type: ignore[no-any-return]

        assert len(set(shown_attacks())) > 1
        choose("f-attack", "chars.delete")
        n_delete = sum(r["attack"] == "chars.delete" for r in recs)
        assert b.eval(info) == f"page 1 of 1 ({n_delete} of {len(recs)} cases)"
        assert shown_attacks() == ["chars.delete"] * n_delete
        # passage edits are shown as changed spans: the deleted text struck, the rest marked
        first_edits = recs[[r["attack"] for r in recs].index("chars.delete")]["edits"]
        dels = b.eval("[...document.querySelector('#case-body tr').querySelectorAll('del')]"
                      ".map(e => e.textContent)")
        assert dels == [e[1] for e in first_edits if e[1]]
        assert "attack=chars.delete" in b.eval("location.hash")
        no_page_scroll(b)
        choose("f-attack", "claims.temporal")  # edits located in the claim itself
        row = b.eval("[document.querySelector('#case-body tr .seg del').textContent,"
                     " document.querySelector('#case-body tr .seg ins').textContent]")
        temporal = next(r for r in recs if r["attack"] == "claims.temporal")
        assert row == temporal["edits"][0][1:]
        choose("f-attack", "")
        choose("f-group", "part=qa.context")
        choose("f-correct", "wrong")
        wrong_qa = sum(r["part"] == "qa.context" and r["correct"] is False for r in recs)
        assert b.eval(info) == f"page 1 of 1 ({wrong_qa} of {len(recs)} cases)"
        verdicts = b.eval("[...document.querySelectorAll('#case-body td:last-child')]"
                          ".map(e => e.textContent)")
        assert verdicts == ["wrong"] * wrong_qa
        assert not b.console_errors(), b.console_errors()
        # the filters live in the address: a reload (or a shared link) shows the same cases
        b.open((quick_run / "report.html").resolve().as_uri() + "#attack=chars.insert&page=1")
        n_insert = sum(r["attack"] == "chars.insert" for r in recs)
        assert b.eval(info) == f"page 1 of 1 ({n_insert} of {len(recs)} cases)"


def test_wide_tables_and_long_text_scroll_inside_their_box(tmp_path: Path) -> None:
    metrics = [MetricValue(f"metric_with_a_long_name_{i}", 0.5, 0.25, 0.75, 10, 0,
                           {"dataset": "a-dataset-with-a-long-name", "attack": f"attack.{j}"})
               for i in range(30) for j in range(3)]
    token = "x" * 5000  # one unbreakable word
    recs = [{"case_id": f"c{i}/{token[:200]}", "attack": f"attack.{i % 3}", "part": "",
             "dataset": "d", "item_id": str(i), "group": {"level": token[:300]},
             "edits": [[0, "q", token]], "question": token, "response": token, "parsed": token,
             "gold": token, "correct": i % 2 == 0, "status": "parsed"} for i in range(60)]
    page = tmp_path / "wide.html"
    page.write_text(write_report({"suite": "synthetic", "model": token[:500], "records": 60},
                                 recs, metrics))
    with Browser(browser(), tmp_path / "profile") as b:
        b.open(page.resolve().as_uri(), width=WIDTH)
        no_page_scroll(b)
        box = b.eval("(() => {const t = [...document.querySelectorAll('.scroll')].find("
                     "e => e.querySelector('th') && e.textContent.includes('metric_with'));"
                     " return [t.scrollWidth, t.clientWidth, t.getBoundingClientRect().right];})()")
        assert box[0] > box[1] and box[2] <= WIDTH  # the table scrolls inside its box
        cases = b.eval("(() => {const d = document.querySelector('#case-view .scroll');"
                       " return [d.scrollWidth, d.clientWidth];})()")
        assert cases[0] == cases[1]  # case texts wrap, even a 5000-character word
        assert b.eval("document.getElementById('page-info').textContent") == \
            "page 1 of 2 (60 cases)"
        assert not b.console_errors(), b.console_errors()
