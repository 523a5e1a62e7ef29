"""The required structure of the Ant JUnit XML schema (the format CI systems read), checked
element by element: what each element must carry, what it may carry, and in which order.

Written from the schema's declarations: ``testsuites`` holds ``testsuite`` elements, each
with the attributes ``name``, ``timestamp`` (ISO 8601 without a zone), ``hostname``,
``tests``, ``failures``, ``errors``, ``time`` and, inside ``testsuites``, ``id`` and
``package``; its children are ``properties``, then ``testcase`` elements, then
``system-out`` and ``system-err``. A ``testcase`` has ``name``, ``classname`` and ``time`` and
at most one ``error`` or ``failure`` (each with a required ``type``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SUITE_REQUIRED = {"name", "timestamp", "hostname", "tests", "failures", "errors", "time", "id",
                  "package"}
CASE_REQUIRED = {"name", "classname", "time"}
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$")
DECIMAL = re.compile(r"^-?\d+(\.\d+)?$")


def _int(el: ET.Element, key: str) -> int:
    value = el.get(key, "")
    assert value.isdigit(), f"{el.tag} {key}={value!r} is not a non-negative integer"
    return int(value)


def validate(text: str) -> ET.Element:
    """Raise AssertionError naming the first violation; return the parsed root."""
    assert text.startswith("<?xml"), "no XML declaration"
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites", f"root is <{root.tag}>"
    assert not root.attrib, f"testsuites declares no attributes, has {sorted(root.attrib)}"
    assert len(root) >= 1, "no testsuite"
    for i, suite in enumerate(root):
        assert suite.tag == "testsuite", f"<{suite.tag}> inside testsuites"
        assert set(suite.attrib) == SUITE_REQUIRED, \
            f"testsuite attributes {sorted(suite.attrib)} != {sorted(SUITE_REQUIRED)}"
        assert suite.get("name", "").strip(), "empty testsuite name"
        assert suite.get("hostname", "").strip(), "empty hostname"
        assert suite.get("package", "").strip(), "empty package"
        assert TIMESTAMP.match(suite.get("timestamp", "")), suite.get("timestamp")
        assert DECIMAL.match(suite.get("time", "")), suite.get("time")
        assert _int(suite, "id") == i
        children = [c.tag for c in suite]
        assert children[:1] == ["properties"], f"testsuite starts with {children[:1]}"
        assert children[-2:] == ["system-out", "system-err"], f"testsuite ends with {children[-2:]}"
        middle = children[1:-2]
        assert set(middle) <= {"testcase"}, f"unexpected children {set(middle) - {'testcase'}}"
        for prop in suite[0]:
            assert prop.tag == "property" and {"name", "value"} <= set(prop.attrib)
        cases = suite.findall("testcase")
        failures = errors = 0
        for case in cases:
            assert set(case.attrib) == CASE_REQUIRED, f"testcase attributes {sorted(case.attrib)}"
            assert case.get("name", "").strip() and case.get("classname", "").strip()
            assert DECIMAL.match(case.get("time", "")), case.get("time")
            kids = list(case)
            assert len(kids) <= 1 and all(k.tag in ("failure", "error") for k in kids), \
                f"testcase children {[k.tag for k in kids]}"
            for k in kids:
                assert k.get("type"), f"<{k.tag}> without type"
                assert set(k.attrib) <= {"type", "message"}
                failures += k.tag == "failure"
                errors += k.tag == "error"
        assert _int(suite, "tests") == len(cases)
        assert _int(suite, "failures") == failures
        assert _int(suite, "errors") == errors
    return root
