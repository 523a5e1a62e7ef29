"""RCC suites end to end with scripted models, and their metric assembly on a hand table."""

from __future__ import annotations

import pytest

from rattle.run.runner import RunConfig, run_suite
from rattle.metrics.rcc import RTI_RATES as RATES
from rattle.metrics.rcc import rcc_metrics


def run(tmp_path, suite: str, model: str, **opts):  # type: ignore[no-untyped-def]
    cfg = RunConfig(suite=suite, model=model, out=str(tmp_path / suite),
                    workspace=str(tmp_path / "ws"), suite_options=opts)
    return run_suite(cfg)


def values(outcome, name: str):  # type: ignore[no-untyped-def]
    return {(m.group.get("attack"), m.group.get("level")): m for m in outcome.metrics
            if m.name == name}


def test_robustness_with_a_constant_model_changes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = run(tmp_path, "rcc.robustness", "scripted/constant?text=(A)", samples=1)
    acr = values(out, "acr")
    assert len(acr) == 9 and all(m.value == 0.0 for m in acr.values())
    # Multi-turn: one description turn + one turn per sub-question per conversation.
    assert out.run_info["requests_total"] > out.run_info["cases"]
    er = values(out, "er")[("original", "")]
    gold_a = sum(1 for r in out.records if r["attack"] == "original" and r["gold"] == "A")
    n = sum(1 for r in out.records if r["attack"] == "original")
    assert er.value == pytest.approx(1 - gold_a / n)


