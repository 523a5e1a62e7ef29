"""Worst-case accuracy and any-flip rate: hand-computed values, and their place in the
rcc.robustness, rcc.consistency, factoid.attacks and ralm.adversarial metric tables."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from rattle.metrics.rcc import RobustnessStream, rcc_metrics
from rattle.metrics.worst_case import (any_flip_rate, flip_outcome, worst_case_accuracy,
                                       worst_case_metrics, worst_case_outcome)
from rattle.run.runner import RunConfig, run_suite

# (cluster, unit, correct, answer): originals, then variants.
ORIGINALS = [("a", "a0", True, 1), ("a", "a1", True, 2), ("b", "b0", False, 0),
             ("c", "c0", True, 1), ("d", "d0", None, None), ("e", "e0", True, 1)]
VARIANTS = [("a", "a0", True, 1), ("a", "a1", False, 3), ("b", "b0", False, 0),
            ("c", "c0", None, None), ("a", "a0", True, 1), ("a", "a1", True, 2),
            ("c", "c0", True, 1), ("d", "d0", False, 2)]


def test_hand_computed_table() -> None:
    worst, flips = worst_case_metrics(ORIGINALS, VARIANTS, group={"g": 1})
    # a0: all right, no change; a1: one variant wrong and changed; b0: wrong, unchanged;
    # c0: one variant unmeasured, the rest right and unchanged (both undecided); d0: original
    # unmeasured but a variant wrong (worst case decided, flip not); e0 has no variant.
    assert (worst.name, worst.value, worst.n, worst.n_unmeasured) == ("worst_case_accuracy", 0.25, 4, 1)
    assert (flips.name, flips.value, flips.n, flips.n_unmeasured) == ("any_flip_rate", 1 / 3, 3, 2)
    assert worst.group == {"g": 1} and 0.0 <= worst.ci_low <= 0.25 <= worst.ci_high <= 1.0  # type: ignore[operator]


def test_the_unit_outcomes_and_the_registered_functions() -> None:
    assert worst_case_outcome(True, [True, True]) is True
    assert worst_case_outcome(None, [False]) is False
    assert worst_case_outcome(True, [True, None]) is None
    assert flip_outcome(1, [1, None, 2]) is True
    assert flip_outcome(1, [1, None]) is None
    assert flip_outcome(1, []) is None and flip_outcome(None, [2]) is None
    units = [("x", True, [True]), ("x", True, [False]), ("y", False, []), ("z", None, [None])]
    m = worst_case_accuracy(units)
    assert (m.value, m.n, m.n_unmeasured) == (1 / 3, 3, 1)
    f = any_flip_rate([("x", "A", ["A", "B"]), ("y", "A", ["A"]), ("z", None, ["B"])])
    assert (f.value, f.n, f.n_unmeasured) == (0.5, 2, 1)


def run(tmp: Path, suite: str, model: str, **opts: Any) -> Any:
    return run_suite(RunConfig(suite=suite, model=model, out=str(tmp / suite),
                               workspace=str(tmp / "ws"), suite_options=opts))


def by_group(metrics: Any, name: str, keys: tuple[str, ...]) -> dict[tuple[Any, ...], Any]:
    return {tuple(m.group.get(k) for k in keys): m for m in metrics if m.name == name}


def expected(records: list[dict[str, Any]], unit: Any, is_original: Any, answer: Any
             ) -> tuple[float, float]:
    """The two figures over all variants, computed the plain way (every case measured)."""
    orig = {unit(r): r for r in records if is_original(r)}
    seen: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if not is_original(r):
            seen[unit(r)].append(r)
    worst = [orig[u]["correct"] and all(v["correct"] for v in vs) for u, vs in seen.items()]
    flips = [any(answer(v) != answer(orig[u]) for v in vs) for u, vs in seen.items()]
    return sum(worst) / len(worst), sum(flips) / len(flips)


def test_rcc_robustness_and_its_stream(tmp_path: Path) -> None:
    rules = tmp_path / "rules.json"
    # "(A)" while a lower-case "the" survives the noise in the passage.
    rules.write_text(json.dumps({'description is "[^"]*\\bthe\\b': "(A)"}))
    out = run(tmp_path, "rcc.robustness", f"scripted/rules?file={rules}&default=(B)", samples=2,
              protocol="single")
    records = out.records
    assert all(r["correct"] is not None for r in records)
    worst = by_group(out.metrics, "worst_case_accuracy", ("attack", "level"))
    flips = by_group(out.metrics, "any_flip_rate", ("attack", "level"))
    assert len(worst) == len(flips) == 9 + 1  # nine attack columns and "all"
    wc, fl = expected(records, lambda r: (r["item_id"], r["sub"]),
                      lambda r: r["attack"] == "original", lambda r: r["answer"])
    assert (worst[("all", "")].value, flips[("all", "")].value) == (pytest.approx(wc), pytest.approx(fl))
    assert 0 < fl < 1  # some noise removes every "the", most does not
    acc = by_group(out.metrics, "accuracy", ("attack", "level"))[("original", "")].value
    assert worst[("all", "")].value <= acc
    twin = [{**r, "dataset": "copy"} for r in records]
    stream = RobustnessStream("", seed=0)
    for r in [*records, *twin]:
        stream.add(r)  # type: ignore[arg-type]
    assert stream.metrics() == rcc_metrics("robustness", [*records, *twin])  # type: ignore[arg-type]
    suite_metrics = [m for m in out.metrics if m.name not in ("parse_rate", "judge_agreement")]
    assert suite_metrics == rcc_metrics("robustness", records)  # type: ignore[arg-type]


def test_rcc_consistency(tmp_path: Path) -> None:
    out = run(tmp_path, "rcc.consistency", "scripted/constant?text=(A)", orders=3)
    worst = by_group(out.metrics, "worst_case_accuracy", ("attack", "level"))
    flips = by_group(out.metrics, "any_flip_rate", ("attack", "level"))
    # "(A)" names a different option whenever the order changes, never when the wording does.
    assert all(m.value == 0.0 for (a, _), m in flips.items() if a == "prompts.wording")
    assert flips[("options.order", "order 1")].value > 0
    wc, fl = expected(out.records, lambda r: (r["item_id"], r["sub"]),
                      lambda r: r["attack"] == "original", lambda r: r["answer"])
    assert (worst[("all", "")].value, flips[("all", "")].value) == (pytest.approx(wc), pytest.approx(fl))


def test_factoid_attacks(tmp_path: Path) -> None:
    out = run(tmp_path, "factoid.attacks", "scripted/constant?text=Yes, that is correct.", limit=8,
              fluency="none")  # the metric table, not the fluency gate (tests/factoid)
    worst = by_group(out.metrics, "worst_case_accuracy", ("attack",))
    flips = by_group(out.metrics, "any_flip_rate", ("attack",))
    assert (None,) in worst and (None,) in flips and len(worst) > 1
    # A constant "yes" accepts every false claim: any attack that makes one false is a change
    # of judgement (right -> wrong), and no sentence stays right under all of its attacks.
    assert worst[(None,)].value == 0.0 and flips[(None,)].value == 1.0


def test_ralm_adversarial(tmp_path: Path) -> None:
    from tests.conftest import external

    litm = external("lost-in-the-middle", "qa_data", "nq-open-oracle.jsonl.gz")
    poison = external("PoisonedRAG", "results", "adv_targeted_results", "nq.json")
    out = run_suite(RunConfig(suite="ralm.adversarial", model="scripted/echo", dataset=str(litm),
                              limit=6, out=str(tmp_path / "o"), workspace=str(tmp_path / "ws"),
                              suite_options={"poison": str(poison), "attacks": "random,provided"}))
    worst = by_group(out.metrics, "worst_case_accuracy", ("condition",))
    flips = by_group(out.metrics, "any_flip_rate", ("condition",))
    assert set(worst) == set(flips) == {("random",), ("provided",), ("all",)}
    # echo repeats the prompt: it holds the gold passage whatever is added (always right), and
    # an added document always changes the answer text.
    assert all(m.value == 1.0 and m.n == 6 for m in [*worst.values(), *flips.values()])
