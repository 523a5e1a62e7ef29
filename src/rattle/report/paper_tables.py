"""Tables shaped like the papers' tables, built from metric values.

RCC: Table 19 (error rate by dataset × attack, ``er``), Table 20 (answer-change rate,
``acr``), Table 12 (RTI by dataset and word operation), and the consistency table (accuracy by
prompt wording / option order, with the standard deviation). Factoid: Tables 1-4 and
Figures 5 and 7 as tables. Cells are percentages as in the papers; RTI stays a fraction,
fluency and utility stay on their 1-5 scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rattle.metrics.core import MetricValue


@dataclass(frozen=True)
class PaperTable:
    """A table shaped like one of the papers' (header, rows), written as tables/<name>.csv."""

    name: str
    title: str
    header: list[str]
    rows: list[list[str]]


RCC_COLUMNS = (
    ("original", "", "ori"),
    ("chars.repeat", "", "repeat"),
    ("chars.delete", "", "delete"),
    ("chars.insert", "", "insert"),
    ("words.insert", "", "word insert"),
    ("words.delete", "", "word delete"),
    ("words.replace", "", "word replace"),
    ("visual.homoglyph", "10%", "visual 10%"),
    ("visual.homoglyph", "50%", "visual 50%"),
    ("visual.homoglyph", "90%", "visual 90%"),
)


def _pct(m: MetricValue | None) -> str:
    return "" if m is None or m.value is None else f"{100 * m.value:.2f}"


def _index(metrics: Sequence[MetricValue], name: str) -> dict[tuple[str, str, str], MetricValue]:
    return {(str(m.group.get("dataset", "")), str(m.group.get("attack", "")),
             str(m.group.get("level", ""))): m for m in metrics if m.name == name}


def rcc_attack_table(metrics: Sequence[MetricValue], name: str) -> PaperTable | None:
    idx = _index(metrics, name)
    if not idx:
        return None
    cols = [c for c in RCC_COLUMNS if any((d, c[0], c[1]) in idx for d, _, _ in idx)]
    if not any(a != "original" for a, _, _ in cols):
        return None  # not a noise experiment (e.g. consistency)
    datasets = sorted({d for d, _, _ in idx})
    rows = [[d, *(_pct(idx.get((d, a, lvl))) for a, lvl, _ in cols)] for d in datasets]
    number, label = ("19", "error rate (%)") if name == "er" else ("20", "answer changed rate (%)")
    return PaperTable(f"rcc_table{number}_{name}",
                      f"RCC Table {number}: adversarial attacks at three levels, {label}",
                      ["dataset", *(c[2] for c in cols)], rows)


def rcc_rti_table(metrics: Sequence[MetricValue]) -> PaperTable | None:
    idx = {(str(m.group.get("dataset")), str(m.group.get("attack"))): m for m in metrics
           if m.name == "rti"}
    if not idx:
        return None
    ops = (("words.insert", "insert"), ("words.delete", "delete"), ("words.replace", "replace"),
           ("mean", "RTI"))
    rows = []
    for d in sorted({k[0] for k in idx}):
        rows.append([d, *("" if (m := idx.get((d, op))) is None or m.value is None
                          else f"{m.value:.3f}" for op, _ in ops)])
    return PaperTable("rcc_table12_rti", "RCC Table 12: relative training index (RTI)",
                      ["dataset", *(label for _, label in ops)], rows)


def rcc_consistency_table(metrics: Sequence[MetricValue]) -> PaperTable | None:
    acc = _index(metrics, "accuracy")
    std = {(str(m.group.get("dataset")), str(m.group.get("attack"))): m for m in metrics
           if m.name == "consistency_std"}
    if not std:
        return None
    levels = sorted({(a, lvl) for _, a, lvl in acc if a in ("prompts.wording", "options.order")})
    cols = [("original", ""), *levels]
    rows = []
    for d in sorted({k[0] for k in std}):
        cells = [_pct(acc.get((d, a, lvl))) for a, lvl in cols]
        cells += [_pct(std.get((d, "prompts.wording"))), _pct(std.get((d, "options.order")))]
        rows.append([d, *cells])
    header = ["dataset", *(lvl or a for a, lvl in cols), "std (wordings)", "std (orders)"]
    return PaperTable("rcc_consistency", "RCC §4.2: accuracy (%) by prompt wording and option "
                      "order, and its standard deviation", header, rows)


