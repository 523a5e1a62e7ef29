"""Facts reversal (paper §2.1, the reversal curse): 'A is B' becomes a question whose answer is
A ('What is B?').

The answer is the whole subject phrase, cut at word boundaries (issue 15: "co-founded" gave the
answer "Pablo Picasso co-"). The question word follows the answer's type: Who for people and
groups of people (a PERSON or NORP entity, an organisation acting as an agent, a head noun that
WordNet files under person), When for a time, What otherwise. Where is not used: a place that
is the subject is asked for with What ("What is the deepest lake in the world?"); Where asks
for a location adjunct, whose answer would not be the subject. The verb agrees with the
singular question word ("are played" -> "is played").
"""

from __future__ import annotations

import random
import re
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.claims.rules.entities import kind_noun, wordnet_ancestors, wordnet_person
from rattle.attacks.claims.rules.common import (as_sentence, inflect, lower_first, name_spans,
                                                subject, word_start)
from rattle.attacks.documents.base import Dropped

_PEOPLE_LABELS = {"PERSON", "NORP"}
_TIME_LABELS = {"DATE", "TIME"}
# Plural verb forms and their singular forms after Who/What.
_SINGULAR = {"are": "is", "were": "was", "have": "has", "do": "does"}
# Verbs whose active subject is a person (spaCy's small model misses many names: "Usain Bolt"
# is a GPE to it), and verbs whose active subject is an organisation acting as an agent.
_HUMAN_VERBS = {"paint", "compose", "write", "marry", "discover", "invent", "score", "reign",
                "assassinate", "tutor", "sing", "star", "bear", "die", "set", "co-found",
                "sculpt", "conduct", "direct", "narrate"}
# Of those, the verbs no organisation or thing does: Who even where spaCy says ORG.
_ONLY_HUMAN = {"paint", "compose", "marry", "sing", "sculpt", "die", "reign"}
_AGENT_VERBS = {"win", "release", "record", "perform", "found", "develop", "form", "sign",
                "defeat", "play", "beat", "produce", "publish", "create", "build", "launch",
                "design", "manufacture", "acquire", "buy", "sell"}
def wh_word(doc: Any, subj: Any, name: str) -> str:
    """Who / When / What for the subject (head token ``subj``, text ``name``)."""
    root = subj.head
    head_ent = next((e for e in doc.ents if e.start <= subj.i < e.end and "'s" not in e.text), None)
    label = head_ent.label_ if head_ent is not None else ""
    active = subj.dep_ == "nsubj"
    known = wordnet_ancestors(name[4:] if name.lower().startswith("the ") else name)
    if active and root.lemma_.lower() in _AGENT_VERBS and (
            label == "ORG" or known & {"musical_organization.n.01", "social_group.n.01"}):
        return "Who"  # a band, team or company as the agent of an action
    if known and not known & {"person.n.01"}:
        return "What"  # WordNet knows the name as something else ("the Louvre": a museum)
    attr = next((c for c in root.children if c.dep_ == "attr" and c.pos_ == "NOUN"), None) \
        if root.lemma_ == "be" else None
    if attr is not None:  # "X is a citadel", "X was the 16th president"
        return "Who" if wordnet_person(attr.lemma_.lower(), noun=True) else "What"
    kind = kind_noun(subj)
    if kind is not None and subj.pos_ == "PROPN":  # "the film Casablanca", "novel Frankenstein"
        return "Who" if wordnet_person(kind.lemma_.lower(), noun=True) else "What"
    if subj.pos_ == "NOUN" and any(c.dep_ == "appos" and c.pos_ == "PROPN" for c in subj.children):
        return "Who" if wordnet_person(subj.lemma_.lower(), noun=True) else "What"
    if label in _TIME_LABELS:
        return "When"
    if label in _PEOPLE_LABELS or (subj.pos_ == "PROPN" and wordnet_person(name)):
        return "Who"
    if subj.pos_ == "PROPN" and active and root.lemma_.lower() in _ONLY_HUMAN:
        return "Who"
    if subj.pos_ == "PROPN" and label not in ("ORG", "FAC", "WORK_OF_ART", "PRODUCT", "EVENT", "LAW"):
        pronoun = any(t.lower_ in ("his", "her") for t in root.subtree if t.i > subj.i)
        if pronoun or (active and root.lemma_.lower() in _HUMAN_VERBS) or (
                not active and root.lemma_.lower() in ("bear", "assassinate", "tutor", "crown")):
            return "Who"
    if subj.pos_ == "PROPN" and active and root.lemma_.lower() == "win" and any(
            c.dep_ == "prep" and c.lower_ == "with" for c in root.children):
        return "Who"  # "won the World Cup three times with Brazil": a player
    if subj.pos_ == "NOUN" and wordnet_person(subj.lemma_.lower(), noun=True):
        return "Who"
    return "What"


