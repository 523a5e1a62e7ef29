"""ASR (Eq. 1) and citation recall/precision (Eq. 3-4, Figure 3) against hand-computed values."""

from __future__ import annotations

import pytest

from rattle.metrics.factoid import Statement, answer_citation_scores, asr, citation_metrics, factscore


def test_asr_excludes_originals_answered_wrongly_and_normalises_per_original() -> None:
    rows = [
        # s1 answered correctly: 1 of 2 attacks fooled it -> 1/2
        ("s1", True, False), ("s1", True, True),
        # s2 answered correctly: 3 of 4 -> 3/4 (one unmeasured attack answer is not counted)
        ("s2", True, False), ("s2", True, False), ("s2", True, False), ("s2", True, True),
        ("s2", True, None),
        # s3 answered wrongly before any attack: excluded (I_i = 0)
        ("s3", False, False), ("s3", False, False),
        # s4 original unmeasured: excluded
        ("s4", None, False),
    ]
    m = asr(rows)
    assert m.value == pytest.approx((1 / 2 + 3 / 4) / 2)
    assert m.n == 6 and m.n_unmeasured == 1
    assert m.ci_low is not None and m.ci_low <= m.value <= m.ci_high


def test_asr_of_nothing_is_none() -> None:
    assert asr([("s1", False, False)]).value is None


def test_citation_precision_figure_3() -> None:
    """Paper Figure 3: [1]+[2]+[4] of [1]+[2]+[3]+[4] citations support their statements (75%);
    without the citations irrelevant to the attacked content ([1], [4]) it is [2] of [2]+[3]
    (50%)."""
    answer = [
        Statement("Bugs Bunny has become the corporate mascot for Warner Bros. Entertainment Inc.",
                  ("1",), (True,), (False,)),
        Statement("Warner Bros. is headquartered in Burbank, California, at 4000 Warner Blvd.",
                  ("4",), (True,), (False,)),
        Statement("Burbank is a city with a significant presence in the entertainment industry, "
                  "hosting major companies such as The Walt Disney Company and NBC Television.",
                  ("3", "2"), (False, True), (True, True)),
    ]
    recall, precision = answer_citation_scores(answer)
    assert precision == pytest.approx(0.75)
    assert recall == pytest.approx(1.0)  # every statement has a supporting citation
    _, relevant = answer_citation_scores(answer, relevant_only=True)
    assert relevant == pytest.approx(0.5)
    rec_m, prec_m = citation_metrics([("q1", answer)])
    assert (rec_m.name, rec_m.value) == ("citation_recall", 1.0)
    assert (prec_m.name, prec_m.value) == ("citation_precision", 0.75)


def test_citation_recall_counts_uncited_statements_as_unsupported() -> None:
    a = [Statement("s1", ("1",), (True,)), Statement("s2"), Statement("s3", ("2",), (False,)),
         Statement("s4", ("3",), (True,))]
    b = [Statement("t1", ("1",), (False,))]
    recall, precision = answer_citation_scores(a)
    assert (recall, precision) == (0.5, pytest.approx(2 / 3))
    rec_m, prec_m = citation_metrics([("a", a), ("b", b)])
    assert rec_m.value == pytest.approx((0.5 + 0.0) / 2)
    assert prec_m.value == pytest.approx((2 / 3 + 0.0) / 2)


def test_factscore_is_the_mean_share_of_supported_facts_over_answers_that_respond() -> None:
    m = factscore([("a", [True, True, False, True]), ("b", [False, True]), ("c", [])])
    assert m.value == pytest.approx((3 / 4 + 1 / 2) / 2) and m.n == 2


def test_factoid_paper_tables() -> None:
    from rattle.metrics.core import MetricValue
    from rattle.report.paper_tables import paper_tables

    metrics = [
        MetricValue("acc_before", 1.0, None, None, 4, 0, {"form": "declarative"}),
        MetricValue("acc_after", 0.5, None, None, 8, 0, {}),
        MetricValue("asr", 0.25, None, None, 8, 0, {}),
        MetricValue("asr", 0.5, None, None, 4, 0, {"attack": "temporal", "title": "Temporal Modification"}),
        MetricValue("acc_after", 0.5, None, None, 4, 0, {"attack": "temporal", "title": "Temporal Modification"}),
        MetricValue("asr", 0.125, None, None, 4, 0, {"setting": "MHOE", "hops": 2}),
        MetricValue("asr", 0.375, None, None, 4, 0, {"setting": "OHOE", "hops": 2}),
        MetricValue("fluency", 4.25, None, None, 4, 0, {"form": "declarative", "judge": "j"}),
    ]
    tables = {t.name: t for t in paper_tables(metrics)}
    assert tables["factoid_table1"].header == ["Acc-before", "Acc-after", "ASR", "Fluency"]
    assert tables["factoid_table1"].rows == [["100.0", "50.0", "25.0", "4.25"]]
    assert tables["factoid_table2_asr"].rows == [["Temporal Modification", "50.0", "50.0"]]
    assert tables["factoid_figure7_hops"].rows == [["2", "12.5", "37.5"]]
