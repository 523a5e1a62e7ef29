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
    # verbs that share the subject ("flows through or forms part of"): do-support puts each
    # in its base form; an inverted auxiliary cannot carry them ("Was X founded and became")
    verbs = [c for c in root.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")]
    shared = [c for c in verbs if c.tag_ in ("VBD", "VBZ", "VBP")]
    if shared and ((root.i > 0 and doc[root.i - 1].text == ",")
                   or any(not any(g.dep_ == "cc" for g in c.children)
                          and doc[c.i - 1].dep_ != "cc" for c in shared)):
        # "The Battle of Waterloo, fought on ... , marked the end": the parser took the
        # participle for the main verb (round 3: "Did The Battle of Waterloo, fight ...")
        return fallback
    if len(shared) < len(verbs) or any(
            t.dep_ == "conj" and t.tag_ in ("VBD", "VBZ", "VBP") and t.head.tag_ != t.tag_
            and t.head.pos_ in ("VERB", "AUX") for t in doc):
        # a second verb with its own auxiliary ("was dedicated ... and was designed"), or a
        # finite verb joined to an infinitive ("the first woman to win ... and remains"):
        # one inversion cannot carry both
        return fallback
    aux = root if root.pos_ == "AUX" else next(
        (c for c in root.children if c.dep_ in ("aux", "auxpass") and subj.i < c.i < root.i), None)
    if aux is not None:
        if shared:
            return fallback
        rest = body[: aux.idx] + body[aux.idx + len(aux.text):]
        lead = aux.text.capitalize()
    elif root.tag_ in ("VBD", "VBZ", "VBP") and all(c.tag_ == root.tag_ for c in shared):
        lead = {"VBD": "Did", "VBZ": "Does", "VBP": "Do"}[root.tag_]
        rest = body
        for v in sorted([root, *shared], key=lambda t: -t.idx):
            rest = rest[: v.idx] + v.lemma_ + rest[v.idx + len(v.text):]
    else:
        return fallback
    rest = " ".join(lower_first(rest, doc).split()).replace(" ,", ",")
    return f"{lead} {rest}?"
