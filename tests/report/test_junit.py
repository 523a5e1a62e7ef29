"""JUnit XML: the Ant JUnit schema's required structure, a case per gate and per suite part."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.report.junit import JUnitCase, JUnitSuite, to_xml

from .junit_schema import validate


def test_the_validator_rejects_what_the_schema_does() -> None:
    good = to_xml([JUnitSuite("s", [JUnitCase("gate: a<1", "rattle.gates")])])
    validate(good)
    for broken in (good.replace(' hostname="localhost"', ""),  # required attribute
                   good.replace('tests="1"', 'tests="2"'),  # count
                   good.replace("<properties />", ""),  # required first child
                   good.replace('classname="rattle.gates" ', ""),
                   good.replace('timestamp="', 'timestamp="x')):
        with pytest.raises(AssertionError):
            validate(broken)


def test_failures_and_untrusted_text() -> None:
    nasty = "model said \x00\x1b[31m<b>&</b>\ud800"
    xml = to_xml([JUnitSuite("quick · m", [
        JUnitCase("gate: asr>0.3", "rattle.gates", None, "", "2 row(s) checked"),
        JUnitCase("gate: accuracy<0.6", "rattle.gates", "accuracy = 0.5 < 0.6", nasty),
        JUnitCase("part: rcc.robustness", "rattle.quick", None, "", "baseline accuracy 80.0%"),
    ])])
    root = validate(xml)
    suite = root[0]
    assert (suite.get("tests"), suite.get("failures")) == ("3", "1")
    failure = suite.find("testcase[@name='gate: accuracy<0.6']/failure")
    assert failure is not None and failure.get("message") == "accuracy = 0.5 < 0.6"
    assert failure.text == "model said \ufffd\ufffd[31m<b>&</b>\ufffd"
    out = suite.findtext("system-out") or ""
    assert "part: rcc.robustness\nbaseline accuracy 80.0%" in out


def test_run_writes_a_case_per_gate_and_per_part(tmp_path: Path) -> None:
    junit = tmp_path / "ci" / "rattle.xml"
    result = CliRunner().invoke(app, [
        "run", "quick", "--model", "scripted/echo", "--limit", "2", "--out", str(tmp_path / "r"),
        "--workspace", str(tmp_path / "ws"), "--junit", str(junit), "--max-unmeasured", "1",
        "--fail-if", "accuracy[suite=qa.context,condition=closed_book]>0.5",  # echo: 0
        "--fail-if", "accuracy[suite=qa.context,condition=gold]>0.5"])  # echo repeats the gold doc
    assert result.exit_code == 4, result.output
    root = validate(junit.read_text())
    [suite] = list(root)
    assert suite.get("name") == "quick · scripted/echo"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert list(cases) == ["gate: accuracy[suite=qa.context,condition=closed_book]>0.5",
                           "gate: accuracy[suite=qa.context,condition=gold]>0.5",
                           "part: rcc.robustness", "part: qa.context", "part: factoid.attacks"]
    failed = {name for name, c in cases.items() if c.find("failure") is not None}
    assert failed == {"gate: accuracy[suite=qa.context,condition=gold]>0.5", "part: qa.context"}
    part_failure = cases["part: qa.context"].find("failure")
    assert isinstance(part_failure, ET.Element)
    assert part_failure.get("message") == (
        "failed gate(s): accuracy[suite=qa.context,condition=gold]>0.5")
    assert "qa.context: 6 cases, 0 unmeasured\nclosed_book: 0.0% (n=2)" in (
        suite.findtext("system-out") or "")
