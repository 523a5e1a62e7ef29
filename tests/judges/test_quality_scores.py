"""Judge scores (fluency, utility): a whole number 1-5 standing alone, else unmeasured."""

from __future__ import annotations

import pytest

from rattle.judges.quality import likert

CASES = [
    ("4", 4), ("Fluency: 4", 4), ("4/5", 4), ("Score: 3 out of 5", 3), ("**5**", 5),
    ("Rating: 2 (on a scale of 1 to 5)", 2), ("I would rate this answer a 5.", 5),
    ("Utility: 2/5. It is verbose.", 2), ("<think>Maybe 3? No.</think>\n4", 4),
    ("10", None), ("4.5", None), ("3 or 4", None), ("0", None), ("6", None), ("", None),
    ("Score: 10/10", None), ("The answer is fluent.", None),
]


@pytest.mark.parametrize(("reply", "expected"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_likert(reply: str, expected: int | None) -> None:
    assert likert(reply) == expected
