"""The question form of a claim (paper §3.3, Table 4: every attack is asked as a declarative
and as a question)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rattle.attacks.claims.rules.common import lower_first


def to_question(text: str, parse: Callable[[str], Any]) -> str:
    """The yes/no question form of a declarative sentence: the auxiliary moved to the front,
    or do-support for a main verb; ``Is it true that ...?`` when the subject does not open it."""
    doc = parse(text)
    body = text.strip().rstrip(".!")
    roots = [t for t in doc if t.dep_ == "ROOT"]
    fallback = "Is it true that " + lower_first(body, doc) + "?"
    if not roots:
        return fallback
    root = roots[0]
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.pos_ == "PRON" or text[: subj.left_edge.idx].strip():
        return fallback
    if any(c.dep_ == "conj" and any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
           for c in root.children):
        return fallback  # "X is A, and in 2008 it was B": one auxiliary cannot invert both
    aux = root if root.pos_ == "AUX" else next(
        (c for c in root.children if c.dep_ in ("aux", "auxpass") and subj.i < c.i < root.i), None)
    if aux is not None:
        rest = body[: aux.idx] + body[aux.idx + len(aux.text):]
        lead = aux.text.capitalize()
    elif root.tag_ in ("VBD", "VBZ", "VBP"):
        lead = {"VBD": "Did", "VBZ": "Does", "VBP": "Do"}[root.tag_]
        rest = body[: root.idx] + root.lemma_ + body[root.idx + len(root.text):]
    else:
        return fallback
    rest = " ".join(lower_first(rest, doc).split()).replace(" ,", ",")
    return f"{lead} {rest}?"
