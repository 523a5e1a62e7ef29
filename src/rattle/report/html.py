"""``report.html``: one self-contained file (no network at view time).

Everything that came from a model or a dataset is untrusted: it is escaped with
``html.escape`` in markup, and the per-case data travels as JSON inside a
``<script type="application/json">`` block (with ``<``, ``>`` and ``&`` escaped as ``\\u003c``
etc.) that the page renders through ``textContent`` only.
"""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
import json
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from rattle.metrics.core import MetricValue
from rattle.report.markup import esc
from rattle.report.tables import pivot

CASES_PER_PAGE = 50

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}.meta td:first-child{font-weight:600}
figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:4px}
.ok{color:#176b2c}.bad{color:#a11}.unm{color:#886a00}
pre{white-space:pre-wrap;margin:0;max-width:520px}
ins{background:#d7f5dc;text-decoration:none}del{background:#fbd9d9}
#pager button{margin-right:.5em}
"""

JS = r"""
(function(){
  var data = JSON.parse(document.getElementById('cases').textContent);
  var per = %d, page = 0, body = document.getElementById('case-body');
  var info = document.getElementById('page-info');
  function cell(tr, text, cls){var td=document.createElement('td');
    var pre=document.createElement('pre'); pre.textContent=text==null?'':String(text);
    td.appendChild(pre); if(cls){td.className=cls;} tr.appendChild(td); return td;}
  function edits(td, list){ if(!list||!list.length){return;}
    var box=document.createElement('div');
    list.slice(0,20).forEach(function(e){var d=document.createElement('del');
      d.textContent=e[1]; var i=document.createElement('ins'); i.textContent=e[2];
      box.appendChild(d); box.appendChild(document.createTextNode(' → '));
      box.appendChild(i); box.appendChild(document.createElement('br'));});
    td.appendChild(box);}
  function render(){ while(body.firstChild){body.removeChild(body.firstChild);}
    var rows = data.slice(page*per, (page+1)*per);
    rows.forEach(function(r){ var tr=document.createElement('tr');
      cell(tr, r.case_id); var t=cell(tr, r.attack + (r.level? ' '+r.level:'')); edits(t, r.edits);
      cell(tr, r.question); cell(tr, r.response);
      cell(tr, r.parsed==null? '' : r.parsed); cell(tr, r.gold);
      var c = r.correct===true?'correct':(r.correct===false?'wrong':'unmeasured ('+r.status+')');
      cell(tr, c, r.correct===true?'ok':(r.correct===false?'bad':'unm'));
      body.appendChild(tr);});
    info.textContent = 'page '+(page+1)+' of '+Math.max(1,Math.ceil(data.length/per))+
      ' ('+data.length+' cases)';}
  function go(p){page=Math.max(0,Math.min(p,Math.ceil(data.length/per)-1));render();
    history.replaceState(null,'','#page='+(page+1));}
  document.getElementById('prev').onclick=function(){go(page-1);};
  document.getElementById('next').onclick=function(){go(page+1);};
  var m=/page=(\d+)/.exec(location.hash); if(m){page=Math.max(0,parseInt(m[1],10)-1);
    page=Math.min(page,Math.max(0,Math.ceil(data.length/per)-1));}
  render();
})();
""" % CASES_PER_PAGE


# The page's one script is allowed by its hash; anything injected (inline handlers included)
# is blocked by the Content-Security-Policy even if escaping ever failed.
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(JS.encode()).digest()).decode()


def _json_script(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def metrics_table(metrics: Sequence[MetricValue]) -> str:
    cols, names, body = pivot(metrics)
    head = "".join(f"<th>{esc(c)}</th>" for c in [*cols, *names, "n", "unmeasured"])
    rows = "".join("<tr>" + "".join(f"<td>{esc(v)}</td>" for v in row) + "</tr>" for row in body)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _label(m: MetricValue, skip: Sequence[str] = ()) -> str:
    return " · ".join(str(v) for k, v in m.group.items() if v not in ("", None) and k not in skip)


CHARTED = (  # (metric, title): rates with CIs, one bar per group
    ("er", "Error rate by attack (RCC Eq. 9)"),
    ("acr", "Answer-change rate by attack (RCC Eq. 10)"),
    ("asr", "Attack success rate by attack (factoid Eq. 1)"),
    ("acc_before", "Accuracy on the original claims (factoid Acc-before)"),
    ("acc_after", "Accuracy on the attacked claims (factoid Acc-after)"),
    ("rad", "RAD by added document (RALM Eq. 2)"),
    ("acc_ans", "Accuracy on answerable examples"),
    ("acc_unans", "Accuracy on unanswerable examples"),
    ("par", "Parametric answer rate (RALM Table 13)"),
    ("accuracy", "Accuracy"),
)


def charts(metrics: Sequence[MetricValue]) -> str:
    from rattle.report.charts import bar_chart, box_plot, stacked_bars

    out = []
    for name, title in CHARTED:
        chosen = [m for m in metrics if m.name == name and m.value is not None]
        if chosen:
            out.append(bar_chart(title, [(_label(m), m.value or 0.0, m.ci_low, m.ci_high)
                                         for m in chosen]))
    rti = [m for m in metrics if m.name == "rti" and m.value is not None]
    if rti:
        out.append(bar_chart("RTI by dataset and operation (RCC Algorithm 1)",
                             [(_label(m), m.value or 0.0, m.ci_low, m.ci_high) for m in rti],
                             percent=False, vmax=1.0))
    for family, title in (("prompts.wording", "Accuracy across prompt wordings"),
                          ("options.order", "Accuracy across option orders")):
        groups: dict[str, list[float]] = {}
        for m in metrics:
            if m.name == "accuracy" and m.value is not None and m.group.get("attack") in (
                    family, "original"):
                groups.setdefault(str(m.group.get("dataset", "")), []).append(m.value)
        if any(len(v) > 1 for v in groups.values()) and any(
                m.group.get("attack") == family for m in metrics):
            out.append(box_plot(title, sorted(groups.items())))
    trans: dict[str, dict[str, float]] = {}
    for m in metrics:
        if m.name in ("a_to_a", "a_to_c", "a_to_u") and m.value is not None:
            trans.setdefault(_label(m), {})[m.name] = m.value
    if trans:
        out.append(stacked_bars("Answers after a conflicting document (RALM Table 8)", [
            (label, [("A→A", v.get("a_to_a", 0.0)), ("A→C", v.get("a_to_c", 0.0)),
                     ("A→U", v.get("a_to_u", 0.0))]) for label, v in sorted(trans.items())]))
    return "".join(out)


MAX_CASES = 100_000  # cases embedded in the page; every case stays in results.jsonl


def _slim(r: dict[str, Any]) -> dict[str, Any]:
    return {"case_id": r["case_id"], "attack": r["attack"],
            "level": r["group"].get("level", "") or r["group"].get("condition", ""),
            "edits": r["edits"][:20], "question": r["question"], "response": r["response"],
            "parsed": r["parsed"], "gold": r.get("gold"), "correct": r["correct"],
            "status": r["status"]}


def write_report(info: dict[str, Any], records: Iterable[dict[str, Any]],
                 metrics: Sequence[MetricValue]) -> str:
    buffer = io.StringIO()
    write_report_to(buffer, info, records, metrics)
    return buffer.getvalue()


def write_report_to(fh: TextIO, info: dict[str, Any], records: Iterable[dict[str, Any]],
                    metrics: Sequence[MetricValue]) -> None:
    """Write the page to ``fh``; cases are streamed, one at a time, into the data block."""
    meta_keys = ("suite", "paper", "model", "system", "dataset", "seed", "judge",
                 "rattle_version", "cases", "records", "unmeasured", "requests_total",
                 "requests_sent", "requests_cached", "requests_failed", "tokens_prompt",
                 "tokens_completion", "cost_usd", "wall_seconds", "suite_notes")
    meta = "".join(f"<tr><td>{esc(k)}</td><td>{esc(info.get(k, ''))}</td></tr>"
                   for k in meta_keys if k in info)
    total = info.get("records")
    shown = ""
    if isinstance(total, int) and total > MAX_CASES:
        shown = (f"<p>Showing the first {MAX_CASES:,} of {total:,} cases; every case is in "
                 "results.jsonl and results.parquet.</p>")
    plots = charts(metrics)
    from rattle.report.paper_tables import paper_tables

    papers = "".join(
        f"<h3>{esc(t.title)}</h3><table><thead><tr>"
        + "".join(f"<th>{esc(h)}</th>" for h in t.header) + "</tr></thead><tbody>"
        + "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in t.rows)
        + "</tbody></table>"
        for t in paper_tables(metrics)
    )
    fh.write(
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        f"style-src 'unsafe-inline'; img-src data:; script-src '{SCRIPT_HASH}'\">"
        f"<title>rattle report: {esc(info.get('suite', ''))}</title><style>{CSS}</style></head><body>"
        f"<h1>rattle: {esc(info.get('suite', ''))}</h1>"
        f"<table class='meta'>{meta}</table>"
        + (f"<h2>Tables as in the paper</h2>{papers}" if papers else "")
        + f"<h2>Metrics</h2>{metrics_table(metrics)}"
        f"<h2>Plots</h2>{plots}"
        f"<h2>Cases</h2>{shown}<div id='pager'><button id='prev'>previous</button>"
        "<button id='next'>next</button><span id='page-info'></span></div>"
        "<table><thead><tr><th>case</th><th>attack / edits</th><th>question</th><th>response</th>"
        "<th>parsed</th><th>gold</th><th>judgement</th></tr></thead><tbody id='case-body'></tbody>"
        "</table><script type='application/json' id='cases'>["
    )
    for i, r in enumerate(itertools.islice(records, MAX_CASES)):
        fh.write(("," if i else "") + _json_script(_slim(r)))
    fh.write(f"]</script><script>{JS}</script></body></html>")