# Nouns that only measure: a predicate with nothing but these, places and dates does not
# single out its subject ("What opened in 1914?", "What stood for 28 years?").
_MEASURES = {"year", "day", "month", "week", "century", "decade", "hour", "minute", "time",
             "metre", "kilometre", "mile", "foot"}


# A predicate about what is many, often or usually so describes a kind, not one answer
# ("What has many moons?", "Who composed many cantatas?").
_VAGUE = {"many", "several", "some", "few", "often", "frequently", "usually", "sometimes",
          "commonly", "typically", "generally", "various", "numerous"}


# Round 3 (held-back labels, docs/claims.md). Time told relative to another part of the
# sentence: once the subject (and its parenthetical) is cut, "won the Pulitzer Prize the
# following year" has no anchor and many answers.
_RELATIVE_TIME = re.compile(r"\b(?:the (?:following|next|previous|same|preceding) (?:year|month|day|decade|"
                            r"season)|(?:that|this) (?:year|month|day|season)|(?:a|one|two|three|several|"
                            r"\w+) (?:years?|months?|days?|decades?) (?:later|earlier|before|after)(?! \w)|"
                            r"later that|earlier that|the year before|the year after)\b", re.I)
# Verbs many subjects share (many people worked at Bletchley Park; many things were
# standardised in 1921): without a superlative, an ordinal or "only" the question has many
# answers.
_SHARED = {"work", "serve", "study", "live", "teach", "visit", "attend", "join",
           "belong", "collaborate", "contribute", "participate", "compete", "reside", "train",
           "standardise", "standardize", "adopt", "introduce", "ban", "regulate", "approve",
           "recognise", "recognize", "use", "support", "oppose", "employ", "help"}
_SINGLING = {"first", "last", "only", "sole", "inaugural"}


def _singles_out(doc: Any, root: Any, start: int) -> bool:
    """Whether the predicate (from offset ``start``) names one answer: no verb many subjects
    share unless a superlative, an ordinal or "only" restricts it."""
    if root.lemma_.lower() not in _SHARED:
        return True
    return any(t.idx >= start and (t.tag_ in ("JJS", "RBS") or t.lower_ in _SINGLING
                                   or t.ent_type_ == "ORDINAL") for t in doc)


def _informative(doc: Any, start: int) -> bool:
    """Whether the predicate (from offset ``start``) has a noun that is not a place, a date,
    a number or a unit: something that picks out what is asked for; and no vague quantity or
    frequency word."""
    if any(t.idx >= start and t.lower_ in _VAGUE for t in doc):
        return False
    return any(t.idx >= start and t.pos_ in ("NOUN", "PROPN") and t.lemma_.lower() not in _MEASURES
               and t.ent_type_ not in ("GPE", "LOC", "DATE", "TIME", "CARDINAL", "QUANTITY")
               for t in doc)


def _agree(predicate: str, verb: Any, offset: int) -> str:
    """The predicate with its verb, and verbs coordinated with it, in the singular ("are
    played" -> "is played", "live and hunt" -> "lives and hunts")."""
    if verb is None or (verb.tag_ != "VBP" and verb.lower_ not in _SINGULAR):
        return predicate
    for v in sorted([verb, *(c for c in verb.children if c.dep_ == "conj" and c.tag_ == "VBP")],
                    key=lambda t: -t.idx):
        start = v.idx - offset
        if start < 0 or predicate[start:start + len(v.text)] != v.text:
            continue
        form = _SINGULAR.get(v.lower_) or inflect(v.lemma_, "VBZ")
        predicate = predicate[:start] + form + predicate[start + len(v.text):]
    return predicate


