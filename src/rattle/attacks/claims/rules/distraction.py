"""Distraction injection (paper §2.1): one clause about a noun entity of the sentence, a related
fact from the knowledge corpus (true, or its false version) or a fabricated one.

Without a ``component``, a knowledge fact about an entity of the sentence is preferred (a
false detail is what a reader believes); the fallback is a clause whose falsity can be
checked: "the same year as <event>" after a year, or an invented original title for a work.
``component`` attaches a fabricated clause written for the entity's type ("who was known for
an impressive collection of vintage harmonicas", paper Appendix D.4) to the subject, the
object, their appositives, or an entity of one type (the Figure 5 analysis). Clauses attach
as ``attach.py`` says.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Fact, Knowledge, Outcome
from rattle.attacks.claims.rules.attach import Attachment, attachment, fits, restates
from rattle.attacks.claims.rules.common import as_sentence, edit_problem, insert_clause, subject
from rattle.attacks.claims.rules.entities import kind_of
from rattle.attacks.claims.rules.temporal import CIRCA, REFERENCE_EVENTS
from rattle.attacks.documents.base import Dropped

# Fabricated clauses (false by construction), written so that a reader could believe them of
# any entity of that type (paper §2.1 and Appendix D.4: "known for her impressive collection
# of vintage harmonica"). Only the component analysis (``component=...``, the paper's Figure 5)
# attaches these to any subject or object. The default attack does not: nobody can decide
# whether a person collected clocks or a city hosts a bicycle festival, so the label "false"
# cannot be checked (7 of 9 invalid held-back distractions, round 3, docs/claims.md), and an
# organisation "originally based in Lisbon" contradicts what readers know of famous ones.
FABRICATED = {
    "person": ("who was known for an impressive collection of vintage harmonicas",
               "who was a keen collector of antique clocks"),
    "place": ("which hosts an annual festival of vintage bicycles",),
    "facility": ("which was designed by a Portuguese engineer",),
    "organisation": ("which was originally based in Lisbon",),
    "work": ("which was originally titled The Silent Harbour",),
    "plural": ("most of which were later lost in a fire",),
    "singular": ("which was later banned in several countries",),
}
# The fabricated clauses the default attack may write: ones whose falsity a reader could check
# (a work's original title is on record; this one is invented). Time distractions ("the same
# year as <event>") are checkable too: the event's year is known.
DECIDABLE = {"work"}
# A clause that explains a name ("named after the astronomer Edwin Hubble") has a false
# version that contradicts the name ("the Hubble Space Telescope, named after Carl Sagan").
_NAMING = re.compile(r"\b(?:named|called|in (?:memory|honou?r) of|dedicated to)\b")
# A fact that states a world record ("the largest country in the world by area"): its false
# version contradicts what nearly every reader knows ("Russia, the second-largest country",
# round 3, multihop).
_WORLD_RECORD = re.compile(r"\b(?:\w+est|most \w+)\b[^,]*\b(?:in the world|on Earth|of the world|"
                           r"in the Solar System)\b")
# A time distraction names an event this close to the year: near enough to be believed.
TIME_DISTANCE = 20
ENTITY_KINDS = {"PERSON": "people", "GPE": "places", "LOC": "places", "FAC": "places",
                "DATE": "time", "TIME": "time", "ORG": "proper_nouns",
                "WORK_OF_ART": "proper_nouns", "EVENT": "proper_nouns", "PRODUCT": "proper_nouns",
                "LAW": "proper_nouns", "NORP": "proper_nouns"}
COMPONENTS = ("subject", "object", "subject_appositive", "object_appositive")
ENTITY_TYPES = ("people", "places", "time", "proper_nouns")
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")


@dataclass(frozen=True)
class Anchor:
    """A phrase a clause can follow, with its grammatical component and entity type."""

    start: int
    end: int
    text: str
    kind: str  # people / places / time / proper_nouns / plural / singular
    component: str  # subject / object / subject_appositive / object_appositive / entity
    label: str  # the spaCy entity label of its head word, or "" for a common noun


def _kind_of(span: Any) -> tuple[str, str]:
    root = span.root
    if root.ent_type_:
        return ENTITY_KINDS.get(root.ent_type_, "proper_nouns"), root.ent_type_
    return ("plural" if root.tag_ in ("NNS", "NNPS") else "singular"), ""


def anchors(claim: str, doc: Any) -> list[Anchor]:
    """Attachment points: the subject, the object and their appositives, and every named
    entity (by type); none inside a name."""
    out: list[Anchor] = []
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    subj = subject(doc)

    def phrase_end(head: Any) -> int:
        right = max((c.right_edge.i for c in head.children
                     if c.dep_ in ("prep", "cc", "conj") and c.i > head.i), default=head.i)
        return int(next((t.i - 1 for t in doc[head.i + 1: right + 1] if t.is_punct), right))

    def add(first: int, last: int, component: str) -> None:
        span = doc[first: last + 1]
        kind, label = _kind_of(span)
        out.append(Anchor(span.start_char, span.end_char, span.text, kind, component, label))

    def nominal(head: Any, component: str) -> None:
        left = min((c.left_edge.i for c in head.children
                    if c.dep_ in ("det", "compound", "amod", "poss", "nummod")), default=head.i)
        add(left, phrase_end(head), component)
        appos = next((c for c in head.children if c.dep_ == "appos"), None)
        if appos is not None:
            add(appos.left_edge.i, phrase_end(appos), component + "_appositive")
        elif left < head.i and head.pos_ == "PROPN":
            # "French author Alexandre Dumas": a common-noun phrase before the name
            name = next(t.i for t in doc[left: head.i + 1] if t.pos_ == "PROPN")
            mods = [t for t in doc[left: name] if t.pos_ in ("NOUN", "ADJ")]
            if mods and mods[-1].pos_ == "NOUN":
                add(mods[0].i, mods[-1].i, component + "_appositive")

    if subj is not None and subj.pos_ != "PRON":
        nominal(subj, "subject")
    if root is not None:
        obj = next((c for c in root.children if c.dep_ in ("dobj", "attr")), None)
        if obj is None:
            for prep in (c for c in root.children if c.dep_ in ("prep", "agent")):
                obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
                if obj is not None:
                    break
        if obj is not None and obj.pos_ in ("NOUN", "PROPN"):
            nominal(obj, "object")
    for e in doc.ents:
        if e.label_ in ENTITY_KINDS:
            out.append(Anchor(e.start_char, e.end_char, e.text, ENTITY_KINDS[e.label_], "entity",
                              e.label_))
    return [a for a in out if not edit_problem(claim, doc, a.end, a.end)]


def time_clause(year: int, rng: random.Random, claim: str, *, true: bool) -> tuple[str, bool] | None:
    """'the same year as <event>': true for an event of that year, else false (a one-year
    event within ``TIME_DISTANCE`` years, never one the claim names)."""
    near = [e for e in REFERENCE_EVENTS if e[1] == e[2] and not restates(e[0], claim)
            and not any(w in claim for w in e[0].split()[1:] if w[:1].isupper())]
    same = [e for e in near if e[1] == e[2] == year]
    other = [e for e in near if not e[1] <= year <= e[2] and abs(e[1] - year) <= TIME_DISTANCE]
    if true and same:
        return f"the same year as {rng.choice(same)[0]}", True
    if other:
        return f"the same year as {rng.choice(other)[0]}", False
    return None


def _time_anchor(doc: Any, anchor: Anchor) -> bool:
    """A year or date that ends a prepositional phrase ("completed in 1844"), not one that
    modifies a noun ("the 1959 autobiography")."""
    tokens = [t for t in doc if anchor.start <= t.idx < anchor.end]
    if CIRCA.search(doc.text[:anchor.start]):
        return False  # "around 1440, the same year as ...": an approximate year has no twin
    if len(_YEAR.findall(anchor.text)) != 1 or re.search(r"\b(?:from|between|to|and)\s+$",
                                                         doc.text[:anchor.start]):
        return False  # a range ("from 1908 to 1927, the same year as ...") is no one year
    if doc.text[anchor.end:].strip()[:1] not in ("", ".", ",", ";"):
        return False  # "founded in 1922, the same year as ..., as the BBC" would misread
    return bool(tokens) and bool(_YEAR.search(anchor.text)) and any(
        t.dep_ == "pobj" for t in tokens) and not any(t.dep_ in ("nummod", "compound", "amod")
                                                     and t.head.idx >= anchor.end for t in tokens)


def usable_facts(knowledge: Knowledge, name: str, at: Attachment, text: str) -> list[Fact]:
    """Facts about ``name`` whose clauses fit the attachment and restate nothing in ``text``."""
    return [f for f in knowledge.by_entity.get(name, ())
            if f.fits(text) and fits(f.true, at) and fits(f.false, at)
            and not restates(f.true, text, name) and not restates(f.false, text, name)
            and believable_false(f, name)]


def believable_false(fact: Fact, name: str) -> bool:
    """Whether a reader could believe the fact's false version: it neither contradicts the
    name it explains (drops the word it explains) nor changes a world record every reader
    knows."""
    return not _contradicts_name(fact, name) and not _WORLD_RECORD.search(fact.true)


def _contradicts_name(fact: Fact, name: str) -> bool:
    if not _NAMING.search(fact.true):
        return False
    words = set(re.findall(r"[A-Z][\w'’-]*", name))
    return bool({w for w in words if re.search(rf"\b{re.escape(w)}\b", fact.true)
                 and not re.search(rf"\b{re.escape(w)}\b", fact.false)})


def _attack(claim: str, point: int, clause: str, truth: bool, correction: str,
            details: dict[str, Any]) -> ClaimAttack:
    return ClaimAttack("distraction", insert_clause(claim, point, clause), "", "", clause, point,
                       truth, "" if truth else correction, (), details)


def distraction(claim: str, doc: Any, rng: random.Random, knowledge: Knowledge, *,
                component: str | None = None, fabricated: bool | None = None) -> Outcome:
    """Add one clause about a noun entity of the sentence: a related fact from the knowledge
    corpus (true, or its false version) or a fabricated one (paper §2.1). ``component`` picks
    the attachment: subject, object, subject_appositive, object_appositive, or an entity type
    (people, places, time, proper_nouns) for the Figure 5 analysis."""
    if component is not None and component not in COMPONENTS + ENTITY_TYPES:
        return Dropped("distraction", f"unknown component {component!r}")
    want_fake = rng.random() < 0.5 if fabricated is None else fabricated
    if component is None and fabricated is not True:
        known = []
        for offset, name in knowledge.mentions(claim):
            at = attachment(claim, doc, offset, offset + len(name))
            facts = usable_facts(knowledge, name, at, claim) if at else []
            known += [(at, name, f) for f in facts]
        if known:
            at, name, fact = rng.choice(known)
            assert at is not None
            clause, truth = (fact.false, False) if want_fake else (fact.true, True)
            true_text = as_sentence(insert_clause(claim, at.point, fact.true))
            return _attack(claim, at.point, clause, truth, true_text, {
                "component": "entity", "entity_type": ENTITY_KINDS.get(fact.type, "proper_nouns"),
                "anchor": name, "fabricated": False, "source": "knowledge"})
    found = anchors(claim, doc)
    if component in COMPONENTS:
        found = [a for a in found if a.component == component]
    elif component in ENTITY_TYPES:
        people = {(e.start_char, e.end_char) for e in doc.ents if kind_of(doc, e) == "person"}
        found = [a for a in found if a.component == "entity" and a.kind == component
                 and (component != "people" or (a.start, a.end) in people)  # not "0 kelvin, who"
                 and (component != "time" or _time_anchor(doc, a))]  # one year, not a range
    else:  # no component: a time, or a named entity whose kind is borne out and takes a
        # clause someone could check (DECIDABLE), where it takes a clause
        kinds = {(e.start_char, e.end_char): kind_of(doc, e) for e in doc.ents}
        found = [replace(a, label=kinds.get((a.start, a.end)) or "") for a in found
                 if a.component == "entity"
                 and (kinds.get((a.start, a.end)) in DECIDABLE or a.kind == "time")
                 and (at := attachment(claim, doc, a.start, a.end)) is not None
                 and at.point == a.end and (a.kind != "time" or _time_anchor(doc, a))]
    if not found:
        return Dropped("distraction", f"no {component or 'entity'} to attach a clause to")
    anchor = rng.choice(found)
    if anchor.kind == "time":
        year = _YEAR.search(anchor.text)
        made = time_clause(int(year.group(1)), rng, claim, true=not want_fake) if year else None
        if made is None:
            return Dropped("distraction", "no reference event to relate the time to")
        clause, truth = made
    else:
        key = anchor.label if anchor.label in FABRICATED else anchor.kind
        if key not in FABRICATED:
            key = {"people": "person", "places": "place"}.get(key, "singular")
        clause, truth = rng.choice(FABRICATED[key]), False
    return _attack(claim, anchor.end, clause, truth, as_sentence(claim), {
        "component": anchor.component, "entity_type": anchor.kind, "anchor": anchor.text,
        "fabricated": not truth, "source": "template"})
