"""Rule-based claim attacks: offline and deterministic under a seed (paper §2.1 definitions).

Every function takes the claim, its spaCy parse and a seeded ``random.Random`` and returns a
``ClaimAttack`` whose truth label is computed from what was written (a range is true when the
original value lies in it), or a ``Dropped`` with the reason.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Knowledge, Outcome
from rattle.attacks.documents.base import Dropped

# Events with known years, for relative time expressions ("before the First World War") and
# for time distractions ("the same year as ..."): (name, first year, last year).
REFERENCE_EVENTS = (
    ("the death of Charlemagne", 814, 814), ("the First Crusade", 1096, 1099),
    ("the signing of the Magna Carta", 1215, 1215),
    ("the start of the Hundred Years' War", 1337, 1337),
    ("the fall of Constantinople", 1453, 1453),
    ("Columbus's first voyage to the Americas", 1492, 1492),
    ("the death of Queen Elizabeth I", 1603, 1603), ("the death of William Shakespeare", 1616, 1616),
    ("the Great Fire of London", 1666, 1666), ("the French Revolution", 1789, 1799),
    ("the Battle of Trafalgar", 1805, 1805), ("the Battle of Waterloo", 1815, 1815),
    ("the death of Napoleon", 1821, 1821), ("the coronation of Queen Victoria", 1838, 1838),
    ("the American Civil War", 1861, 1865), ("the Wright brothers' first flight", 1903, 1903),
    ("the sinking of the Titanic", 1912, 1912), ("the First World War", 1914, 1918),
    ("the Wall Street Crash", 1929, 1929), ("the Second World War", 1939, 1945),
    ("the founding of the United Nations", 1945, 1945),
    ("the accession of Queen Elizabeth II", 1952, 1952), ("the launch of Sputnik", 1957, 1957),
    ("the first Moon landing", 1969, 1969), ("the Chernobyl disaster", 1986, 1986),
    ("the fall of the Berlin Wall", 1989, 1989), ("the September 11 attacks", 2001, 2001),
    ("Barack Obama's election as President", 2008, 2008), ("the London Olympics", 2012, 2012),
)
_EVENT_STOP = {"the", "first", "death", "start", "fall", "signing", "founding", "launch",
               "battle", "war", "world", "great", "queen", "election", "voyage"}

WORD_NUMBERS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"])}
_NUMBER_WORDS = {v: k for k, v in WORD_NUMBERS.items()}
_QUALIFIED = re.compile(r"(?:over|more than|about|nearly|approximately|around|almost|less than|"
                        r"under|between|estimated at|some|at least|up to|fewer than|and)\s+\$?$",
                        re.I)
_NUMBER = re.compile(r"(?<![\w.,$£€])([$£€]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w]|[.,]\d)")
_WORD_NUMBER = re.compile(r"\b(" + "|".join(sorted(WORD_NUMBERS, key=len, reverse=True)) + r")\b", re.I)
_YEAR = re.compile(r"(?<![\d,.])(1\d{3}|20\d{2})(?![\d,]|\.\d)")
_CENTURY = re.compile(r"\b(\d{1,2})(st|nd|rd|th) century\b")
_PREP = re.compile(r"\b(in|on|during)\s+$")

QUANTIFIERS = {"several": "countless", "many": "millions of", "some": "all", "few": "hundreds of",
               "various": "countless"}
FREQUENCY = {"often": "every single minute", "sometimes": "always", "usually": "without a single "
             "exception", "occasionally": "constantly", "rarely": "never", "frequently":
             "every single second", "commonly": "universally"}
# Fabricated distractions by kind of anchor (false by construction; paper §2.1, Fig. 1 and D.4).
FABRICATED = {
    "people": ("who famously kept a collection of vintage harmonicas",
               "who spent ten years living in Antarctica"),
    "places": ("which lies in the quiet suburbs of Oslo",
               "which is famous for its annual camel race"),
    "proper_nouns": ("which was first written in Esperanto",
                     "which was originally funded by the Vatican"),
    "plural": ("including one that was performed entirely underwater",
               "including one that exclusively featured opera performances"),
    "singular": ("which was later banned in several countries",
                 "which was first unveiled on the Moon"),
}
ENTITY_KINDS = {"PERSON": "people", "GPE": "places", "LOC": "places", "FAC": "places",
                "DATE": "time", "TIME": "time", "ORG": "proper_nouns",
                "WORK_OF_ART": "proper_nouns", "EVENT": "proper_nouns", "PRODUCT": "proper_nouns",
                "LAW": "proper_nouns", "NORP": "proper_nouns"}
_NOT_QUANTITY = ("ORDINAL", "DATE", "PERSON", "ORG", "WORK_OF_ART", "PRODUCT", "FAC", "GPE",
                 "EVENT", "LAW", "NORP", "LOC")
COMPONENTS = ("subject", "object", "subject_appositive", "object_appositive")
ENTITY_TYPES = ("people", "places", "time", "proper_nouns")


# -- shared helpers --------------------------------------------------------------------------
def _lower_first(text: str, doc: Any) -> str:
    first = doc[0] if len(doc) else None
    if (first is not None and first.pos_ != "PROPN" and not first.ent_type_
            and text[:1].isupper() and (text[1:2].islower() or text[1:2] == " ")):
        return text[0].lower() + text[1:]
    return text


def sentence_count(doc: Any) -> int:
    return sum(1 for _ in doc.sents)


def to_question(text: str, parse: Callable[[str], Any]) -> str:
    """The yes/no question form of a declarative sentence: the auxiliary moved to the front,
    or do-support for a main verb; ``Is it true that ...?`` when the subject does not open it."""
    doc = parse(text)
    body = text.strip().rstrip(".!")
    roots = [t for t in doc if t.dep_ == "ROOT"]
    fallback = "Is it true that " + _lower_first(body, doc) + "?"
    if not roots:
        return fallback
    root = roots[0]
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.pos_ == "PRON" or text[: subj.left_edge.idx].strip():
        return fallback
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
    rest = " ".join(_lower_first(rest, doc).split()).replace(" ,", ",")
    return f"{lead} {rest}?"


def _insert_clause(claim: str, end: int, clause: str) -> str:
    """``claim`` with ``, clause`` after offset ``end`` (and a closing comma mid-sentence),
    moved to the end of the word there so a clause never splits one ("Stratford-upon-Avon")."""
    while end < len(claim) and not claim[end].isspace() and claim[end] not in ",.;:!?":
        end += 1
    tail = claim[end:]
    closing = "" if tail[:1] in (".", ",", ";", "!", "?", "") else ","
    return f"{claim[:end]}, {clause}{closing}{tail}"


def _subject(doc: Any) -> Any:
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return None
    return next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)


def _subject_tokens(doc: Any) -> set[int]:
    """Tokens of every subject; a sentence-initial stretch without a comma before the first
    subject counts too (a title the parser split: "Mostly Murder is ...")."""
    out: set[int] = set()
    for t in doc:
        if t.dep_ in ("nsubj", "nsubjpass", "csubj"):
            out.update(x.i for x in t.subtree)
    if out:
        first = min(out)
        if not any(t.text == "," for t in doc[:first]):
            out.update(range(first))
    return out


# Past forms of the irregular verbs whose WordNet antonyms claims use; others inflect by rule.
_IRREGULAR = {"lose": ("lost", "lost"), "win": ("won", "won"), "rise": ("rose", "risen"),
              "fall": ("fell", "fallen"), "begin": ("began", "begun"), "sink": ("sank", "sunk"),
              "find": ("found", "found"), "keep": ("kept", "kept"), "give": ("gave", "given"),
              "take": ("took", "taken"), "leave": ("left", "left"), "come": ("came", "come"),
              "go": ("went", "gone"), "buy": ("bought", "bought"), "sell": ("sold", "sold"),
              "hold": ("held", "held"), "break": ("broke", "broken"), "forget": ("forgot", "forgotten")}


def inflect(lemma: str, tag: str) -> str:
    """``lemma`` in the form of Penn tag ``tag`` (VB, VBD, VBN, VBZ, VBP, VBG)."""
    if tag in ("VB", "VBP"):
        return lemma
    if tag in ("VBD", "VBN"):
        if lemma in _IRREGULAR:
            return _IRREGULAR[lemma][0 if tag == "VBD" else 1]
        if lemma.endswith("e"):
            return lemma + "d"
        if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
            return lemma[:-1] + "ied"
        return lemma + "ed"
    if tag == "VBZ":
        return lemma + ("es" if lemma.endswith(("s", "sh", "ch", "x", "o")) else "s")
    if tag == "VBG":
        return (lemma[:-1] if lemma.endswith("e") and not lemma.endswith("ee") else lemma) + "ing"
    return lemma


# -- time expressions ------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeExpr:
    start: int
    end: int
    year: int
    prep_start: int | None  # where "in"/"on"/"during" before it starts, if any
    century: bool = False

    def text(self, claim: str) -> str:
        return claim[self.start:self.end]


def time_expressions(claim: str, doc: Any) -> list[TimeExpr]:
    dates = [(e.start_char, e.end_char) for e in doc.ents if e.label_ in ("DATE", "TIME")]
    out: list[TimeExpr] = []
    for m in _YEAR.finditer(claim):
        start, end = m.span()
        for a, b in dates:  # widen to the date it belongs to ("9 November 1989", "April 1912")
            if a <= start and end <= b and not claim[a:b].lower().startswith(("the ", "a ")):
                start, end = a, b
        prep = _PREP.search(claim[:start])
        out.append(TimeExpr(start, end, int(m.group(1)), prep.start() if prep else None))
    for m in _CENTURY.finditer(claim):
        out.append(TimeExpr(m.start(), m.end(), int(m.group(1)), None, century=True))
    return out


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _events_near(year: int, claim: str) -> list[tuple[str, int, int]]:
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", claim)}
    return [e for e in REFERENCE_EVENTS if abs(e[1] - year) <= 60 and not (
        {w.lower() for w in re.findall(r"[A-Za-z]+", e[0])} - _EVENT_STOP) & words]


def temporal(claim: str, doc: Any, rng: random.Random, *, kind: str | None = None) -> Outcome:
    """Replace a time expression by a direct, vague or relative one (paper §2.1)."""
    found = time_expressions(claim, doc)
    if not found:
        return Dropped("temporal", "no time expression")
    if kind is not None and kind not in ("direct", "vague", "relative"):
        return Dropped("temporal", f"unknown kind {kind!r}")
    usable = [t for t in found if kind in (None, "direct") or (t.prep_start is not None and not t.century)]
    if not usable:
        return Dropped("temporal", f"no time expression that takes a {kind} replacement")
    t = rng.choice(usable)
    kinds = ["direct"] + (["vague", "relative"] if t.prep_start is not None and not t.century else [])
    k = kind or rng.choice(kinds)
    original = t.text(claim)
    correction = f"the time is {original}"
    if k == "direct":
        if t.century:
            new_n = t.year + rng.choice((-2, -1, 1, 2))
            before, after, start = original, original.replace(_ordinal(t.year), _ordinal(new_n), 1), t.start
        else:
            new_year = t.year + rng.choice((-10, -5, -3, -2, -1, 1, 2, 3, 5, 10))
            before, start = original, t.start
            after = original.replace(str(t.year), str(new_year), 1)
        truth = False
    else:
        assert t.prep_start is not None
        start, before = t.prep_start, claim[t.prep_start:t.end]
        if k == "vague":
            decade = t.year // 10 * 10
            truth = rng.random() < 0.5
            shown = decade if truth else decade + rng.choice((-20, -10, 10, 20))
            after = f"in the {shown}s"
        else:
            events = _events_near(t.year, claim)
            events = [e for e in events if not e[1] <= t.year <= e[2] or e[1] == e[2]]
            if not events:
                return Dropped("temporal", "no reference event near the year")
            name, first, last = rng.choice(events)
            relations = []
            if t.year < first:
                relations = [("before", True), ("after", False)]
            elif t.year > last:
                relations = [("after", True), ("before", False)]
            else:
                relations = [("in the same year as", True), ("before", False), ("after", False)]
            rel, truth = rng.choice(relations)
            after = f"{rel} {name}"
    declarative = claim[:start] + after + claim[start + len(before):]
    return ClaimAttack("temporal", declarative, "", before, after, start, truth,
                       "" if truth else correction, (), {"kind": k, "year": t.year})


# -- numbers -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Number:
    start: int
    end: int
    value: float
    text: str
    currency: str
    word: bool
    commas: bool
    decimals: int


def numbers(claim: str, doc: Any) -> list[Number]:
    """Quantities that can be manipulated: not years, not already qualified ('over 18
    million'), not part of a compound name ('the 100 metres world record')."""
    year_spans = [(t.start, t.end) for t in time_expressions(claim, doc)]
    out = []
    for m in _NUMBER.finditer(claim):
        start, end = m.span()
        digits = m.group(2)
        value = float(digits.replace(",", ""))
        if any(a <= m.start(2) < b for a, b in year_spans) and "," not in digits:
            continue
        out.append(Number(start, end, value, m.group(0), m.group(1), False, "," in digits,
                          len(digits.split(".")[1]) if "." in digits else 0))
    for m in _WORD_NUMBER.finditer(claim):
        out.append(Number(m.start(), m.end(), float(WORD_NUMBERS[m.group(1).lower()]), m.group(0),
                          "", True, False, 0))
    keep = []
    for n in out:
        if _QUALIFIED.search(claim[: n.start]):
            continue
        token = next((t for t in doc if t.idx <= n.start < t.idx + len(t)), None)
        if token is not None and (token.ent_type_ in _NOT_QUANTITY or
                                  (token.head.dep_ == "compound" and token.head.i != token.i)):
            continue
        keep.append(n)
    return sorted(keep, key=lambda n: n.start)


def _nice(x: float, digits: int) -> float:
    if x <= 0:
        return 0.0
    scale = 10 ** (math.floor(math.log10(x)) - digits + 1)
    return float(round(x / scale) * scale)


def _format(n: Number, x: float) -> str:
    if n.word and x == int(x) and int(x) in _NUMBER_WORDS:
        text = _NUMBER_WORDS[int(x)]
        return text.capitalize() if n.text[:1].isupper() else text
    if x == int(x) and n.decimals == 0:
        shown = f"{int(x):,}" if n.commas or x >= 10000 else str(int(x))
    else:
        shown = f"{x:.{max(n.decimals, 1)}f}".rstrip("0").rstrip(".")
    return n.currency + shown


def _holds(comparator: str, value: float, bounds: Sequence[float]) -> bool:
    if comparator == "over":
        return value > bounds[0]
    if comparator == "under":
        return value < bounds[0]
    return bounds[0] <= value <= bounds[1]


def _bounds(comparator: str, v: float, truth: bool) -> list[list[float]]:
    """Candidate bounds, nicest first, meant to make ``comparator`` hold iff ``truth``."""
    factors = {("over", True): (0.7,), ("over", False): (1.3,), ("under", True): (1.3,),
               ("under", False): (0.7,), ("between", True): (0.8, 1.2),
               ("between", False): (1.3, 1.6)}[(comparator, truth)]
    out = []
    for digits in (1, 2, 3):
        out.append([_nice(v * f, digits) for f in factors])
    if v == int(v):
        step = 1 if v < 20 else max(1, int(v * 0.1))
        out.append([v - step] if (comparator, truth) in (("over", True), ("under", False))
                   else [v + step] if comparator != "between" else
                   ([v - step, v + step] if truth else [v + step, v + 2 * step]))
    return out


def numerical(claim: str, doc: Any, rng: random.Random, *, comparator: str | None = None,
              truth: bool | None = None) -> Outcome:
    """Turn a quantity into a range or comparative that keeps or breaks the truth ('$30' ->
    'over $20' stays true, 'over $40' becomes false); a year becomes 'the decade after 2000'
    when the claim has no quantity (paper §2.1)."""
    if comparator is not None and comparator not in ("over", "under", "between"):
        return Dropped("numerical", f"unknown comparator {comparator!r}")
    want = rng.random() < 0.5 if truth is None else truth
    found = numbers(claim, doc)
    if not found:
        years = [t for t in time_expressions(claim, doc) if t.prep_start is not None and not t.century]
        if not years:
            return Dropped("numerical", "no number, quantity or year")
        t = rng.choice(years)
        assert t.prep_start is not None
        decade = (t.year - 1) // 10 * 10
        shown = decade if want else decade + rng.choice((-20, -10, 10, 20))
        before = claim[t.prep_start:t.end]
        after = f"in the decade after {shown}"
        holds = shown < t.year <= shown + 10
        declarative = claim[:t.prep_start] + after + claim[t.end:]
        return ClaimAttack("numerical", declarative, "", before, after, t.prep_start, holds,
                           "" if holds else f"the time is {claim[t.start:t.end]}", (),
                           {"comparator": "decade after", "value": t.year})
    n = rng.choice(found)
    comp = comparator or rng.choice(("over", "under", "between"))
    chosen = None
    for bounds in _bounds(comp, n.value, want):
        if n.value == int(n.value):
            bounds = [float(round(b)) for b in bounds]
        if all(b > 0 for b in bounds) and _holds(comp, n.value, bounds) == want:
            chosen = bounds
            break
    if chosen is None:
        chosen = _bounds(comp, n.value, want)[0]
    holds = _holds(comp, n.value, chosen)
    more = "more than" if n.word else "over"
    less = "fewer than" if n.word else "under"
    if comp == "between":
        after = f"between {_format(n, chosen[0])} and {_format(n, chosen[1])}"
    else:
        after = f"{more if comp == 'over' else less} {_format(n, chosen[0])}"
    declarative = claim[:n.start] + after + claim[n.end:]
    if claim[:1].isupper() and n.start == 0:
        declarative = declarative[0].upper() + declarative[1:]
    return ClaimAttack("numerical", declarative, "", n.text, after, n.start, holds,
                       "" if holds else f"the number is {n.text}", (),
                       {"comparator": comp, "value": n.value, "bounds": chosen})


# -- exaggeration ------------------------------------------------------------------------------
def exaggeration(claim: str, doc: Any, rng: random.Random) -> Outcome:
    """Inflate a quantifier, frequency word or count absurdly; else add 'the only' (paper §2.1)."""
    options: list[tuple[int, str, str, str]] = []
    for t in doc:
        low = t.text.lower()
        if low in QUANTIFIERS:
            options.append((t.idx, t.text, QUANTIFIERS[low], "quantifier"))
        elif low in FREQUENCY:
            options.append((t.idx, t.text, FREQUENCY[low], "frequency"))
    for n in numbers(claim, doc):
        if n.value == int(n.value) and n.value >= 2:
            inflated = (f"{n.text} hundred" if n.word else n.currency + f"{int(n.value) * 1000:,}")
            options.append((n.start, n.text, inflated, "count"))
    if not options:
        for chunk in doc.noun_chunks:
            det = chunk[0]
            if (det.lower_ in ("a", "an") and chunk.root.dep_ in ("attr", "dobj")
                    and chunk.root.head.dep_ == "ROOT" and not det.ent_type_):
                options.append((det.idx, det.text, "the only", "adjective"))
    if not options:
        return Dropped("exaggeration", "no quantifier, frequency word, count or indefinite noun")
    start, before, after, kind = rng.choice(options)
    declarative = claim[:start] + after + claim[start + len(before):]
    return ClaimAttack("exaggeration", declarative, "", before, after, start, False,
                       f"not {after}: {before}", (), {"kind": kind})


# -- semantic replacement ------------------------------------------------------------------------
_LIGHT_VERBS = {"have", "be", "do", "hold", "set", "make", "get", "take"}
_SUBORDINATE = {"relcl", "advcl", "acl", "ccomp", "conj", "xcomp", "pcomp"}


def semantic(claim: str, doc: Any, rng: random.Random, *, relation: str = "any") -> Outcome:
    """Replace an adjective or adverb outside the subject by a WordNet antonym (meaning
    altered: false) or synonym (meaning kept: true), preferring words in subordinate clauses
    (paper §2.1). ``relation="any"`` takes an antonym where one exists, else a synonym."""
    from rattle.nlp.wordnet import antonyms, synonyms_as

    if relation not in ("antonym", "synonym", "any"):
        return Dropped("semantic", f"unknown relation {relation!r}")
    subject = _subject_tokens(doc)
    found: dict[str, list[tuple[bool, Any, list[str]]]] = {"antonym": [], "synonym": []}
    for t in doc:
        if (t.i in subject or t.pos_ not in ("ADJ", "ADV", "VERB") or t.tag_ in ("JJS", "JJR", "RBS", "RBR")
                or t.ent_type_ or not t.is_alpha or len(t.text) < 3):
            continue
        subordinate = any(a.dep_ in _SUBORDINATE for a in t.ancestors)
        for rel, lookup in (("antonym", antonyms), ("synonym", synonyms_as)):
            if t.pos_ == "VERB" and (rel == "synonym" or t.lemma_ in _LIGHT_VERBS):
                continue  # verb synonyms from WordNet are rarely fluent
            words = [w for w in lookup(t.lemma_, t.pos_) if " " not in w and w.isalpha()]
            if t.pos_ == "VERB":
                words = [inflect(w.lower(), t.tag_) for w in words]
            if words:
                found[rel].append((subordinate, t, words))
    order = [relation] if relation != "any" else ["antonym", "synonym"]
    chosen_rel = next((r for r in order if found[r]), None)
    if chosen_rel is None:
        return Dropped("semantic", f"no adjective or adverb with a WordNet {relation if relation != 'any' else 'antonym or synonym'} outside the subject")
    rel = chosen_rel
    preferred = [f for f in found[rel] if f[0]] or found[rel]
    _, token, words = rng.choice(preferred)
    new = rng.choice(words)
    if token.text[:1].isupper():
        new = new.capitalize()
    declarative = claim[:token.idx] + new + claim[token.idx + len(token.text):]
    truth = rel == "synonym"
    return ClaimAttack("semantic", declarative, "", token.text, new, token.idx, truth,
                       "" if truth else f"it is {token.text}, not {new}", (),
                       {"relation": rel, "pos": token.pos_})


# -- facts reversal ------------------------------------------------------------------------------
def reversal(claim: str, doc: Any, rng: random.Random) -> Outcome:
    """'A is B' -> a question whose answer is A ('What is B?'; paper §2.1, the reversal curse)."""
    subj = _subject(doc)
    if subj is None or subj.pos_ == "PRON":
        return Dropped("reversal", "no nominal subject")
    a, b = subj.left_edge.idx, subj.right_edge.idx + len(subj.right_edge.text)
    if "," not in claim[:a]:
        a = 0  # a misparsed title ("Mostly Murder"): the subject starts the sentence
    subject_text = claim[a:b].strip(" ,")
    predicate = claim[b:].strip().rstrip(".!").lstrip(", ")
    prefix = claim[:a].strip().rstrip(",")
    if not predicate:
        return Dropped("reversal", "nothing after the subject")
    people = any(e.label_ == "PERSON" and e.start <= subj.i < e.end for e in doc.ents)
    wh = "Who" if people else "What"
    question = f"{wh} {predicate}" + (f", {_lower_first(prefix, doc)}" if prefix else "") + "?"
    answers = [claim[e.start_char:e.end_char] for e in doc.ents
               if a <= e.start_char and e.end_char <= b and e.start <= subj.i < e.end]
    core = re.sub(r"^(the|a|an)\s+", "", subject_text, flags=re.I)
    answers = list(dict.fromkeys([*answers, core.split(",")[0].strip()]))
    return ClaimAttack("reversal", None, question, "", "", 0, None, subject_text,
                       tuple(x for x in answers if x), {"subject": subject_text})


# -- distraction injection and multihop extension -------------------------------------------------
@dataclass(frozen=True)
class Anchor:
    start: int
    end: int
    text: str
    kind: str  # people / places / time / proper_nouns / plural / singular
    component: str  # subject / object / subject_appositive / object_appositive / other


def _kind_of(span: Any) -> str:
    """The kind of a noun phrase: the entity type of its head word, else plural/singular."""
    root = span.root
    if root.ent_type_:
        return ENTITY_KINDS.get(root.ent_type_, "proper_nouns")
    return "plural" if root.tag_ in ("NNS", "NNPS") else "singular"


def anchors(claim: str, doc: Any) -> list[Anchor]:
    """Candidate attachment points: the subject, the object and their appositives, and every
    named entity (by type)."""
    out: list[Anchor] = []
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    subj = _subject(doc)

    def phrase_end(head: Any) -> int:
        """Index of the last token of ``head``'s phrase: prepositional and coordinated parts
        included ("The Count of Monte Cristo", "Pride and Prejudice"), up to a comma."""
        right = max((c.right_edge.i for c in head.children
                     if c.dep_ in ("prep", "cc", "conj") and c.i > head.i), default=head.i)
        return int(next((t.i - 1 for t in doc[head.i + 1: right + 1] if t.is_punct), right))

    def add(first: int, last: int, component: str) -> None:
        span = doc[first: last + 1]
        out.append(Anchor(span.start_char, span.end_char, span.text, _kind_of(span), component))

    def nominal(head: Any, component: str) -> None:
        left = min((c.left_edge.i for c in head.children if c.dep_ in ("det", "compound", "amod",
                                                                       "poss", "nummod")),
                   default=head.i)
        add(left, phrase_end(head), component)
        appos = next((c for c in head.children if c.dep_ == "appos"), None)
        if appos is not None:
            add(appos.left_edge.i, phrase_end(appos), component + "_appositive")
        elif left < head.i and head.pos_ == "PROPN":
            # "French author Alexandre Dumas", "American singer-songwriter Taylor Swift": a
            # common-noun phrase before the name stands in apposition to it.
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
        kind = ENTITY_KINDS.get(e.label_)
        if kind:
            out.append(Anchor(e.start_char, e.end_char, e.text, kind, "entity"))
    return out


def _fact_for(anchor: Anchor, knowledge: Knowledge) -> Any:
    for offset, name in knowledge.mentions(anchor.text):
        if offset + len(name) == len(anchor.text):
            return knowledge.by_entity[name][0]
    return None


def _time_clause(year: int, rng: random.Random, true: bool) -> tuple[str, bool] | None:
    same = [e for e in REFERENCE_EVENTS if e[1] == e[2] == year]
    other = [e for e in REFERENCE_EVENTS if not e[1] <= year <= e[2] and abs(e[1] - year) <= 80]
    if true and same:
        return f"the same year as {rng.choice(same)[0]}", True
    if other:
        return f"the same year as {rng.choice(other)[0]}", False
    return None


def distraction(claim: str, doc: Any, rng: random.Random, knowledge: Knowledge, *,
                component: str | None = None, fabricated: bool | None = None) -> Outcome:
    """Add one clause about a noun entity of the sentence: a related fact from the knowledge
    corpus (true, or its false version) or a fabricated one (paper §2.1). ``component`` picks
    the attachment: subject, object, subject_appositive, object_appositive, or an entity type
    (people, places, time, proper_nouns) for the Figure 5 analysis."""
    allowed = COMPONENTS + ENTITY_TYPES
    if component is not None and component not in allowed:
        return Dropped("distraction", f"unknown component {component!r}")
    found = anchors(claim, doc)
    if component in COMPONENTS:
        found = [a for a in found if a.component == component]
    elif component in ENTITY_TYPES:
        found = [a for a in found if a.component == "entity" and a.kind == component]
    if not found:
        return Dropped("distraction", f"no {component or 'anchor'} to attach to")
    want_fake = rng.random() < 0.5 if fabricated is None else fabricated
    if component is None:
        known = [a for a in found if _fact_for(a, knowledge) is not None]
        found = known or found
    anchor = rng.choice(found)
    fact = _fact_for(anchor, knowledge)
    if anchor.kind == "time":
        year = _YEAR.search(anchor.text)
        made = _time_clause(int(year.group(1)), rng, not want_fake) if year else None
        if made is None:
            return Dropped("distraction", "no reference event to relate the time to")
        clause, truth = made
    elif fact is not None:
        clause, truth = (fact.false, False) if want_fake else (fact.true, True)
    else:
        clause, truth = rng.choice(FABRICATED[anchor.kind]), False
    declarative = _insert_clause(claim, anchor.end, clause)
    return ClaimAttack("distraction", declarative, "", "", clause, anchor.end, truth,
                       "" if truth else f"not {clause}" + (f" ({fact.true})" if fact and not truth else ""),
                       (), {"component": anchor.component, "entity_type": anchor.kind,
                            "anchor": anchor.text, "fabricated": not truth,
                            "source": "knowledge" if fact is not None and anchor.kind != "time"
                            else "template"})


def multihop(claim: str, doc: Any, rng: random.Random, knowledge: Knowledge, *, hops: int = 3,
             errors: str = "last", exact: bool = False) -> Outcome:
    """Extend the sentence hop by hop along related facts from the knowledge corpus, with errors
    in chosen hops: ``last`` (default), ``first`` with more true hops after it (MHOE, §3.4),
    ``each`` hop wrong (OHOE), ``none``, or hop numbers such as ``1,3``."""
    if hops < 1:
        return Dropped("multihop", "hops must be at least 1")
    mentions = knowledge.mentions(claim)
    chains = [(offset, name, knowledge.chain(name, hops)) for offset, name in mentions]
    longest = max((len(c[2]) for c in chains), default=0)
    # exact: only chains of ``hops`` (the hop curves); else the longest available, up to hops
    chains = [c for c in chains if len(c[2]) == (hops if exact else longest) and c[2]]
    if not chains:
        return Dropped("multihop", f"no knowledge chain of {hops} hops from an entity of the claim"
                       if exact else "no entity of the claim in the knowledge corpus")
    offset, name, facts = rng.choice(chains)
    hops = len(facts)
    if errors == "last":
        wrong = {hops}
    elif errors == "first":
        wrong = {1}
    elif errors == "each":
        wrong = set(range(1, hops + 1))
    elif errors == "none":
        wrong = set()
    else:
        try:
            wrong = {int(x) for x in errors.split(",") if x.strip()}
        except ValueError:
            return Dropped("multihop", f"bad errors {errors!r}")
        if not wrong <= set(range(1, hops + 1)):
            return Dropped("multihop", f"error hops {sorted(wrong)} outside 1..{hops}")
    clauses = [f.false if i in wrong else f.true for i, f in enumerate(facts, 1)]
    added = ", ".join(clauses)
    end = offset + len(name)
    declarative = _insert_clause(claim, end, added)
    truth = not wrong
    correction = "; ".join(f"{facts[i - 1].entity}: {facts[i - 1].true}" for i in sorted(wrong))
    setting = "OHOE" if errors == "each" else "MHOE" if errors == "first" else errors
    return ClaimAttack("multihop", declarative, "", "", added, end, truth, correction, (),
                       {"hops": hops, "error_hops": sorted(wrong), "setting": setting,
                        "anchor": name, "chain": [f.entity for f in facts]})


# -- cloze test ----------------------------------------------------------------------------------------
def cloze(claim: str, doc: Any, rng: random.Random) -> Outcome:
    """Blank the first time or number of the sentence and ask for it (paper Table 3, D.2)."""
    options: list[tuple[int, int, str, tuple[str, ...]]] = []
    for t in time_expressions(claim, doc):
        if not t.century:
            text = claim[t.start:t.end]
            blank = "<which year>" if text == str(t.year) else "<which date>"
            options.append((t.start, t.end, blank, tuple(dict.fromkeys((text, str(t.year))))))
    for n in numbers(claim, doc):
        alias = [n.text, n.text.lstrip("$£€")]
        if n.word:
            alias.append(str(int(n.value)))
        elif n.value == int(n.value) and int(n.value) in _NUMBER_WORDS:
            alias.append(_NUMBER_WORDS[int(n.value)])
        if n.commas:
            alias.append(n.text.replace(",", "").lstrip("$£€"))
        options.append((n.start, n.end, "<how many>" if n.decimals == 0 else "<what number>",
                        tuple(dict.fromkeys(alias))))
    if not options:
        return Dropped("cloze", "no time or number to blank")
    start, end, blank, answers = sorted(options)[0]
    sentence = claim[:start] + blank + claim[end:]
    question = f'What should replace {blank} in this sentence: "{sentence}"?'
    return ClaimAttack("cloze", None, question, claim[start:end], blank, start, None,
                       claim[start:end], answers, {"blank": blank, "sentence": sentence})
