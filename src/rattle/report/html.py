"""``report.html``: one self-contained file (no network at view time) that leads with the answer.

Order of the page: for each suite part a headline card (baseline, worst attack, largest drop
with its CI, the gates); then each part's paper-shaped tables, metrics and charts (sections
with nothing to show are left out); then the cases, filterable by attack, group and
judgement, with the changed spans marked; the run's details last, collapsed. Tables scroll
inside their box, so the page fits 1280 px.

Everything that came from a model or a dataset is untrusted: it is escaped
(``report.markup.esc``) in markup, and the per-case data travels as JSON inside a
``<script type="application/json">`` block (``<``, ``>`` and ``&`` written as ``\\u003c``
etc.) that the page renders through ``textContent`` only. The Content-Security-Policy allows
the page's one script by its hash and nothing else.
"""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from rattle.metrics.core import MetricValue
from rattle.report.cards import cards
from rattle.report.cases import CSS as CASES_CSS
from rattle.report.cases import JS, case_view, slim
from rattle.report.headline import HeadlineBuilder
from rattle.report.markup import esc
from rattle.report.tables import pivot

Records = Sequence[Mapping[str, Any]] | Callable[[], Iterable[Mapping[str, Any]]]

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;color:#222;
 padding:0 1em;box-sizing:border-box}
