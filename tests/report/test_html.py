"""The report escapes model output and dataset text."""

from __future__ import annotations

import json
import re

from rattle.metrics.core import MetricValue
from rattle.report.html import write_report

PAYLOADS = ["<script>alert(1)</script>", "<img src=x onerror=alert(2)>",
            "javascript:alert(3)", "</script><script>alert(4)</script>", "a & b \u2028"]


def test_untrusted_text_is_escaped() -> None:
    records = [{
        "case_id": f"c{i}", "attack": "<b>x</b>", "group": {"level": "<i>"}, "edits": [[0, p, p]],
        "question": p, "response": p, "parsed": p, "gold": p, "correct": None, "status": p,
    } for i, p in enumerate(PAYLOADS)]
    metrics = [MetricValue("accuracy", 0.5, 0.2, 0.8, 10, 0, {"dataset": "<svg onload=alert(5)>"})]
    page = write_report({"suite": "<script>alert(6)</script>", "model": "m"}, records, metrics)
    assert page.count("<script") == 2  # the JSON data block and the page's own script
    assert "<img" not in page and "<svg onload" not in page and "<b>x" not in page
    assert "&lt;script&gt;alert(6)" in page and "&lt;svg onload" in page
    data = re.search(r"<script type='application/json' id='cases'>(.*?)</script>", page, re.DOTALL)
    assert data is not None
    decoded = json.loads(data.group(1))
    assert [r["response"] for r in decoded] == PAYLOADS
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