FACTOID_OVERALL = (("acc_before", "Acc-before"), ("acc_after", "Acc-after"), ("asr", "ASR"),
                   ("factscore", "Factscore"), ("fluency", "Fluency"), ("utility", "Utility"),
                   ("citation_recall", "Citation-Recall"), ("citation_precision", "Citation-Precision"),
                   ("reference_rate", "Reference"))


def _one(metrics: Sequence[MetricValue], name: str, **group: object) -> MetricValue | None:
    for m in metrics:
        if m.name == name and all(m.group.get(k) == v for k, v in group.items()) and (
                set(m.group) - {"title", "judge"} <= set(group)):
            return m
    return None


def _cell(m: MetricValue | None, name: str) -> str:
    if m is None or m.value is None:
        return ""
    return f"{m.value:.2f}" if name in ("fluency", "utility") else f"{100 * m.value:.1f}"


def factoid_tables(metrics: Sequence[MetricValue]) -> list[PaperTable]:
    """Factoid Table 1 (overall), Table 2 (ASR per attack), Table 4 (declarative vs question),
    Table 3 (numerical vs cloze), Figure 7 (ASR by hops) and Figure 5 (ASR by component)."""
    if not any(m.name == "asr" for m in metrics):
        return []
    out: list[PaperTable] = []
    overall = []
    for name, label in FACTOID_OVERALL:
        m = _one(metrics, name, form="declarative") or _one(metrics, name)
        if m is not None:
            overall.append((label, _cell(m, name)))
    out.append(PaperTable("factoid_table1", "Factoid Table 1: accuracy, ASR and response quality",
                          [label for label, _ in overall], [[cell for _, cell in overall]]))
    rows = []
    from rattle.attacks.claims.base import ATTACKS

    for attack in ATTACKS:
        m = _one(metrics, "asr", attack=attack)
        if m is not None:
            rows.append([str(m.group.get("title", attack)), _cell(m, "asr"),
                         _cell(_one(metrics, "acc_after", attack=attack), "acc_after")])
    if rows:
        out.append(PaperTable("factoid_table2_asr", "Factoid Table 2: ASR per attack method",
                              ["attack", "ASR", "Acc-after"], rows))
    d, q = _one(metrics, "asr", form="declarative"), _one(metrics, "asr", form="question")
    if d is not None and q is not None:
        out.append(PaperTable("factoid_table4_forms", "Factoid Table 4: declarative (D) vs question (Q)",
                              ["ASR D", "ASR Q"], [[_cell(d, "asr"), _cell(q, "asr")]]))
    cloze = _one(metrics, "cloze_accuracy")
    if cloze is not None:
        out.append(PaperTable("factoid_table3_cloze", "Factoid Table 3: numerical manipulation vs cloze test",
                              ["ASR numerical manipulation", "cloze accuracy"],
                              [[_cell(_one(metrics, "asr", attack="numerical"), "asr"), _cell(cloze, "")]]))
    hops = sorted({(int(str(m.group["hops"])), str(m.group["setting"])) for m in metrics
                   if m.name == "asr" and "hops" in m.group and "setting" in m.group})
    if hops:
        rows = [[str(h), *(_cell(_one(metrics, "asr", setting=s, hops=h), "asr") for s in ("MHOE", "OHOE"))]
                for h in sorted({h for h, _ in hops})]
        out.append(PaperTable("factoid_figure7_hops", "Factoid Figure 7: ASR by hops", ["hops", "MHOE", "OHOE"], rows))
    comps = [m for m in metrics if m.name == "asr" and set(m.group) == {"component"}]
    if comps:
        out.append(PaperTable("factoid_figure5_components", "Factoid Figure 5: ASR by component",
                              ["component", "ASR"], [[str(m.group["component"]), _cell(m, "asr")] for m in comps]))
    return out


LABEL_HEADERS = ("dataset", "attack", "hops", "component")  # a first column of row labels


def has_values(table: PaperTable) -> bool:
    """Whether a table shows any number (a run where nothing was measured has none)."""
    skip = 1 if table.header and table.header[0] in LABEL_HEADERS else 0
    return any(cell not in ("", "–") for row in table.rows for cell in row[skip:])


def paper_tables(metrics: Sequence[MetricValue]) -> list[PaperTable]:
    """The papers' tables that the metric values fill; a table with no value is left out."""
    tables = [rcc_attack_table(metrics, "er"), rcc_attack_table(metrics, "acr"),
              rcc_rti_table(metrics), rcc_consistency_table(metrics)]
    found = [t for t in tables if t is not None] + factoid_tables(metrics)
    return [t for t in found if has_values(t)]
