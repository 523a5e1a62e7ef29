"""Facts exaggeration (paper §2.1): quantifiers and frequency words become excessive ("many"
-> "countless", "often" -> "always"), a rank becomes a first ("second-best-selling" ->
"best-selling", "one of the saltiest bodies" -> "the saltiest body"), a first becomes an only
("the first woman to ..." -> "the only woman to ..."), and where the sentence has none of
these an indefinite description becomes "the only" one ("a novel by Jane Austen" -> "the only
novel by Jane Austen"). Numbers are the secondary mode: multiplied by 1.5 or 2, never inside
a name (issue 15: "Apollo 11,000" is what a reader would not believe).
"""

from __future__ import annotations

import random
import re
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.claims.rules.common import (as_sentence, edit_problem, match_case,
                                                replace_span, subject)
from rattle.attacks.claims.rules.numerical import fixed, format_number, nice, numbers
from rattle.attacks.documents.base import Dropped

# Exaggerated forms of quantifiers and frequency words (paper §2.1: "exaggerating the size of
# quantifiers or the intensity of frequency words").
QUANTIFIERS = {"several": "countless", "many": "countless", "various": "countless",
               "numerous": "countless", "some": "countless"}
FREQUENCY = {"often": "always", "usually": "always", "sometimes": "always", "generally": "always",
             "typically": "always", "normally": "always", "occasionally": "constantly",
             "frequently": "constantly", "rarely": "never", "seldom": "never",
             "commonly": "universally", "traditionally": "universally", "widely": "universally",
             "mostly": "entirely", "largely": "entirely", "partly": "entirely",
             "partially": "entirely"}
# Factors of the secondary, numeric mode: large enough to be false, small enough to be believed
# (issue 15 asks for 1.5 to 3; above 2 the labelled variants were rarely believable).
FACTORS = (1.5, 2.0)
# A number after these words may be exaggerated too ("over 18 million" -> "over 40 million");
# not after "under", "fewer than", "up to": a larger bound would keep the claim true.
_UPPER_QUALIFIERS = re.compile(r"(?:over|more than|about|nearly|approximately|around|almost|"
                               r"roughly|some|at least|estimated at)\s+\$?$", re.I)
_SCOPE = re.compile(r"\bin (?:Africa|Asia|Europe|North America|South America|Oceania|Australia|"
                    r"the United States|the United Kingdom|England|France|Germany|Italy|Spain|"
                    r"China|India|Japan|Russia|Canada|Britain)\b")
# "much of the city" -> "all of the city" ("most of the Earth's fresh water" -> "all of" read
# as absurd in the development labels).
_SHARE = re.compile(r"\b[Mm]uch of\b")
# Verbs that name or describe: "always called X" contradicts the name the sentence uses.
_NAMING = {"call", "name", "nickname", "know", "describe", "regard", "consider", "credit", "dub",
           "refer", "label", "term"}
_RANKED = re.compile(r"\b(?:second|third|fourth|fifth)-((?:best|worst|most|least|[a-z]+est)\b(?:-[a-z]+)?)")

Option = tuple[int, str, str, str]  # start, before, after, kind


# Record holders every reader knows: the highest mountain on Earth, the largest ocean, planet,
# country. Exaggerating a sentence about one ("K2 is the highest mountain on Earth", "Everest
# is 13,000 metres tall") gives a claim no reader believes (development labels).
_RECORD_KINDS = {"mountain", "ocean", "river", "lake", "desert", "country", "continent", "planet",
                 "island", "sea", "waterfall", "volcano", "animal", "bird"}
_GLOBAL = re.compile(r"\b(?:in the world|on Earth|of the world|in the Solar System)\b")


def world_record(claim: str, doc: Any) -> bool:
    """Whether the sentence states a world record of a kind every reader knows."""
    if not _GLOBAL.search(claim):
        return False
    return any(t.tag_ in ("JJS", "RBS") and (t.head.lemma_.lower() in _RECORD_KINDS or any(
        c.lemma_.lower() in _RECORD_KINDS for c in t.head.children)) for t in doc)


