"""The fluency gate: the parse check, and the language-model score with the real embedded model
(through the executor and the store, as in a run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rattle.attacks.claims.base import ClaimAttack
from rattle.attacks.claims.fluency import (DROPPED, FAILED, FluencyGate, Thresholds, drop_flow,
                                           load_thresholds, parse_problem, score_request)
from rattle.attacks.claims.generators import ClaimContext
from rattle.attacks.documents.base import Dropped
from rattle.errors import DataError
from rattle.models.base import SCORING, Completion
from rattle.run.store import Store
from tests.factoid.conftest import LoadedFlows

CTX = ClaimContext()
CLAIM = "The Golden Gate Bridge in San Francisco opened in 1937."


@pytest.mark.parametrize(("text", "reason"), [
    ("The Golden Gate Bridge in San Francisco closed in 1937.", None),
    ("The Golden Gate Bridge in San Francisco opened in in 1937.", "a word is repeated"),
    ("The Golden Gate Bridge in San Francisco opened , in 1937.", "stray punctuation"),
    ("The Golden Gate Bridge in San Francisco opened (in 1937.", "unbalanced brackets"),
    ("The Golden Gate Bridge opened. It is in San Francisco.",
     "the sentence falls apart when parsed (more sentences than the claim)"),
    ("The Golden Gate Bridge in San Francisco the in 1937.", "no main verb"),
    ("When did the Golden Gate Bridge open?", None),  # questions: light checks only
])
def test_parse_problem(text: str, reason: str | None) -> None:
    assert parse_problem(CLAIM, text, CTX.parse) == reason


def test_an_inserted_clause_is_not_judged_by_the_parsers_attachments() -> None:
    claim = "The International Olympic Committee is based in Lausanne, Switzerland."
    longer = ("The International Olympic Committee, which was founded by Pierre de Coubertin in "
              "1894, is based in Lausanne, Switzerland.")
    # the small model leaves a word of the (fluent) longer sentence unattached
    assert parse_problem(claim, longer, CTX.parse) == "the parser cannot attach every word"
    assert parse_problem(claim, longer, CTX.parse, inserted=True) is None


def test_drop_flow_is_the_difference_of_per_character_means() -> None:
    """Driven by hand (sans-I/O): two score requests, the original first."""
    flow = drop_flow("Ab.", "Abcd.")
    first = next(flow)
    assert first == score_request("Ab.")
    second = flow.send(Completion(json.dumps([-6.0])))
    assert second == score_request("Abcd.")
    with pytest.raises(StopIteration) as done:
        flow.send(Completion(json.dumps([-15.0])))
    assert done.value.value == pytest.approx(-6.0 / 3 - -15.0 / 5)  # -2 - -3 = 1.0 nats/char
    failed = drop_flow("Ab.", "Abcd.")
    next(failed)
    with pytest.raises(StopIteration) as done:
        failed.send(Completion("", error="boom"))
    assert done.value.value is None
    # a dry run still asks for the variant, so that both requests are counted
    counted = drop_flow("Ab.", "Abcd.", count_both=True)
    next(counted)
    assert counted.send(Completion("")) == score_request("Abcd.")
    with pytest.raises(StopIteration) as done:
        counted.send(Completion(""))
    assert done.value.value is None


def _attack(text: str) -> ClaimAttack:
    return ClaimAttack("semantic", text, "", "opened", "closed", 40, False, CLAIM, ())


def test_gate_with_the_embedded_model(embedded_scorer: Any, tmp_path: Path) -> None:
    fluent = _attack("The Golden Gate Bridge in San Francisco closed in 1937.")
    garbled = _attack("Golden the Bridge Gate in Francisco San 1937 opened in the.")
    outcomes: dict[str, Any] = {"a": fluent, "b": garbled, "c": Dropped("semantic", "earlier")}
    claims = {"a": CLAIM, "b": CLAIM, "c": CLAIM}
    with Store(tmp_path / "ws") as store:
        flows = LoadedFlows(store, embedded=embedded_scorer)
        scores = FluencyGate("embedded", Thresholds(1.0)).scores(
            [("a", CLAIM, fluent.declarative or ""), ("b", CLAIM, garbled.declarative or ""),
             ("same", CLAIM, CLAIM)], flows)
        assert scores["same"] == 0.0
        assert scores["b"] is not None and scores["a"] is not None
        assert scores["b"] > scores["a"] + 0.3  # scrambled words cost far more per character
        # a threshold between the two keeps the fluent variant and drops the scrambled one
        cut = (scores["a"] + scores["b"]) / 2
        gated = FluencyGate("embedded", Thresholds(5.0, {"semantic": cut})).apply(
            outcomes, claims, flows)
        rows = store.get_many([score_request(CLAIM).key(embedded_scorer.identity)])
    assert isinstance(gated["a"], ClaimAttack) and gated["a"].details["fluency_drop"] == scores["a"]
    assert gated["b"] == Dropped("semantic", DROPPED)
    assert gated["c"] == Dropped("semantic", "earlier")  # drops pass through untouched
    assert len(rows) == 1  # the scores are in the store: a rerun asks nothing


def test_a_failing_scorer_drops_with_its_own_reason() -> None:
    class Failing:
        identity = display_name = "failing"
        batch_size = 4
        concurrency = 1
        capabilities = frozenset({SCORING})

        async def generate(self, requests: Any) -> list[Completion]:
            raise AssertionError("scoring only")

        async def loglikelihood(self, requests: Any) -> list[list[float]]:
            return [[] for _ in requests]  # a backend that returned no score

        async def aclose(self) -> None:
            return None

    gated = FluencyGate("failing", Thresholds(1.0)).apply({"a": _attack("x.")}, {"a": CLAIM},
                                                          LoadedFlows(None, failing=Failing()))
    assert gated == {"a": Dropped("semantic", FAILED)}


def test_thresholds_file(tmp_path: Path) -> None:
    shipped = load_thresholds()
    assert shipped.scorer == "embedded" and shipped.default > 0
    bad = tmp_path / "t.json"
    bad.write_text('{"attacks": {}}')
    with pytest.raises(DataError, match=r"t\.json.*not a thresholds file"):
        load_thresholds(bad)
    good = tmp_path / "g.json"
    good.write_text(json.dumps(Thresholds(0.5, {"semantic": 0.2}, "x").as_json()))
    again = load_thresholds(good)
    assert (again.of("semantic"), again.of("temporal"), again.scorer) == (0.2, 0.5, "x")


def test_thresholds_belong_to_their_scorer() -> None:
    fitted = Thresholds(0.5, {}, "embedded")
    assert FluencyGate("embedded?n_threads=1", fitted).fitted_for_scorer()  # options aside
    assert not FluencyGate("openai/gpt-4o-mini", fitted).fitted_for_scorer()


def test_library_use_without_a_runner_plans_ungated_variants_and_says_so() -> None:
    from rattle.suites.factoid import FactoidSuite

    suite = FactoidSuite("attacks", limit=2, attacks="temporal")
    cases = list(suite.cases())  # no store, no model: the gate cannot score
    assert cases and suite.notes["fluency_gate"] == "off: no model runner (library use)"
    assert "fluency_thresholds" not in suite.notes
