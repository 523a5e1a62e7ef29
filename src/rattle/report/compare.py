"""``rattle compare``: several runs side by side, with paired bootstrap CIs for differences.

Metrics from each run's ``metrics.json`` are shown side by side. For accuracy, cases shared by
two runs (same case and question) are paired: the difference B − A is resampled over items
(clusters), so the interval accounts for the runs answering the same questions. A difference
whose 95% interval excludes zero gets a plain-language line.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rattle.report.markup import esc
from rattle.metrics.core import bootstrap_ci
from rattle.report.load import LoadedRun
from rattle.report.tables import fmt_metric

GROUP_KEYS = ("part", "dataset", "attack", "level", "condition", "prompt")


@dataclass(frozen=True)
class PairedDiff:
    """The paired difference of one metric between two runs, with its bootstrap CI."""

    group: dict[str, Any]
    a: str
    b: str
    acc_a: float
    acc_b: float
    diff: float
    ci_low: float | None
    ci_high: float | None
    n_items: int
    n_cases: int

    @property
    def significant(self) -> bool:
        return (self.ci_low is not None and self.ci_high is not None
                and (self.ci_low > 0 or self.ci_high < 0))

    def sentence(self) -> str:
        where = ", ".join(f"{v}" for v in self.group.values() if v not in ("", None)) or "all cases"
        better, worse = (self.b, self.a) if self.diff > 0 else (self.a, self.b)
        lo, hi = self.ci_low or 0.0, self.ci_high or 0.0
        return (f"{better} is {abs(self.diff) * 100:.1f} points more accurate than {worse} on "
                f"{where} (95% CI {lo * 100:+.1f} to {hi * 100:+.1f} points "
                f"for B − A, paired bootstrap over {self.n_items} items).")


def _key(r: dict[str, Any]) -> tuple[Any, ...]:
    g = r.get("group", {})
    return tuple(r.get(k, g.get(k, "")) if k in ("part", "dataset", "attack") else g.get(k, "")
                 for k in GROUP_KEYS)


def paired_accuracy(a: LoadedRun, b: LoadedRun, label_a: str, label_b: str,
                    seed: int = 0) -> list[PairedDiff]:
    index_b = {(r["case_id"], r["sub"]): r for r in b.records}
    groups: dict[tuple[Any, ...], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for ra in a.records:
        rb = index_b.get((ra["case_id"], ra["sub"]))
        if rb is None or ra["correct"] is None or rb["correct"] is None:
            continue
        cell = groups[_key(ra)][f"{ra['dataset']}|{ra['item_id']}"]
        cell[0] += int(ra["correct"])
        cell[1] += int(rb["correct"])
        cell[2] += 1
    out = []
    for key, items in sorted(groups.items(), key=lambda kv: str(kv[0])):
        ka = [v[0] for v in items.values()]
        kb = [v[1] for v in items.values()]
        n = [v[2] for v in items.values()]
        total = sum(n)
        diffs = [y - x for x, y in zip(ka, kb, strict=True)]
        lo, hi = bootstrap_ci(diffs, n, seed=seed)
        out.append(PairedDiff(dict(zip(GROUP_KEYS, key, strict=True)), label_a, label_b,
                              sum(ka) / total, sum(kb) / total, sum(diffs) / total, lo, hi,
                              len(items), total))
    return out


def side_by_side(runs: Sequence[LoadedRun], labels: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    keys: list[tuple[str, str]] = []
    values: list[dict[tuple[str, str], str]] = []
    for run in runs:
        row = {}
        for m in run.metric_values:
            k = (m.name, " · ".join(f"{v}" for v in m.group.values() if v not in ("", None)))
            row[k] = fmt_metric(m)
            if k not in keys:
                keys.append(k)
        values.append(row)
    header = ["metric", "group", *labels]
    body = [[name, group, *(v.get((name, group), "") for v in values)] for name, group in keys]
    return header, body


def to_markdown(header: list[str], body: list[list[str]], diffs: Sequence[PairedDiff]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in body]
    if diffs:
        lines += ["", "Paired accuracy differences (B − A, 95% CI):", ""]
        lines += ["| group | A | B | B − A | CI | items | significant |", "|---|---|---|---|---|---|---|"]
        for d in diffs:
            where = " · ".join(str(v) for v in d.group.values() if v not in ("", None))
            ci = ("–" if d.ci_low is None or d.ci_high is None
                  else f"[{d.ci_low * 100:+.1f}, {d.ci_high * 100:+.1f}]")
            lines.append(f"| {where} | {d.acc_a * 100:.1f} | {d.acc_b * 100:.1f} | "
                         f"{d.diff * 100:+.1f} | {ci} | {d.n_items} | {'yes' if d.significant else 'no'} |")
        significant = [d for d in diffs if d.significant]
        lines += ["", *(d.sentence() for d in significant)] if significant else [
            "", "No significant accuracy difference (every 95% interval contains zero)."]
    return "\n".join(lines) + "\n"


def to_html(header: list[str], body: list[list[str]], diffs: Sequence[PairedDiff],
            labels: Sequence[str]) -> str:
    e = esc
    rows = "".join("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>" for r in body)
    drows = "".join(
        f"<tr><td>{e(' · '.join(str(v) for v in d.group.values() if v not in ('', None)))}</td>"
        f"<td>{d.acc_a * 100:.1f}</td><td>{d.acc_b * 100:.1f}</td><td>{d.diff * 100:+.1f}</td>"
        f"<td>{'' if d.ci_low is None else f'[{d.ci_low * 100:+.1f}, {(d.ci_high or 0) * 100:+.1f}]'}</td>"
        f"<td>{d.n_items}</td><td>{'yes' if d.significant else 'no'}</td></tr>" for d in diffs)
    notes = "".join(f"<p>{e(d.sentence())}</p>" for d in diffs if d.significant) or \
        "<p>No significant accuracy difference (every 95% interval contains zero).</p>"
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
            "style-src 'unsafe-inline'\"><title>rattle compare</title><style>"
            "body{font:14px system-ui,sans-serif;margin:2em}td,th{border:1px solid #ddd;"
            "padding:3px 8px}table{border-collapse:collapse}</style></head><body>"
            f"<h1>rattle compare: {e(' vs '.join(labels))}</h1>{notes}"
            "<h2>Paired accuracy differences (B − A)</h2><table><tr><th>group</th><th>A</th>"
            f"<th>B</th><th>B − A</th><th>95% CI</th><th>items</th><th>significant</th></tr>{drows}</table>"
            "<h2>Metrics side by side</h2><table><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in header) + f"</tr>{rows}</table></body></html>")