def _lexical(claim: str, doc: Any) -> list[Option]:
    options: list[Option] = []
    for t in doc:
        low = t.lower_
        if low in QUANTIFIERS and t.dep_ in ("amod", "det", "nummod") and t.head.tag_ == "NNS":
            options.append((t.idx, t.text, match_case(QUANTIFIERS[low], t.text), "quantifier"))
        elif low in FREQUENCY and t.pos_ == "ADV":
            word = FREQUENCY[low]
            if t.head.lemma_.lower() in _NAMING and word in ("always", "constantly"):
                word = "universally"  # "Chicago is always called the Windy City" names it twice
            options.append((t.idx, t.text, match_case(word, t.text), "frequency"))
        elif low == "first" and t.i > 0 and t.i + 1 < len(doc):
            det, noun = doc[t.i - 1], doc[t.i + 1]
            # only "the first <noun> to <do something>": a record a reader can check. Not "its
            # first flight" (a Boeing 747 that flew once) or "the first dynasty of Imperial
            # China" (the only one): first of a series every reader knows goes on (round 3).
            restricted = any(c.dep_ in ("acl", "relcl") and any(a.lower_ == "to" for a in c.children)
                             for c in noun.children) or (
                noun.i + 1 < len(doc) and doc[noun.i + 1].lower_ == "to" and doc[noun.i + 1].dep_ == "aux")
            timed = any(e.label_ in ("DATE", "TIME") and e.start > noun.i for e in doc.ents)
            if noun.tag_ == "NN" and not timed and det.lower_ == "the" and restricted:
                # not with a date after it: "the only woman to win a Nobel Prize in 1903" is
                # also read as "the only one that year"
                options.append((t.idx, t.text, "only", "only"))
        elif low == "one" and t.i + 3 < len(doc) and [x.lower_ for x in doc[t.i + 1:t.i + 3]] == ["of", "the"]:
            made = _one_of_the(doc, t.i)
            if made:
                options.append(made)
    for m in _RANKED.finditer(claim):
        if not world_record(claim, doc):
            options.append((m.start(), m.group(0), m.group(1), "rank"))
    for m in _SHARE.finditer(claim):
        options.append((m.start(), m.group(0), match_case("all of", m.group(0)), "quantifier"))
    if "world" not in claim.lower() and any(t.tag_ == "JJS" for t in doc):
        for m in _SCOPE.finditer(claim):  # the highest mountain in Africa -> in the world
            options.append((m.start(), m.group(0), "in the world", "scope"))
    if not options:
        options = _the_only(doc)
    return [o for o in options if not edit_problem(claim, doc, o[0], o[0] + len(o[1]))]


def _one_of_the(doc: Any, i: int) -> Option | None:
    """'one of the saltiest bodies of water' -> 'the saltiest body of water'."""
    j = i + 3
    if doc[j].tag_ == "JJS" or (doc[j].lower_ == "most" and j + 1 < len(doc) and doc[j + 1].pos_ == "ADJ"):
        j += 1 if doc[j].tag_ == "JJS" else 2
        while j < len(doc) and doc[j].tag_ in ("JJ", "NN", "NNP") and doc[j].dep_ in ("amod", "compound"):
            j += 1
        if j < len(doc) and doc[j].tag_ == "NNS" and doc[j].lemma_ != doc[j].lower_:
            start, end = doc[i].idx, doc[j].idx + len(doc[j].text)
            text = doc.text[start:end]
            head = doc.text[doc[i + 2].idx:doc[j].idx]
            return start, text, head + doc[j].lemma_, "rank"
    return None


def _the_only(doc: Any) -> list[Option]:
    """'is a novel by Jane Austen' -> 'is the only novel by Jane Austen': an indefinite
    predicate noun restricted by a prepositional phrase that names something (without one,
    'the only multi-purpose indoor arena' is not believable)."""
    out: list[Option] = []
    for chunk in doc.noun_chunks:
        det, root = chunk[0], chunk.root
        if det.lower_ not in ("a", "an") or root.dep_ != "attr" or root.head.dep_ != "ROOT":
            continue
        if root.tag_ != "NN":
            continue
        named = any(c.dep_ == "prep" and c.lower_ in ("by", "in", "on", "of", "from", "at")
                    and any(g.pos_ == "PROPN" for g in c.subtree) for c in root.children)
        if named:
            out.append((det.idx, det.text, "the only", "only"))
    return out


def _inflated(claim: str, doc: Any, rng: random.Random) -> list[Option]:
    """Numbers times 1.5 or 2, where the sentence is about a named thing: counts of common
    things ("a chessboard has 64 squares", "the human heart has four chambers") are known to
    every reader, and a number with its items listed after it ("two moons, Phobos and
    Deimos") would contradict the list."""
    subj = subject(doc)
    if subj is None or subj.pos_ != "PROPN" or world_record(claim, doc):
        return []
    out = []
    for n in numbers(claim, doc, qualified=_UPPER_QUALIFIERS):
        if n.value < 2 or (n.value != int(n.value) and n.decimals == 0):
            continue
        if fixed(claim, doc, n, scope=False):
            continue  # a listed count, a race's distance, a number a name holds (round 3)
        factor = rng.choice(FACTORS)
        value = nice(n.value * factor, 2)
        if n.word and value > 20 and value not in (30, 40, 50, 60, 70, 80, 90):
            value = nice(value, 1)
        if n.decimals == 0:
            value = float(round(value))
        if value <= n.value:
            continue
        out.append((n.start, n.text, format_number(n, value), "number"))
    return out


def exaggeration(claim: str, doc: Any, rng: random.Random) -> Outcome:
    """Exaggerate a quantifier, frequency word, rank or first; else a number (paper §2.1)."""
    options = _lexical(claim, doc) or _inflated(claim, doc, rng)
    if not options:
        return Dropped("exaggeration", "no quantifier, frequency word, rank, first or count")
    start, before, after, kind = rng.choice(sorted(options))
    after = match_case(after, before) if start == 0 else after
    return ClaimAttack("exaggeration", replace_span(claim, start, before, after), "", before,
                       after, start, False, as_sentence(claim), (), {"kind": kind})
