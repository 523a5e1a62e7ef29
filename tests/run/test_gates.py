"""Gates: the grammar, each operator at its threshold, group filters, CI bounds, unmeasured
rows, exit status 4 and what metrics.json records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.errors import ConfigError
from rattle.metrics.core import MetricValue
from rattle.run.gates import GateError, check, evaluate, metric_rows, parse_gate

METRICS = [
    MetricValue("accuracy", 0.8, 0.7, 0.9, 100, 0, {"dataset": "d", "attack": "original"}),
    MetricValue("accuracy", 0.5, 0.35, 0.62, 100, 0, {"dataset": "d", "attack": "chars.delete"}),
    MetricValue("accuracy", 0.6, 0.45, 0.7, 100, 0,
                {"dataset": "d", "attack": "visual.homoglyph", "level": "50%"}),
    MetricValue("asr", 0.3, 0.2, 0.45, 50, 0, {"attack": "temporal"}),
    MetricValue("asr", None, None, None, 0, 5, {"attack": "numerical"}),
]
ROWS = metric_rows(METRICS, defaults={"suite": "rcc.robustness", "model": "m"})


def outcome(text: str) -> tuple[bool, list[float]]:
    r = evaluate(parse_gate(text), ROWS)
    return r.passed, [v for _, v in r.failing]


@pytest.mark.parametrize(("op", "fails"), [("<", False), ("<=", True), (">", False),
                                           (">=", True), ("==", True), ("!=", False)])
def test_each_operator_at_its_threshold(op: str, fails: bool) -> None:
    passed, failing = outcome(f"accuracy[attack=chars.delete]{op}0.5")
    assert passed is not fails
    assert failing == ([0.5] if fails else [])


def test_a_gate_fails_when_any_matching_row_satisfies_it() -> None:
    assert outcome("accuracy<0.55") == (False, [0.5])  # one attack of three is below
    assert outcome("accuracy<0.5") == (True, [])
    assert outcome("accuracy>0.55") == (False, [0.8, 0.6])


def test_group_filters_select_rows() -> None:
    assert outcome("accuracy[attack=original]<0.6") == (True, [])
    assert outcome("accuracy[attack!=original]<0.6") == (False, [0.5])
    assert outcome("accuracy[attack=visual.homoglyph, level=50%]<=0.6") == (False, [0.6])
    assert outcome("accuracy[attack=visual.homoglyph,level='10%']<=0.6") == (False, [])  # no row
    # implicit keys: the suite of a single-suite run and the model can be named
    assert outcome("accuracy[suite=rcc.robustness,dataset=d]>0.75") == (False, [0.8])
    assert outcome("accuracy[model=other]>0") == (False, [])


def test_ci_bounds_and_percentages() -> None:
    assert outcome("ci_low(accuracy)<0.4") == (False, [0.35])
    assert outcome("ci_high(accuracy[attack=chars.delete])<0.62") == (True, [])
    assert outcome("ci_high(accuracy[attack=chars.delete])<=0.62") == (False, [0.62])
    assert outcome("value(accuracy)<50%") == (True, [])
    assert parse_gate("asr > 30%").threshold == pytest.approx(0.3)
    assert parse_gate("asr>1e-1").threshold == pytest.approx(0.1)


def test_unmeasured_rows_are_skipped_and_a_gate_without_rows_fails() -> None:
    r = evaluate(parse_gate("asr>0.25"), ROWS)
    assert (r.matched, r.measured, [v for _, v in r.failing]) == (2, 1, [0.3])
    only_unmeasured = evaluate(parse_gate("asr[attack=numerical]>0.25"), ROWS)
    assert not only_unmeasured.passed and "unmeasured" in only_unmeasured.reason()
    typo = evaluate(parse_gate("acurracy<0.5"), ROWS)
    assert not typo.passed and typo.reason() == "no metric row matches it"


def test_results_describe_the_tripping_rows() -> None:
    [r] = check([parse_gate("accuracy<0.55")], ROWS)
    d = r.as_dict()
    assert d["gate"] == "accuracy<0.55" and d["passed"] is False and d["parts"] == ["rcc.robustness"]
    assert d["failing"] == [{"group": {"dataset": "d", "attack": "chars.delete"}, "value": 0.5}]
    assert r.line() == ("gate failed: accuracy<0.55: accuracy = 0.5 < 0.55 "
                        "[dataset=d, attack=chars.delete]")


@pytest.mark.parametrize(("text", "where"), [
    ("", "empty gate"),
    ("accuracy", "expected a comparison"),
    ("accuracy<", "expected a number"),
    ("accuracy<<0.5", "expected a number"),
    ("accuracy<0.5 and asr>0.3", "expected a number"),
    ("accuracy[attack]<0.5", "expected '=' or '!='"),
    ("accuracy[attack=original<0.5", "expected ',' or ']'"),
    ("ci_low(accuracy<0.5", "expected ')'"),
    ("ci_low(ci_high(accuracy))<0.5", "cannot be used here"),
    ("<0.5", "expected a metric name"),
    ("accuracy[attack='x]<0.5", "unterminated quoted value"),
])
def test_parse_errors_name_the_expression_and_the_grammar(text: str, where: str) -> None:
    with pytest.raises(GateError) as err:
        parse_gate(text)
    message = str(err.value)
    assert f"--fail-if {text!r}" in message and where in message
    assert "a gate is METRIC[key=value,...] OP NUMBER" in message
    assert isinstance(err.value, ConfigError)


def test_delta_only_where_there_is_a_baseline() -> None:
    with pytest.raises(GateError, match="use it with `rattle compare"):
        parse_gate("delta(accuracy)<-0.05")
    g = parse_gate("ci_high(delta(accuracy[attack=original]))<0", allow_delta=True)
    assert (g.delta, g.bound, g.metric, g.threshold) == (True, "ci_high", "accuracy", 0.0)
    with pytest.raises(GateError, match="'asr' cannot be paired"):
        parse_gate("delta(asr)>0.1", allow_delta=True)


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_run_exits_4_on_a_failed_gate_and_records_every_gate(tmp_path: Path) -> None:
    # scripted/constant?text=Paris answers the first of two mini-qa questions: 0.5 everywhere.
    base = ["run", "qa.context", "--model", "scripted/constant?text=Paris", "--limit", "2",
            "--workspace", str(tmp_path / "ws")]
    code, out = invoke(*base, "--out", str(tmp_path / "ok"),
                       "--fail-if", "accuracy[condition=gold]<0.5", "--fail-if", "em>0.5")
    assert code == 0, out
    assert "gates: 2 passed, 0 failed" in out
    code, out = invoke(*base, "--out", str(tmp_path / "bad"),
                       "--fail-if", "accuracy[condition=gold]<0.5",
                       "--fail-if", "accuracy[condition=gold]<=0.5",
                       "--fail-if", "ci_low(f1)<0.1")
    assert code == 4, out
    failed = [line for line in out.splitlines() if line.startswith("rattle: gate failed")]
    assert failed == [
        "rattle: gate failed: accuracy[condition=gold]<=0.5: accuracy = 0.5 <= 0.5 "
        "[dataset=mini-qa, condition=gold]",
        "rattle: gate failed: ci_low(f1)<0.1: ci_low(f1) = 0 < 0.1 "
        "[dataset=mini-qa, condition=closed_book] (and 2 more row(s))",
    ]
    gates = json.loads((tmp_path / "bad" / "metrics.json").read_text())["gates"]
    assert [(g["gate"], g["passed"]) for g in gates] == [
        ("accuracy[condition=gold]<0.5", True), ("accuracy[condition=gold]<=0.5", False),
        ("ci_low(f1)<0.1", False)]
    page = tmp_path / "bad" / "report.html"
    assert "FAILED: <code>accuracy[condition=gold]&lt;=0.5</code>" in page.read_text()
    page.unlink()
    assert invoke("report", str(tmp_path / "bad"))[0] == 0  # re-rendered from metrics.json
    assert "FAILED: <code>accuracy[condition=gold]&lt;=0.5</code>" in page.read_text()


def test_a_bad_gate_stops_before_any_request(tmp_path: Path) -> None:
    code, out = invoke("run", "qa.context", "--model", "scripted/echo", "--workspace",
                       str(tmp_path / "ws"), "--out", str(tmp_path / "r"),
                       "--fail-if", "accuracy=0.5")
    assert code == 2 and "--fail-if 'accuracy=0.5': expected a comparison" in out
    assert not (tmp_path / "r").exists() and not (tmp_path / "ws").exists()


RULES = """
- {pattern: "capital of France", reply: "Paris"}
- {pattern: "Romeo", reply: "William Shakespeare"}
- {pattern: "symbol for water", reply: "H2O"}
- {pattern: "Red Planet", reply: "Mars"}
- {pattern: "days are in a week", reply: "seven"}
- {pattern: "largest ocean", reply: "Pacific Ocean"}
"""


def test_compare_gates_a_regression_against_the_baseline(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    runs = {}
    for name, model in (("good", f"scripted/rules?file={rules}&default=none"),  # 6 of 10
                        ("bad", "scripted/constant?text=none")):  # 0 of 10
        runs[name] = str(tmp_path / name)
        code, out = invoke("run", "qa.context", "--model", model, "--out", runs[name],
                           "--workspace", str(tmp_path / "ws"))
        assert code == 0, out
    code, out = invoke("compare", runs["bad"], runs["good"], "--fail-if", "delta(accuracy)<-0.05")
    assert code == 0 and "gates: 1 passed, 0 failed" in out  # B is 60 points better
    junit = tmp_path / "compare.xml"
    code, out = invoke("compare", runs["good"], runs["bad"], "--fail-if", "delta(accuracy)<-0.05",
                       "--fail-if", "ci_high(delta(accuracy[condition=gold]))<0",
                       "--fail-if", "delta(accuracy[condition=gold])<-0.7",
                       "--junit", str(junit))
    assert code == 4, out
    lines = [line for line in out.splitlines() if line.startswith("rattle: gate failed")]
    assert len(lines) == 2
    assert lines[0].startswith("rattle: gate failed: delta(accuracy)<-0.05: delta(accuracy) = -0.6 "
                               "< -0.05 [bad (scripted/constant?text=none) vs good")
    assert "(and 2 more row(s))" in lines[0]  # closed book, gold, gold + distractor
    assert lines[1].startswith("rattle: gate failed: ci_high(delta(accuracy[condition=gold]))<0")
    xml = junit.read_text()
    assert xml.count("<testcase ") == 3 and xml.count("<failure ") == 2
