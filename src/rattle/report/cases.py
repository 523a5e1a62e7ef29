"""The report's case view: each case's perturbed text with the changed spans marked against the
original, filterable by attack, group and correctness.

A record's ``edits`` are ``[start, before, after]`` with ``start`` in the original text
(``items.Edit``). When the edited text is in the record (the question, or the claim of a
factoid case) the edits are located in it: the view shows the whole perturbed text with each
change as ``<del>before</del><ins>after</ins>``. When it is not (a perturbed passage, a prompt
wording, an option order: the record keeps only the question), the view shows the changed
spans alone, in order, with gaps marked. Segments are computed here and rendered by the page's
script through ``textContent`` only (nothing from a record is ever parsed as markup).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

CASES_PER_PAGE = 50
MAX_EDITS = 40  # edits shown per case; every edit stays in results.jsonl
GROUP_SKIP = ("attack", "sub")  # shown elsewhere, or one value per sub-question
TEXT_FIELDS = ("question", "claim")  # record fields an edited text can be found in
# Targets whose text a record does not keep: their edits are shown as spans without trying.
UNKEPT_TARGETS = frozenset({"passage", "documents", "options", "prompt"})

Segment = list[str]  # ["t", text] plain, ["e", after, before] a change, ["g"] a gap


def locate(text: str, edits: Sequence[Sequence[Any]]) -> list[Segment] | None:
    """``text`` (perturbed) cut into plain and changed segments, or None when the edits
    (original offsets) do not all land on their ``after`` text in ``text``."""
    try:
        ordered = sorted(((int(e[0]), str(e[1]), str(e[2])) for e in edits), key=lambda e: e[0])
    except (TypeError, ValueError, IndexError):
        return None
    if not any(a for _, _, a in ordered):
        # Only deletions: nothing in the text can confirm where they were (word deletions
        # also drop a separator their edits do not record), so the spans are shown alone.
        return None
    out: list[Segment] = []
    shift = 0  # perturbed offset − original offset, after the edits so far
    pos = 0  # in the perturbed text
    last_end = -1  # in the original text
    for start, before, after in ordered:
        if start < last_end or start < 0:
            return None  # overlapping edits: not a plain left-to-right rewrite
        at = start + shift
        if at < pos or text[at:at + len(after)] != after:
            return None
        if at > pos:
            out.append(["t", text[pos:at]])
        out.append(["e", after, before])
        pos = at + len(after)
        shift += len(after) - len(before)
        last_end = start + len(before)
    if pos < len(text):
        out.append(["t", text[pos:]])
    return out


def fragments(edits: Sequence[Sequence[Any]]) -> list[Segment]:
    """The changed spans alone, in order of position, with a gap between distant ones."""
    out: list[Segment] = []
    try:
        ordered = sorted(((int(e[0]), str(e[1]), str(e[2])) for e in edits), key=lambda e: e[0])
    except (TypeError, ValueError, IndexError):
        return out
    end = None
    for start, before, after in ordered[:MAX_EDITS]:
        if not before and not after:
            continue
        if end is None or start > end + 1:
            out.append(["g"])
        elif start == end + 1:
            out.append(["t", " "])
        out.append(["e", after, before])
        end = start + len(before)
    if out:
        out.append(["g"])
    if len(ordered) > MAX_EDITS:
        out.append(["t", f"(+{len(ordered) - MAX_EDITS} more edits)"])
    return out


TAG_CACHE_MAX = 10_000  # distinct groups remembered while a page is written


def _tags(group: Mapping[str, Any], part: str, cache: dict[Any, list[str]]) -> list[str]:
    """``key=value`` labels the group filter offers (cached: groups repeat across cases)."""
    try:
        key: Any = (part, *group.items())
        hash(key)
    except TypeError:
        key = None
    if key is not None and key in cache:
        return cache[key]
    tags = [f"{k}={v}" for k, v in sorted(group.items())
            if k not in GROUP_SKIP and v not in ("", None) and not isinstance(v, (dict, list))]
    if part:
        tags.insert(0, f"part={part}")
    if key is not None and len(cache) < TAG_CACHE_MAX:
        cache[key] = tags
    return tags


def slim(r: Mapping[str, Any], *, composite: bool,
         cache: dict[Any, list[str]] | None = None) -> dict[str, Any]:
    """What the page keeps of a record: enough to show and filter it (``cache``: one per
    page, shared by its records)."""
    group = r.get("group") or {}
    level = group.get("level", "") or ""
    tags = _tags(group, str(r.get("part") or "") if composite else "", {} if cache is None else cache)
    out: dict[str, Any] = {
        "case_id": r.get("case_id", ""), "attack": r.get("attack", ""), "level": level,
        "tags": tags, "question": r.get("question", ""), "response": r.get("response", ""),
        "parsed": r.get("parsed"), "gold": r.get("gold"), "correct": r.get("correct"),
        "status": r.get("status", ""), "target": r.get("target", ""),
    }
    edits = r.get("edits") or []
    if edits:
        fields = () if r.get("target") in UNKEPT_TARGETS else TEXT_FIELDS
        # a search attack's record keeps its whole edited text, whatever it targets (its
        # question or claim field is the original's): that text first
        texts = [(str(r.get("target") or "text"), (r.get("labels") or {}).get("text_after"))]
        texts += [(name, r.get(name)) for name in fields]
        for name, text in texts:
            if isinstance(text, str) and (segments := locate(text, edits)) is not None:
                out["seg"], out["seg_field"] = segments, name
                if name == "question":
                    out["question"] = None  # the segments are the question
                break
        else:
            frag = fragments(edits)
            if frag:
                out["frag"] = frag
    return out


# The page's only script. It reads the JSON data block, builds the filter options from it,
# and renders a page of cases with DOM nodes and textContent (never innerHTML).
JS = r"""
(function(){
  var data = JSON.parse(document.getElementById('cases').textContent);
  var per = %d, page = 0, shown = data;
  var body = document.getElementById('case-body'), info = document.getElementById('page-info');
  var fa = document.getElementById('f-attack'), fg = document.getElementById('f-group');
  var fc = document.getElementById('f-correct');
  function el(parent, tag, text, cls){var e=document.createElement(tag);
    if(text!=null){e.textContent=String(text);} if(cls){e.className=cls;}
    parent.appendChild(e); return e;}
  function opt(sel, value, text){var o=document.createElement('option'); o.value=value;
    o.textContent=text; sel.appendChild(o);}
  var attacks={}, groups={};
  data.forEach(function(r){attacks[r.attack]=(attacks[r.attack]||0)+1;
    r.tags.forEach(function(t){groups[t]=(groups[t]||0)+1;});});
  Object.keys(attacks).sort().forEach(function(a){opt(fa, a, a+' ('+attacks[a]+')');});
  Object.keys(groups).sort().slice(0, 500).forEach(function(g){opt(fg, g, g+' ('+groups[g]+')');});
  function verdict(r){return r.correct===true?'correct':(r.correct===false?'wrong':'unmeasured');}
  function apply(){var a=fa.value, g=fg.value, c=fc.value;
    shown = (!a && !g && !c) ? data : data.filter(function(r){
      return (!a || r.attack===a) && (!g || r.tags.indexOf(g)>=0) && (!c || verdict(r)===c);});}
  function segs(box, list){list.forEach(function(s){
    if(s[0]==='t'){box.appendChild(document.createTextNode(s[1]));}
    else if(s[0]==='g'){el(box, 'span', ' … ', 'gap');}
    else {if(s[2]){el(box, 'del', s[2]);} if(s[1]){el(box, 'ins', s[1]);}}});}
  function textCell(tr, r){var td=el(tr, 'td'), box=el(td, 'div', null, 'txt');
    if(r.question!=null){box.appendChild(document.createTextNode(r.question));}
    if(r.seg){if(r.seg_field!=='question'){el(box, 'div', r.seg_field+':', 'lbl');}
      var p=el(box, 'div', null, 'seg'); segs(p, r.seg);}
    if(r.frag){el(box, 'div', (r.target||'text')+' edits:', 'lbl');
      var f=el(box, 'div', null, 'seg'); segs(f, r.frag);}}
  function render(){while(body.firstChild){body.removeChild(body.firstChild);}
    shown.slice(page*per, (page+1)*per).forEach(function(r){var tr=el(body, 'tr');
      var c=el(tr, 'td'); el(c, 'div', r.case_id, 'id');
      var a=el(tr, 'td'); el(a, 'div', r.attack+(r.level?' '+r.level:''), 'atk');
      r.tags.forEach(function(t){el(a, 'span', t, 'tag');});
      textCell(tr, r);
      el(el(tr, 'td'), 'div', r.response, 'txt');
      var g=el(tr, 'td'); el(g, 'div', r.parsed==null?'':r.parsed, 'txt');
      el(g, 'div', r.gold==null?'':'gold: '+(typeof r.gold==='string'?r.gold:JSON.stringify(r.gold)), 'lbl');
      var v=verdict(r);
      el(tr, 'td', v==='unmeasured'?'unmeasured ('+r.status+')':v,
         v==='correct'?'ok':(v==='wrong'?'bad':'unm'));});
    var total=data.length, n=shown.length;
    info.textContent='page '+(page+1)+' of '+pages()+' ('+(n===total?total:n+' of '+total)+' cases)';}
  function pages(){return Math.max(1, Math.ceil(shown.length/per));}
  function hash(){var h=['page='+(page+1)];
    [['attack',fa],['group',fg],['correct',fc]].forEach(function(p){
      if(p[1].value){h.push(p[0]+'='+encodeURIComponent(p[1].value));}});
    history.replaceState(null, '', '#'+h.join('&'));}
  function go(p){page=Math.max(0, Math.min(p, pages()-1)); render(); hash();}
  fa.onchange=fg.onchange=fc.onchange=function(){apply(); go(0);};
  document.getElementById('prev').onclick=function(){go(page-1);};
  document.getElementById('next').onclick=function(){go(page+1);};
  var q={}; location.hash.replace(/^#/, '').split('&').forEach(function(kv){
    var i=kv.indexOf('='); if(i>0){try{q[kv.slice(0,i)]=decodeURIComponent(kv.slice(i+1));}catch(e){}}});
  [['attack',fa],['group',fg],['correct',fc]].forEach(function(p){var v=q[p[0]];
    if(v==null){return;} for(var i=0;i<p[1].options.length;i++){
      if(p[1].options[i].value===v){p[1].value=v;}}});
  apply();
  if(q.page){var n=parseInt(q.page, 10); if(n>0){page=Math.min(n-1, pages()-1);}}
  render();
})();
""" % CASES_PER_PAGE

CSS = """
.filters{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;margin:.5em 0}
.filters select{max-width:22em}
#case-table{table-layout:fixed;width:100%}#case-table td{overflow-wrap:anywhere}
#case-table .id{font-family:monospace;font-size:11px;overflow-wrap:anywhere}
.txt{white-space:pre-wrap;overflow-wrap:anywhere;max-height:16em;overflow:auto}
.seg{white-space:pre-wrap;overflow-wrap:anywhere;margin-top:.3em}
.lbl{color:#666;font-size:12px;margin-top:.3em}
.tag{display:inline-block;background:#eef1f5;border-radius:3px;padding:0 4px;margin:2px 2px 0 0;
 font-size:11px;overflow-wrap:anywhere}
.gap{color:#888}
ins{background:#c8f0cf;text-decoration:none;outline:1px solid #8fd19e}
del{background:#fbd9d9;color:#7a1f1f}
#pager button{margin-right:.5em}
"""


def case_view(shown_note: str) -> str:
    """The filters, the pager and the empty table the script fills."""
    return (
        "<div class='filters'><label>attack <select id='f-attack'><option value=''>all"
        "</option></select></label><label>group <select id='f-group'><option value=''>all"
        "</option></select></label><label>judgement <select id='f-correct'>"
        "<option value=''>all</option><option value='correct'>correct</option>"
        "<option value='wrong'>wrong</option><option value='unmeasured'>unmeasured</option>"
        "</select></label></div>"
        f"{shown_note}<div id='pager'><button id='prev'>previous</button>"
        "<button id='next'>next</button><span id='page-info'></span></div>"
        "<div class='scroll tall'><table id='case-table'><colgroup><col style='width:11%'>"
        "<col style='width:13%'><col style='width:32%'><col style='width:24%'>"
        "<col style='width:11%'><col style='width:9%'></colgroup><thead><tr><th>case</th>"
        "<th>attack / group</th><th>text (changes marked)</th><th>response</th>"
        "<th>parsed / gold</th><th>judgement</th></tr></thead><tbody id='case-body'></tbody>"
        "</table></div>"
    )
