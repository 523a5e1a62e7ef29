"""Headline cards: the first thing a report shows, one card per suite part.

Each card gives the baseline accuracy, the worst attack, the largest drop from the baseline
with its paired 95% CI, and the gates that read this part's metrics. Gates that matched no
part get a card of their own. Every text is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rattle.report.headline import Drop, Headline, RateStat
from rattle.report.markup import esc

MAX_CONDITIONS = 6  # conditions listed on a card without attacks


def _num(v: float, fmt: str) -> str:
    text = format(100 * v, fmt)
    return text.replace("-0.0", "0.0").replace("+0.0", "0.0")  # no signed zeros


def pct(v: float | None) -> str:
    return "–" if v is None else _num(v, ".1f") + "%"


def ci_text(lo: float | None, hi: float | None, *, points: bool = False) -> str:
    if lo is None or hi is None:
        return ""
    fmt = "+.1f" if points else ".1f"
    return f"95% CI [{_num(lo, fmt)}, {_num(hi, fmt)}]"


def _stat(s: RateStat) -> str:
    return (f"<span class='big'>{esc(pct(s.value))}</span> <span class='ci'>"
            f"{esc(ci_text(s.ci_low, s.ci_high))} · n={s.n}</span>")


def _drop(d: Drop) -> str:
    """The drop as a change in accuracy (negative: worse than baseline), CI likewise."""
    sign = "" if round(100 * d.value, 1) == 0 else "−" if d.value > 0 else "+"
    ci = "" if d.ci_low is None or d.ci_high is None else ci_text(-d.ci_high, -d.ci_low,
                                                                  points=True)
    items = f"paired over {d.items} item{'s' if d.items != 1 else ''}"
    return (f"<span class='big'>{sign}{_num(abs(d.value), '.1f')} points</span> on "
            f"{esc(d.label)} <span class='ci'>{esc(ci)} · {items}</span>")


def _gates(gates: Sequence[Mapping[str, Any]]) -> str:
    if not gates:
        return ""
    items = "".join(
        f"<li class='{'ok' if g.get('passed') else 'bad'}'>{'passed' if g.get('passed') else 'FAILED'}"
        f": <code>{esc(g.get('gate', ''))}</code> <span class='ci'>{esc(g.get('reason', ''))}</span></li>"
        for g in gates)
    return f"<dt>gates</dt><dd><ul>{items}</ul></dd>"


def card(h: Headline, gates: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    conditions_only = not h.variants and bool(h.by_condition)
    if h.baseline is not None and not conditions_only:
        rows.append(f"<dt>baseline</dt><dd>{_stat(h.baseline)}</dd>")
    elif h.baseline is None and h.variants:
        rows.append("<dt>baseline</dt><dd>not measured (every unperturbed case unmeasured)</dd>")
    if h.worst is not None:
        rows.append(f"<dt>worst attack</dt><dd>{esc(h.worst.label)}: {_stat(h.worst)}</dd>")
    if h.drop is not None:
        rows.append(f"<dt>largest drop</dt><dd>{_drop(h.drop)}</dd>")
    if conditions_only:
        for s in h.by_condition[:MAX_CONDITIONS]:
            rows.append(f"<dt>{esc(s.label)}</dt><dd>{_stat(s)}</dd>")
    elif not h.variants and h.baseline is not None:
        rows.append("<dt>attacks</dt><dd>none in this part</dd>")
    if h.baseline is None and h.worst is None and not h.by_condition:
        rows.append("<dt>accuracy</dt><dd>nothing measured</dd>")
    rows.append(_gates(gates))
    note = f"{h.records:,} cases"
    if h.unmeasured:
        note += f", {h.unmeasured:,} unmeasured (not counted in any rate)"
    return (f"<article class='card'><h2>{esc(h.part)}</h2><dl>{''.join(rows)}</dl>"
            f"<div class='note'>{esc(note)}</div></article>")


def cards(headlines: Sequence[Headline], gates: Sequence[Mapping[str, Any]],
          parts: Sequence[str]) -> str:
    """The headline section: a card per part, plus one for gates that matched no part."""
    known = {h.part for h in headlines} | set(parts)
    out = []
    for h in headlines:
        mine = [g for g in gates if h.part in (g.get("parts") or ())]
        out.append(card(h, mine))
    loose = [g for g in gates if not set(g.get("parts") or ()) & known]
    if loose:
        out.append(f"<article class='card'><h2>Gates</h2><dl>{_gates(loose)}</dl></article>")
    if not out:
        return ""
    return f"<section id='headline' class='cards'>{''.join(out)}</section>"