def test_consistency_first_option_bias(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = run(tmp_path, "rcc.consistency", "scripted/constant?text=(A)", orders=3)
    fo = values(out, "first_option_rate")
    assert fo and all(m.value == 1.0 for m in fo.values())
    std = {m.group["attack"]: m for m in out.metrics if m.name == "consistency_std"}
    assert std["prompts.wording"].value == 0.0  # wording cannot change a constant answer
    # "(A)" is right exactly when the gold option is displayed first, so accuracy moves with the
    # order: the std is the population std of the per-order accuracies, recomputed here.
    import statistics
    from collections import defaultdict

    hits: dict[str, list[bool]] = defaultdict(list)
    for r in out.records:
        if r["attack"] in ("original", "options.order") and r["correct"] is not None:
            hits[r["group"].get("level", "") if r["attack"] != "original" else "original"].append(r["correct"])
    accuracies = [sum(v) / len(v) for v in hits.values()]
    assert len(accuracies) == 3  # orders=3: the original order and two others
    assert std["options.order"].value == pytest.approx(statistics.pstdev(accuracies))
    assert std["options.order"].value > 0


def test_credibility_rti_of_a_constant_model_is_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = run(tmp_path, "rcc.credibility", "scripted/constant?text=(B)", limit=3)
    rti = {m.group["attack"]: m.value for m in out.metrics if m.name == "rti"}
    assert rti == {"words.insert": 1.0, "words.delete": 1.0, "words.replace": 1.0, "mean": 1.0}


def rec(item: str, attack: str, answer: int | None, correct: bool | None,
        rate: float | None = None, level: str = "",
        kind: str | None = "") -> dict:  # type: ignore[type-arg]
    """A record; the chosen option's type is ``kind``, or T<answer> by default."""
    option_type = (f"T{answer}" if answer is not None else None) if kind == "" else kind
    return {"dataset": "d", "item_id": item, "sub": 0, "attack": attack, "answer": answer,
            "option_type": option_type, "correct": correct, "position": answer,
            "params": {"rate": rate} if rate else {}, "group": {"attack": attack, "level": level}}


def test_metric_assembly_on_a_hand_table() -> None:
    records = [
        rec("i1", "original", 0, True), rec("i2", "original", 1, False),
        rec("i3", "original", 2, True), rec("i4", "original", None, None),
        rec("i1", "chars.delete", 1, False), rec("i2", "chars.delete", 1, False),
        rec("i3", "chars.delete", 2, True), rec("i4", "chars.delete", 0, True),
    ]
    ms = {(m.name, m.group["attack"]): m for m in rcc_metrics("robustness", records)}
    assert ms[("er", "original")].value == pytest.approx(1 / 3)
    assert ms[("er", "chars.delete")].value == pytest.approx(2 / 4)
    # ACR pairs: i1 changed, i2 same, i3 same, i4 unmeasured (no original answer)
    assert ms[("acr", "chars.delete")].value == pytest.approx(1 / 3)
    assert ms[("acr", "chars.delete")].n_unmeasured == 1
    cred = [rec("i1", "original", 0, True)] + [
        rec("i1", "words.delete", 0 if r < 0.45 else 1, None, r) for r in
        (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)]
    rti = {m.group["attack"]: m.value for m in rcc_metrics("credibility", cred) if m.name == "rti"}
    assert rti["words.delete"] == pytest.approx(0.5)


def test_acr_compares_option_types_with_the_option_index_beside_it() -> None:
    # i1: wrong option 1 -> wrong option 2, both "Answer Error": the same answer by type
    # (as the RCC authors compared), a change by index. i2: ground truth -> an error option.
    records = [
        rec("i1", "original", 1, False, kind="Answer Error"),
        rec("i2", "original", 0, True, kind="GroundTruth"),
        rec("i1", "chars.delete", 2, False, kind="Answer Error"),
        rec("i2", "chars.delete", 3, False, kind="Answer Error"),
    ]
    ms = {m.name: m for m in rcc_metrics("robustness", records) if m.group["attack"] != "original"}
    assert ms["acr"].value == pytest.approx(1 / 2) and ms["acr"].n == 2
    assert ms["acr_index"].value == pytest.approx(2 / 2)


def test_compat_counts_unparsed_replies_as_the_authors_did() -> None:
    # i1 parsed then unparsed; i2 unparsed both times; i3 parsed and unchanged. The judge in
    # compat mode already marks unparsed replies wrong (correct=False).
    records = [
        rec("i1", "original", 0, True), rec("i2", "original", None, False),
        rec("i3", "original", 1, False),
        rec("i1", "chars.delete", None, False), rec("i2", "chars.delete", None, False),
        rec("i3", "chars.delete", 1, False),
    ]
    default = {m.name: m for m in rcc_metrics("robustness", records)
               if m.group["attack"] == "chars.delete"}
    # Default: unparsed replies are unmeasured for ACR (only i3 is measured: no change).
    assert default["acr"].value == 0.0 and default["acr"].n == 1
    assert default["acr"].n_unmeasured == 2
    compat = {m.name: m for m in rcc_metrics("robustness", records, compat=True)
              if m.group["attack"] == "chars.delete"}
    # Compat: an unparsed reply is the answer "No options": i1 changed, i2 and i3 did not.
    assert compat["acr"].value == pytest.approx(1 / 3) and compat["acr"].n == 3
    assert compat["er"].value == 1.0 and compat["er"].n == 3


def test_rti_of_an_item_whose_perturbed_replies_are_all_unparsed_is_unmeasured() -> None:
    cred = [rec("i1", "original", 0, True), rec("i2", "original", 0, True)]
    cred += [rec("i1", "words.delete", None, None, r) for r in RATES]  # never read
    cred += [rec("i2", "words.delete", 0, True, r) for r in RATES]  # never changed
    ms = {(m.name, m.group["attack"]): m for m in rcc_metrics("credibility", cred)}
    assert ms[("rti", "words.delete")].value == 1.0  # i2 only
    assert ms[("rti", "words.delete")].n == 1 and ms[("rti", "words.delete")].n_unmeasured == 1
    # In compat mode the unparsed replies are "No options": a change at the first rate.
    compat = {(m.name, m.group["attack"]): m for m in rcc_metrics("credibility", cred, compat=True)}
    assert compat[("rti", "words.delete")].value == pytest.approx((0.1 + 1.0) / 2)
    assert ("rti_index", "words.delete") in ms


def test_loglik_protocol_picks_the_most_likely_option(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = run(tmp_path, "rcc.robustness", "scripted/echo", protocol="loglik", samples=1, limit=3)
    originals = [r for r in out.records if r["attack"] == "original"]
    from rattle.datasets import load_dataset

    items = {i.id: i for i in load_dataset("mini-mc", limit=3)}
    for r in originals:
        q = items[r["item_id"]].questions[r["sub"]]
        texts = [f"({chr(65 + k)}){o.text}" for k, o in enumerate(q.displayed)]
        shortest = min(range(len(texts)), key=lambda k: (len(texts[k]), k))
        assert r["parsed"] == chr(65 + shortest)
        assert r["correct"] == (q.order[shortest] == q.correct)


def test_loglik_needs_a_scoring_backend(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from rattle.errors import ConfigError
    from rattle.testing.fake_openai import FakeOpenAIServer

    with FakeOpenAIServer() as server, pytest.raises(ConfigError) as info:
        cfg = RunConfig(suite="rcc.robustness", model="openai/m", base_url=server.base_url,
                        workspace=str(tmp_path / "ws"), suite_options={"protocol": "loglik"})
        run_suite(cfg)
    assert "cannot score log-likelihoods" in str(info.value)


def test_streaming_robustness_metrics_equal_the_list_version(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from rattle.metrics.rcc import RobustnessStream

    out = run(tmp_path, "rcc.robustness", "scripted/echo?error_rate=0.1", samples=2)
    records = out.records
    # Two datasets, to exercise the "all" scope as well.
    twin = [{**r, "dataset": "copy"} for r in records]
    stream = RobustnessStream("", seed=0)
    for r in [*records, *twin]:
        stream.add(r)
    assert stream.metrics() == rcc_metrics("robustness", [*records, *twin])
    written = [m for m in out.metrics if m.name not in ("parse_rate", "judge_agreement")]
    assert written == rcc_metrics("robustness", records)  # what the run wrote
