"""Inline SVG charts for the report: bars with CI whiskers, stacked bars, box plots.

Plain SVG strings (no script, no network); every label is escaped.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rattle.metrics.core import MetricValue
from rattle.report.markup import esc

WIDTH = 360  # plot area width in px
ROW = 18
LABEL_W = 260
COLORS = ("#4a7fc1", "#e08a3c", "#9aa5b1", "#5aa469", "#b55d9f")


def _fmt(v: float, percent: bool) -> str:
    return f"{100 * v:.1f}%" if percent else f"{v:.3f}"


def bar_chart(title: str, bars: Sequence[tuple[str, float, float | None, float | None]],
              *, percent: bool = True, vmax: float | None = None) -> str:
    if not bars:
        return ""
    top = vmax or max(1.0 if percent else max(b[1] for b in bars) or 1.0,
                      max((b[3] or 0) for b in bars))
    height = ROW * len(bars) + 24
    parts = [f"<svg role='img' aria-label='{esc(title)}' width='{LABEL_W + WIDTH + 80}' "
             f"height='{height}' xmlns='http://www.w3.org/2000/svg' style='font:12px sans-serif'>"]
    for i, (label, value, lo, hi) in enumerate(bars):
        y = 4 + i * ROW
        w = max(0.0, WIDTH * value / top)
        parts.append(f"<text x='{LABEL_W - 6}' y='{y + 12}' text-anchor='end'>{esc(label)}</text>")
        parts.append(f"<rect x='{LABEL_W}' y='{y + 2}' width='{w:.1f}' height='{ROW - 6}' "
                     f"fill='{COLORS[0]}'/>")
        if lo is not None and hi is not None:
            x1, x2 = LABEL_W + WIDTH * lo / top, LABEL_W + WIDTH * hi / top
            mid = y + ROW / 2 - 1
            parts.append(f"<line x1='{x1:.1f}' x2='{x2:.1f}' y1='{mid}' y2='{mid}' stroke='#222'/>"
                         f"<line x1='{x1:.1f}' x2='{x1:.1f}' y1='{mid - 4}' y2='{mid + 4}' stroke='#222'/>"
                         f"<line x1='{x2:.1f}' x2='{x2:.1f}' y1='{mid - 4}' y2='{mid + 4}' stroke='#222'/>")
        parts.append(f"<text x='{LABEL_W + WIDTH + 8}' y='{y + 12}'>{_fmt(value, percent)}</text>")
    axis_y = 4 + len(bars) * ROW + 4
    parts.append(f"<line x1='{LABEL_W}' x2='{LABEL_W + WIDTH}' y1='{axis_y}' y2='{axis_y}' stroke='#999'/>")
    parts.append("</svg>")
    return f"<figure><figcaption>{esc(title)}</figcaption>{''.join(parts)}</figure>"


def stacked_bars(title: str, rows: Sequence[tuple[str, Sequence[tuple[str, float]]]]) -> str:
    if not rows:
        return ""
    names = [name for name, _ in rows[0][1]]
    height = ROW * len(rows) + 40
    parts = [f"<svg role='img' aria-label='{esc(title)}' width='{LABEL_W + WIDTH + 20}' "
             f"height='{height}' xmlns='http://www.w3.org/2000/svg' style='font:12px sans-serif'>"]
    for i, (label, segments) in enumerate(rows):
        y = 4 + i * ROW
        parts.append(f"<text x='{LABEL_W - 6}' y='{y + 12}' text-anchor='end'>{esc(label)}</text>")
        x = float(LABEL_W)
        for k, (name, value) in enumerate(segments):
            w = WIDTH * max(0.0, value)
            parts.append(f"<rect x='{x:.1f}' y='{y + 2}' width='{w:.1f}' height='{ROW - 6}' "
                         f"fill='{COLORS[k % len(COLORS)]}'><title>{esc(name)} {100 * value:.1f}%</title></rect>")
            x += w
    ly = 4 + len(rows) * ROW + 14
    for k, name in enumerate(names):
        parts.append(f"<rect x='{LABEL_W + 110 * k}' y='{ly - 9}' width='10' height='10' "
                     f"fill='{COLORS[k % len(COLORS)]}'/><text x='{LABEL_W + 110 * k + 14}' "
                     f"y='{ly}'>{esc(name)}</text>")
    parts.append("</svg>")
    return f"<figure><figcaption>{esc(title)}</figcaption>{''.join(parts)}</figure>"


def box_plot(title: str, groups: Sequence[tuple[str, Sequence[float]]], *, percent: bool = True) -> str:
    groups = [(label, sorted(v)) for label, v in groups if v]
    if not groups:
        return ""
    top = 1.0 if percent else max(max(v) for _, v in groups) or 1.0
    height = ROW * 2 * len(groups) + 10
    parts = [f"<svg role='img' aria-label='{esc(title)}' width='{LABEL_W + WIDTH + 80}' "
             f"height='{height}' xmlns='http://www.w3.org/2000/svg' style='font:12px sans-serif'>"]
    for i, (label, values) in enumerate(groups):
        y = 6 + i * 2 * ROW
        q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3

        def x(v: float) -> float:
            return LABEL_W + WIDTH * v / top

        parts.append(f"<text x='{LABEL_W - 6}' y='{y + 14}' text-anchor='end'>{esc(label)}</text>")
        parts.append(f"<line x1='{x(values[0]):.1f}' x2='{x(values[-1]):.1f}' y1='{y + 10}' "
                     f"y2='{y + 10}' stroke='#222'/>")
        parts.append(f"<rect x='{x(q[0]):.1f}' y='{y + 2}' width='{max(1.0, x(q[2]) - x(q[0])):.1f}' "
                     f"height='16' fill='#cfe0f3' stroke='#222'/>")
        parts.append(f"<line x1='{x(q[1]):.1f}' x2='{x(q[1]):.1f}' y1='{y + 2}' y2='{y + 18}' "
                     f"stroke='#222' stroke-width='2'/>")
        parts.append(f"<text x='{LABEL_W + WIDTH + 8}' y='{y + 14}'>median "
                     f"{_fmt(q[1], percent)}</text>")
    parts.append("</svg>")
    return f"<figure><figcaption>{esc(title)}</figcaption>{''.join(parts)}</figure>"


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


def charts_for(metrics: Sequence[MetricValue]) -> list[str]:
    """The charts a set of metric values supports (none for metrics without values)."""
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
    return [c for c in out if c]
