"""JUnit XML for CI systems: one test case per gate and one per suite part.

The layout is the Ant JUnit schema's, which Jenkins, GitLab and the GitHub test-report
actions read: ``<testsuites>`` holding ``<testsuite>`` elements with ``name``, ``id``,
``package``, ``tests``, ``failures``, ``errors``, ``time``, ``timestamp`` and ``hostname``;
each ``<testcase>`` has ``name``, ``classname`` and ``time``, and a failed one holds
``<failure message=… type=…>`` with the details as text. A suite part's case fails when too
many of its cases are unmeasured or a gate failed on its metrics; the headlines (baseline,
worst attack, largest drop) go to the suite's ``<system-out>``.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rattle.files import atomic_write_text
from rattle.report.headline import Headline
from rattle.run.gates import GateResult

# Characters XML 1.0 cannot carry (model output may contain them).
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _INVALID_XML.sub("\ufffd", text)


@dataclass
class JUnitCase:
    """One ``<testcase>``: passed, or failed with a message and details."""

    name: str
    classname: str
    failure: str | None = None
    details: str = ""
    output: str = ""
    time: float = 0.0


@dataclass
class JUnitSuite:
    """One ``<testsuite>``: a run (or a comparison) and its cases."""

    name: str
    cases: list[JUnitCase] = field(default_factory=list)
    time: float = 0.0
    timestamp: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S"))
    hostname: str = "localhost"


def gate_cases(results: Sequence[GateResult], classname: str = "rattle.gates") -> list[JUnitCase]:
    out = []
    for r in results:
        details = "\n".join(f"{value:.6g}{_where(row.group, row.context)}"
                            for row, value in r.failing)
        out.append(JUnitCase(f"gate: {r.gate.text}", classname,
                            None if r.passed else r.reason(), details, r.reason()))
    return out


def _where(group: object, context: str) -> str:
    labels = [f"{k}={v}" for k, v in getattr(group, "items", lambda: [])() if v not in ("", None)]
    if context:
        labels.insert(0, context)
    return f" [{', '.join(labels)}]" if labels else ""


def part_cases(headlines: Sequence[Headline], results: Sequence[GateResult], *,
               suite: str, max_unmeasured: float) -> list[JUnitCase]:
    """A case per suite part: fails when the part's unmeasured share is above
    ``max_unmeasured`` or a failed gate read its metrics."""
    out = []
    for h in headlines:
        problems = []
        share = h.unmeasured / h.records if h.records else 0.0
        if share > max_unmeasured:
            problems.append(f"{share:.0%} of cases unmeasured (more than {max_unmeasured:.0%})")
        failed = [r.gate.text for r in results if not r.passed and h.part in r.parts]
        if failed:
            problems.append("failed gate(s): " + ", ".join(failed))
        out.append(JUnitCase(f"part: {h.part}", f"rattle.{suite}",
                            "; ".join(problems) or None, "\n".join(problems), summary(h)))
    return out


def summary(h: Headline) -> str:
    """The headline as plain text (a test case's output)."""
    lines = [f"{h.part}: {h.records} cases, {h.unmeasured} unmeasured"]
    if h.baseline is not None and h.baseline.value is not None and (h.variants or not h.by_condition):
        lines.append(f"baseline accuracy {100 * h.baseline.value:.1f}% (n={h.baseline.n})")
    if h.worst is not None and h.worst.value is not None:
        lines.append(f"worst attack {h.worst.label}: {100 * h.worst.value:.1f}% (n={h.worst.n})")
    if h.drop is not None:
        ci = ("" if h.drop.ci_low is None or h.drop.ci_high is None else
              f", 95% CI [{100 * h.drop.ci_low:.1f}, {100 * h.drop.ci_high:.1f}]")
        lines.append(f"largest drop {100 * h.drop.value:.1f} points on {h.drop.label}{ci}, "
                     f"paired over {h.drop.items} items")
    for s in h.by_condition:
        if s.value is not None:
            lines.append(f"{s.label}: {100 * s.value:.1f}% (n={s.n})")
    return "\n".join(lines)


def to_xml(suites: Sequence[JUnitSuite]) -> str:
    """The XML text: exactly the elements and attributes the Ant JUnit schema declares (so a
    strict validator accepts it), in its order: properties, test cases, system-out,
    system-err. The outputs of the cases (headlines) go to their suite's system-out."""
    root = ET.Element("testsuites")
    for i, s in enumerate(suites):
        failures = sum(c.failure is not None for c in s.cases)
        el = ET.SubElement(root, "testsuite", {
            "name": _clean(s.name) or "rattle", "id": str(i), "package": "rattle",
            "tests": str(len(s.cases)), "failures": str(failures), "errors": "0",
            "time": f"{s.time:.3f}", "timestamp": s.timestamp, "hostname": s.hostname})
        ET.SubElement(el, "properties")
        for c in s.cases:
            case = ET.SubElement(el, "testcase", name=_clean(c.name), classname=_clean(c.classname),
                                 time=f"{c.time:.3f}")
            if c.failure is not None:
                kind = "rattle.gate" if c.name.startswith("gate:") else "rattle.part"
                fail = ET.SubElement(case, "failure", message=_clean(c.failure), type=kind)
                fail.text = _clean(c.details or c.failure)
        ET.SubElement(el, "system-out").text = _clean(
            "\n\n".join(f"{c.name}\n{c.output}" for c in s.cases if c.output))
        ET.SubElement(el, "system-err")
    ET.indent(root)
    return "<?xml version='1.0' encoding='UTF-8'?>\n" + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(path: Path, suites: Sequence[JUnitSuite]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, to_xml(suites))
