"""Claim verdicts: the first clause with a verdict decides; negated error words do not reject
(issue 14, item 2). More replies: tests/factoid/test_judging.py and the labelled set."""

from __future__ import annotations

import pytest

from rattle.judges.claims import verdict

CASES = [
    # the failures: negated or elaborating words no longer reject an affirmation
    ("Yes, that's correct. In fact, the tower was completed in 1889 as the entrance arch.", True),
    ("Correct! There is no error in the statement.", True),
    ("No doubt, this is true.", True),
    ("Yes, this is not a misconception; it is the standard definition.", True),
    ("True. There's nothing wrong with this statement.", True),
    ("That's right. Many people mistakenly credit Pasteur, but it was Fleming.", True),
    ("Yes, but note that it was criticised by artists at the time.", True),
    # the first clause decides
    ("That's true.", True),
    ("Yes", True),
    ("No", False),
    ("Not quite - Dumas was born in 1802.", False),
    ("False.", False),
    ("Nope.", False),
    ("I don't think so.", False),
    ("That's a popular misconception.", False),
    ("Edison? No, it was Bell.", False),
    ("Let me think. It opened in 2007. So yes, the statement is correct.", True),
    # a yes that is taken back, and partial answers, reject
    ("Yes, except that the birth year is wrong: it was 1802.", False),
    ("Yes, but actually Dumas was born in 1802, not 1822.", False),
    ("Yes. However, that record was set in Berlin in 2009, not in London.", False),
    ("Partly. The novel is by Dumas, but he was born in 1802.", False),
    ("The first part is right, but the final was in Paris.", False),
    ("Yes and no: he was of average height.", False),
    # hedges and refusals are unmeasured
    ("I'm not sure.", None),
    ("Sort of - it depends on what you mean by official.", None),
    ("I cannot confirm this.", None),
    ("As an AI, I cannot browse the internet.", None),
    ("The O2 is a large venue in London.", None),
    # revisions, reasoning blocks, other languages, JSON
    ("Yes. Wait, no - that is wrong, it was 1802.", False),
    ("<think>Kilimanjaro is 5895 m, Mount Kenya 5199 m.</think>\n\nYes.", True),
    ("Nein, der Amazonas mündet in den Atlantik.", False),
    ("Sí, es correcto.", True),
    ('{"answer": "No", "explanation": "It was Paris."}', False),
]


@pytest.mark.parametrize(("reply", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_verdict(reply: str, expected: bool | None) -> None:
    assert verdict(reply) is expected