def reversal(claim: str, doc: Any, rng: random.Random) -> Outcome:
    """'A is B' -> a question whose answer is A ('What is B?'; paper §2.1, the reversal curse)."""
    subj = subject(doc)
    if subj is None or subj.pos_ in ("PRON", "NUM") or subj.lower_ in ("there", "it"):
        return Dropped("reversal", "no nominal subject")
    if subj.lower_ in ("much", "most", "some", "all", "many", "several", "half", "part", "each"):
        return Dropped("reversal", "the subject is a share ('Much of the Netherlands')")
    root = subj.head
    if root.tag_ not in ("VBD", "VBZ", "VBP", "MD") and not any(
            c.dep_ in ("aux", "auxpass") for c in root.children):
        return Dropped("reversal", "the main verb is not finite (a misparse)")
    if any(c.dep_ == "conj" and any(g.dep_ in ("nsubj", "nsubjpass") for g in c.children)
           for c in root.children):
        return Dropped("reversal", "two clauses with their own subjects")
    names = name_spans(doc)
    if any(c.dep_ == "nummod" and not any(x <= c.idx < y for x, y in names) for c in subj.children):
        return Dropped("reversal", "the subject is a count ('Twelve astronauts')")
    if any(t.dep_ == "mark" and t.i < subj.i and "," not in claim[t.idx:subj.idx] for t in doc):
        return Dropped("reversal", "the subject sits inside a fronted clause (a misparse)")
    right = subj.i  # the subject phrase: its head with what follows it up to a comma
    for c in subj.children:
        if c.i > subj.i and not any(t.text == "," for t in doc[subj.i:c.i]):
            if c.dep_ in ("prep", "compound", "amod", "cc", "conj", "nummod"):
                right = max(right, c.right_edge.i)
            elif c.dep_ == "appos":  # "the film Casablanca"
                right = max(right, c.i)
    a = word_start(claim, subj.left_edge.idx)
    core_end = doc[right].idx + len(doc[right].text)
    for x, y in names:  # a name that runs past the parse ("Martin Luther King Jr.", "the
        # novel To Kill a Mockingbird")
        if x < core_end < y or (x == core_end + 1 and subj.pos_ == "NOUN" and claim[core_end] == " "):
            core_end = y
    if core_end < len(claim) and (claim[core_end].isalnum() or claim[core_end] == "-"):
        core_end = claim.rfind(" ", a, core_end)  # "Pablo Picasso co-founded": cut before "co-"
        if core_end <= a:
            return Dropped("reversal", "the subject ends inside a hyphenated word")
    prefix = claim[:a].strip().rstrip(",")
    if prefix and "," not in claim[:a] and doc[0].pos_ != "ADP":
        a, prefix = 0, ""  # a misparsed title ("Mostly Murder is ..."): it opens the sentence
        # (a fronted phrase without a comma, "In 1928 Alexander Fleming noticed", stays one)
    elif prefix and doc[0].pos_ not in ("ADP", "ADV", "SCONJ") and doc[0].tag_ not in ("VBN", "VBG"):
        return Dropped("reversal", "the subject does not open the sentence")
    core = claim[a:core_end].strip(" ,")
    extra = ""
    rest_start = core_end
    if claim[core_end:].lstrip().startswith(","):  # a parenthetical: ", a novel by ...,"
        close = claim.find(",", claim.find(",", core_end) + 1)
        if close < 0 or close > root.idx:
            return Dropped("reversal", "the subject's parenthetical does not close before the verb")
        extra = claim[claim.find(",", core_end) + 1:close].strip()
        rest_start = close + 1
    while rest_start < len(claim) and claim[rest_start] in " ,":
        rest_start += 1
    predicate = claim[rest_start:].strip().rstrip(".!")
    if not predicate:
        return Dropped("reversal", "nothing after the subject")
    verb_word = word_start(claim, root.idx)  # "co-founded": "co" and "-" belong to the verb
    if any(rest_start <= t.idx < verb_word and not (t.head.i == root.i and t.dep_ in (
            "aux", "auxpass", "neg", "advmod", "preconj")) for t in doc):
        return Dropped("reversal", "more than the verb's auxiliaries between the subject and the "
                                   "verb (a second parenthetical: 'Thriller, released in 1982, is')")
    if _RELATIVE_TIME.search(predicate) or _RELATIVE_TIME.search(prefix):
        return Dropped("reversal", "a time told relative to the part of the sentence the question drops")
    if re.match(r"(?:is|was|are|were|remains|became)\s+(?:\w+\s+)?one of\b", predicate):
        return Dropped("reversal", "'one of' the many: the question has many answers")
    if not _singles_out(doc, root, rest_start):
        return Dropped("reversal", "a verb many subjects share: the question has many answers")
    verb = next((t for t in doc if t.idx >= rest_start and t.pos_ in ("AUX", "VERB")), None)
    predicate = _agree(predicate, verb, rest_start)
    appositive = re.match(r"(?:a|an)\s+(.+)$", extra)
    if appositive and any(t.tag_ in ("JJS", "RBS") for t in doc if core_end <= t.idx < rest_start):
        appositive = None
    if not appositive and not _informative(doc, rest_start):
        return Dropped("reversal", "the predicate names too little to single out the answer")
    # "The Great Gatsby, a novel by ..." -> "Which novel by ..."
    wh = f"Which {appositive.group(1)}" if appositive else wh_word(doc, subj, core)
    question = f"{wh} {predicate}" + (f", {lower_first(prefix, doc)}" if prefix else "") + "?"
    # other names for the answer: names that contain the subject's head word (not "Mary
    # Shelley's" in "Mary Shelley's novel Frankenstein", not "Earth" in "the Earth's water")
    named = [claim[x:y] for x, y in [(e.start_char, e.end_char) for e in doc.ents
                                     if e.label_ not in ("CARDINAL", "ORDINAL", "DATE")] + names
             if a <= x and y <= a + len(core) and x <= subj.idx < y
             and not claim[x:y].endswith(("'s", "’s")) and not claim[y:].startswith(("'s", "’s"))]
    bare = re.sub(r"^(the|a|an|each|every)\s+", "", core, flags=re.I)
    answers = [x for x in dict.fromkeys([core, bare, *named]) if x and len(x) > 1]
    return ClaimAttack("reversal", None, question, "", "", 0, None, as_sentence(claim),
                       tuple(answers), {"subject": core, "wh": wh.split()[0]})
