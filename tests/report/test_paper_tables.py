from rattle.metrics.core import MetricValue
from rattle.report.paper_tables import paper_tables


def m(name: str, value: float, dataset: str, attack: str, level: str = "") -> MetricValue:
    return MetricValue(name, value, None, None, 10, 0,
                       {"dataset": dataset, "attack": attack, "level": level})


def test_rcc_tables_19_20_and_12() -> None:
    metrics = [
        m("er", 0.25, "AQuA", "original"), m("er", 0.5, "AQuA", "chars.delete"),
        m("er", 0.75, "AQuA", "visual.homoglyph", "90%"), m("acr", 0.125, "AQuA", "chars.delete"),
        m("rti", 0.4, "AQuA", "words.insert"), m("rti", 0.6, "AQuA", "mean"),
    ]
    tables = {t.name: t for t in paper_tables(metrics)}
    t19 = tables["rcc_table19_er"]
    assert t19.header == ["dataset", "ori", "delete", "visual 90%"]
    assert t19.rows == [["AQuA", "25.00", "50.00", "75.00"]]
    assert tables["rcc_table20_acr"].rows == [["AQuA", "12.50"]]
    t12 = tables["rcc_table12_rti"]
    assert t12.header == ["dataset", "insert", "delete", "replace", "RTI"]
    assert t12.rows == [["AQuA", "0.400", "", "", "0.600"]]