*,*:before,*:after{box-sizing:inherit}
header,h1,h2,h3,p,li,dd,figcaption,summary,label{overflow-wrap:anywhere}
h1{font-size:1.5em;margin-bottom:.2em}.sub{color:#555;margin-top:0}
h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}h3{font-size:1.02em}
table{border-collapse:collapse;margin:0;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0}.meta td:first-child{font-weight:600}
.scroll{max-width:100%;overflow:auto;margin:.5em 0}.scroll.long{max-height:30em}
.scroll.tall{max-height:60em}
figure{margin:1em 0;max-width:100%;overflow-x:auto}figcaption{font-weight:600;margin-bottom:4px}
.ok{color:#176b2c}.bad{color:#a11}.unm{color:#886a00}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:1em;margin:1em 0}
.card{border:1px solid #d5dbe3;border-radius:6px;padding:.7em 1em;background:#fafbfc;min-width:0}
.card h2{margin:0 0 .4em;border:0;font-size:1.05em;overflow-wrap:anywhere}
.card dl{display:grid;grid-template-columns:auto 1fr;gap:.15em .8em;margin:0}
.card dt{color:#555}.card dd{margin:0;overflow-wrap:anywhere}
.big{font-size:1.25em;font-weight:600}.ci{color:#666;font-size:12px}
.card ul{margin:.4em 0 0;padding-left:1.2em}.card .note{color:#666;font-size:12px;margin-top:.4em}
details{margin-top:2em}summary{cursor:pointer;font-weight:600}
""" + CASES_CSS

# The page's one script is allowed by its hash; anything injected (inline handlers included)
# is blocked by the Content-Security-Policy even if escaping ever failed.
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(JS.encode()).digest()).decode()
MAX_CASES = 100_000  # cases embedded in the page; every case stays in results.jsonl
LONG_TABLE = 15  # rows above which a table gets its own vertical scroll
META_KEYS = ("suite", "paper", "model", "system", "dataset", "seed", "judge", "rattle_version",
             "cases", "records", "unmeasured", "requests_total", "requests_sent",
             "requests_cached", "requests_failed", "tokens_prompt", "tokens_completion",
             "cost_usd", "wall_seconds", "suite_notes")


def _json_script(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """An escaped table in a box that scrolls (sideways always, down when long)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    cls = "scroll long" if len(rows) > LONG_TABLE else "scroll"
    return f"<div class='{cls}'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def metrics_table(metrics: Sequence[MetricValue]) -> str:
    cols, names, body = pivot(metrics)
    return table([*cols, *names, "n", "unmeasured"], body)


def split_parts(info: Mapping[str, Any], metrics: Sequence[MetricValue]) -> dict[str, list[MetricValue]]:
    """Metric values by suite part (a composite suite groups them by ``suite``), with the
    ``suite`` key dropped from each group."""
    default = str(info.get("suite", ""))
    out: dict[str, list[MetricValue]] = {}
    for m in metrics:
        part = str(m.group.get("suite", default))
        group = {k: v for k, v in m.group.items() if k != "suite"}
        out.setdefault(part, []).append(MetricValue(m.name, m.value, m.ci_low, m.ci_high, m.n,
                                                    m.n_unmeasured, group))
    return out


def part_section(part: str, metrics: Sequence[MetricValue], index: int) -> str:
    """A part's paper tables, metrics and charts; empty when there is nothing to show."""
    from rattle.report.charts import charts_for
    from rattle.report.paper_tables import paper_tables

    blocks = [f"<h3>{esc(t.title)}</h3>{table(t.header, t.rows)}" for t in paper_tables(metrics)]
    if any(m.value is not None for m in metrics):
        blocks.append(f"<h3>Metrics</h3>{metrics_table(metrics)}")
    plots = charts_for(metrics)
    if plots:
        blocks.append("<h3>Charts</h3>" + "".join(plots))
    if not blocks:
        return ""
    return f"<section class='part' id='part-{index}'><h2>{esc(part)}</h2>{''.join(blocks)}</section>"


def _subtitle(info: Mapping[str, Any]) -> str:
    bits = []
    if info.get("model"):
        bits.append(f"model {info['model']}")
    if info.get("dataset"):
        data = info["dataset"]
        bits.append("data " + (", ".join(map(str, data)) if isinstance(data, list) else str(data)))
    if isinstance(info.get("records"), int):
        bits.append(f"{info['records']:,} cases ({info.get('unmeasured', 0):,} unmeasured)")
    if "seed" in info:
        bits.append(f"seed {info['seed']}")
    return " · ".join(bits)


def run_details(info: Mapping[str, Any]) -> str:
    rows = "".join(f"<tr><td>{esc(k)}</td><td>{esc(_show(info[k]))}</td></tr>"
                   for k in META_KEYS if k in info)
    return (f"<details id='run-details'><summary>Run details</summary><div class='scroll'>"
            f"<table class='meta'>{rows}</table></div></details>")


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)


def write_report(info: Mapping[str, Any], records: Records, metrics: Sequence[MetricValue],
                 gates: Sequence[Mapping[str, Any]] = ()) -> str:
    buffer = io.StringIO()
    write_report_to(buffer, info, records, metrics, gates)
    return buffer.getvalue()


def _stream(records: Records) -> Iterable[Mapping[str, Any]]:
    return records() if callable(records) else records


def write_report_to(fh: TextIO, info: Mapping[str, Any], records: Records,
                    metrics: Sequence[MetricValue],
                    gates: Sequence[Mapping[str, Any]] = ()) -> None:
    """Write the page to ``fh``. Records are read twice, streamed each time: once for the
    headline counts, once into the case data block (``records`` is a sequence, or a
    function returning a fresh iterator)."""
    suite = str(info.get("suite", ""))
    builder = HeadlineBuilder(suite)
    for r in _stream(records):
        builder.add(r)
    seed = info.get("seed", 0)
    headlines = builder.headlines(seed=seed if isinstance(seed, int) else 0)
    parts = split_parts(info, metrics)
    composite = len(parts) > 1 or any("suite" in m.group for m in metrics)
    sections = "".join(part_section(p, ms, i) for i, (p, ms) in enumerate(parts.items()))
    total = info.get("records")
    shown = ""
    if isinstance(total, int) and total > MAX_CASES:
        shown = (f"<p>Showing the first {MAX_CASES:,} of {total:,} cases; every case is in "
                 "results.jsonl and results.parquet.</p>")
    fh.write(
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        f"style-src 'unsafe-inline'; img-src data:; script-src '{SCRIPT_HASH}'\">"
        f"<title>rattle report: {esc(suite)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>rattle: {esc(suite)}</h1><p class='sub'>{esc(_subtitle(info))}</p></header>"
        f"{cards(headlines, gates, list(parts))}{sections}"
    )
    any_case = False
    cache: dict[Any, list[str]] = {}
    for i, r in enumerate(itertools.islice(_stream(records), MAX_CASES)):
        if not i:
            fh.write(f"<section id='case-view'><h2>Cases</h2>{case_view(shown)}"
                     "<script type='application/json' id='cases'>[")
            any_case = True
        fh.write(("," if i else "") + _json_script(slim(r, composite=composite, cache=cache)))
    if any_case:
        fh.write(f"]</script><script>{JS}</script></section>")
    fh.write(f"{run_details(info)}</body></html>")
