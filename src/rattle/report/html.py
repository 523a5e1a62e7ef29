"""``report.html``: one self-contained file (no network at view time).

Everything that came from a model or a dataset is untrusted: it is escaped with
``html.escape`` in markup, and the per-case data travels as JSON inside a
``<script type="application/json">`` block (with ``<``, ``>`` and ``&`` escaped as ``\\u003c``
etc.) that the page renders through ``textContent`` only.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from rattle.metrics.core import MetricValue
from rattle.report.tables import RATE_METRICS, pivot

CASES_PER_PAGE = 50

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}
td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}.meta td:first-child{font-weight:600}
.bar{display:inline-block;height:10px;background:#4a7fc1;vertical-align:middle}
.ci{display:inline-block;height:2px;background:#222;vertical-align:middle}
.ok{color:#176b2c}.bad{color:#a11}.unm{color:#886a00}
pre{white-space:pre-wrap;margin:0;max-width:520px}
ins{background:#d7f5dc;text-decoration:none}del{background:#fbd9d9}
#pager button{margin-right:.5em}
"""

JS = """
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
  document.getElementById('prev').onclick=function(){if(page>0){page--;render();}};
  document.getElementById('next').onclick=function(){if((page+1)*per<data.length){page++;render();}};
  render();
})();
""" % CASES_PER_PAGE


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _json_script(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _bar(m: MetricValue) -> str:
    if m.value is None or m.name not in RATE_METRICS:
        return ""
    width = 160
    bar = f'<span class="bar" style="width:{int(width * m.value)}px"></span>'
    if m.ci_low is not None and m.ci_high is not None:
        left = int(width * m.ci_low)
        span = max(1, int(width * (m.ci_high - m.ci_low)))
        bar += (f'<div style="position:relative;height:4px;width:{width}px">'
                f'<span class="ci" style="position:absolute;left:{left}px;width:{span}px"></span>'
                "</div>")
    return bar


def metrics_table(metrics: Sequence[MetricValue]) -> str:
    cols, names, body = pivot(metrics)
    head = "".join(f"<th>{_e(c)}</th>" for c in [*cols, *names, "n", "unmeasured"])
    rows = "".join("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in row) + "</tr>" for row in body)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def plot_table(metrics: Sequence[MetricValue], name: str) -> str:
    chosen = [m for m in metrics if m.name == name and m.value is not None]
    if not chosen:
        return ""
    rows = "".join(
        "<tr><td>" + _e(" · ".join(str(v) for v in m.group.values() if v != "")) + "</td>"
        f"<td>{100 * (m.value or 0):.1f}%</td><td>{_bar(m)}</td></tr>"
        for m in chosen
    )
    return f"<h3>{_e(name)} with 95% CI</h3><table>{rows}</table>"


def write_report(info: dict[str, Any], records: Sequence[dict[str, Any]],
                 metrics: Sequence[MetricValue]) -> str:
    meta_keys = ("suite", "paper", "model", "system", "dataset", "seed", "judge",
                 "rattle_version", "cases", "records", "unmeasured", "requests_total",
                 "requests_sent", "requests_cached", "requests_failed", "tokens_prompt",
                 "tokens_completion", "wall_seconds")
    meta = "".join(f"<tr><td>{_e(k)}</td><td>{_e(info.get(k, ''))}</td></tr>"
                   for k in meta_keys if k in info)
    slim = [
        {"case_id": r["case_id"], "attack": r["attack"], "level": r["group"].get("level", "")
         or r["group"].get("condition", ""), "edits": r["edits"][:20], "question": r["question"],
         "response": r["response"], "parsed": r["parsed"], "gold": r.get("gold"),
         "correct": r["correct"], "status": r["status"]}
        for r in records
    ]
    plots = "".join(plot_table(metrics, n) for n in ("er", "acr", "accuracy"))
    from rattle.report.paper_tables import paper_tables

    papers = "".join(
        f"<h3>{_e(t.title)}</h3><table><thead><tr>"
        + "".join(f"<th>{_e(h)}</th>" for h in t.header) + "</tr></thead><tbody>"
        + "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in t.rows)
        + "</tbody></table>"
        for t in paper_tables(metrics)
    )
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        f"<title>rattle report: {_e(info.get('suite', ''))}</title><style>{CSS}</style></head><body>"
        f"<h1>rattle: {_e(info.get('suite', ''))}</h1>"
        f"<table class='meta'>{meta}</table>"
        + (f"<h2>Tables as in the paper</h2>{papers}" if papers else "")
        + f"<h2>Metrics</h2>{metrics_table(metrics)}"
        f"<h2>Plots</h2>{plots}"
        "<h2>Cases</h2><div id='pager'><button id='prev'>previous</button>"
        "<button id='next'>next</button><span id='page-info'></span></div>"
        "<table><thead><tr><th>case</th><th>attack / edits</th><th>question</th><th>response</th>"
        "<th>parsed</th><th>gold</th><th>judgement</th></tr></thead><tbody id='case-body'></tbody>"
        "</table>"
        f"<script type='application/json' id='cases'>{_json_script(slim)}</script>"
        f"<script>{JS}</script></body></html>"
    )
