"""Numerical manipulation (paper §2.1): a quantity becomes a range or a comparative that keeps
or breaks the claim ('$30' -> 'over $20' stays true, 'over $40' becomes false); a year becomes
'before 2010' or 'after 2010' when the claim has no quantity.

Also the quantities every attack that edits numbers shares (``numbers``, ``format_number``):
never a year, a number already qualified ('over 18 million'), a number inside a name
('Apollo 11', 'Nineteen Eighty-Four') or part of a compound measure ('2 hours, 1 minute').
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.claims.rules.common import (as_sentence, edit_problem, match_case,
                                                name_spans, replace_span)
from rattle.attacks.claims.rules.temporal import LATEST_YEAR, MONTHS, time_expressions
from rattle.attacks.documents.base import Dropped

WORD_NUMBERS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
     "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
     "nineteen", "twenty"])}
WORD_NUMBERS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
                     "eighty": 80, "ninety": 90})
NUMBER_WORDS = {v: k for k, v in WORD_NUMBERS.items()}
# Quantity labels: the entities a numerical edit targets.
QUANTITY_LABELS = ("CARDINAL", "QUANTITY", "MONEY", "PERCENT")
_QUALIFIED = re.compile(r"(?:over|more than|about|nearly|approximately|around|almost|less than|"
                        r"under|between|estimated at|some|at least|up to|fewer than|roughly|and|"
                        r"to|top)\s+\$?$", re.I)
_NUMBER = re.compile(r"(?<![\w.,$£€-])([$£€]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w-]|[.,]\d)")
# "one" and "zero" are left alone: "one of the ...", "more than zero" are not quantities to play with.
_WORD_NUMBER = re.compile(r"(?<![\w-])(" + "|".join(sorted(
    (w for w in WORD_NUMBERS if w not in ("one", "zero")), key=len, reverse=True))
    + r")(?![\w-])", re.I)
_YEARLIKE = re.compile(r"\b(?:in|since|until|from|by|around|circa|before|after)\s+$", re.I)
_ERA = re.compile(r"^\s+(?:BC|BCE|AD|CE)\b")
_UNITS = {"hour", "hours", "minute", "minutes", "second", "seconds", "foot", "feet", "inch",
          "inches", "metre", "metres", "meter", "meters", "centimetres", "kilogram", "grams"}
_CATALOGUE = re.compile(r"\b(?:No|Nos|Op|Vol|BWV|K|Number|Part|Book)\.?\s+$")
# Round 3 (held-back labels, docs/claims.md): where the rest of the sentence fixes a number, a
# range, a comparative or a larger count contradicts it or reads as nonsense.
# A definite article or possessive before the number: "the six Brandenburg Concertos" -> "the
# between eight and ten Brandenburg Concertos" is not English.
_DEFINITE = {"the", "its", "his", "her", "their", "these", "those", "this", "that", "our", "my"}
# A count of periodic things is bounded by its period: "twelve monthly instalments during
# 1866" cannot be "more than twenty".
_PERIODIC = {"monthly", "weekly", "daily", "annual", "yearly", "hourly"}
# Prepositions of a condition on what the subject measures: "the speed of sound in dry air
# at 20 degrees Celsius is about 343 metres per second" -> "at under 10 degrees" changes what
# is measured, not the measurement.
_CONDITIONS = {"at", "under", "above", "below"}
# An adjective that fixes the number it describes: "the first perfect score of 10".
_FIXING = {"perfect"}
# Words of a uniqueness claim: a number inside its restriction ("the only person to have won
# Nobel Prizes in two fields") cannot become a range: "in fewer than three fields" also
# describes every other laureate, so the claim's truth is not what the bound says.
_UNIQUE = {"only", "first", "last", "sole"}
# The items listed after the count ("two new elements, polonium and radium"), or the names
# joined by "and" before it ("Sydney and Melbourne, the two largest cities").
_LIST_AFTER = re.compile(r"^\s+(?:[\w'’-]+\s+){0,3}[\w'’-]+,\s+[\w'’ -]+(?:,\s+[\w'’ -]+)*,?\s+"
                         r"(?:and|or)\s+[\w'’-]+(?:\s+[\w'’-]+)?\s*(?:[,.;]|$)")
_LIST_BEFORE = re.compile(r"\b(?:and|or)\b[^,;.]*,\s+(?:the\s+|its\s+|their\s+|all\s+)?$")


@dataclass(frozen=True)
class Number:
    """A quantity in a claim and how it is written."""

    start: int
    end: int
    value: float
    text: str
    currency: str
    word: bool
    commas: bool
    decimals: int



def _token_at(doc: Any, offset: int) -> Any:
    """The token of ``doc`` that covers character ``offset`` (None between tokens)."""
    return next((t for t in doc if t.idx <= offset < t.idx + len(t)), None)

def _compound_measure(doc: Any, claim: str, start: int, end: int) -> bool:
    """'2 hours, 1 minute and 9 seconds': a number next to another number-and-unit."""
    after = claim[end:end + 40]
    before = claim[max(0, start - 40):start]
    unit_then_number = re.match(r"\s+(\w+)(?:,| and)\s+\d", after)
    number_unit_before = re.search(r"\d+\s+(\w+)(?:,| and)\s+$", before)
    return bool((unit_then_number and unit_then_number.group(1).lower() in _UNITS)
                or (number_unit_before and number_unit_before.group(1).lower() in _UNITS))


def numbers(claim: str, doc: Any, *, qualified: re.Pattern[str] | None = None) -> list[Number]:
    """Quantities that can be manipulated (see the module docstring), in text order; a number
    after a qualifier ("over 18 million") only where ``qualified`` matches the words before it."""
    time_spans = [(t.start, t.end) for t in time_expressions(claim, doc)]
    out = []
    for m in _NUMBER.finditer(claim):
        digits = m.group(2)
        if any(a <= m.start(2) < b for a, b in time_spans) and "," not in digits:
            continue
        out.append(Number(m.start(), m.end(), float(digits.replace(",", "")), m.group(0),
                          m.group(1), False, "," in digits,
                          len(digits.split(".")[1]) if "." in digits else 0))
    for m in _WORD_NUMBER.finditer(claim):
        out.append(Number(m.start(), m.end(), float(WORD_NUMBERS[m.group(1).lower()]), m.group(0),
                          "", True, False, 0))
    keep = []
    for n in out:
        if _QUALIFIED.search(claim[: n.start]) and not (qualified and qualified.search(claim[:n.start])):
            continue
        if _ERA.match(claim[n.end:]):
            continue
        if not n.word and _YEARLIKE.search(claim[:n.start]) and not re.match(r"\s*[a-z]", claim[n.end:]):
            continue  # "completed in 537": a year, not a quantity
        if edit_problem(claim, doc, n.start, n.end, targets=QUANTITY_LABELS):
            continue
        if _compound_measure(doc, claim, n.start, n.end):
            continue
        if re.match(r"\s+(?:\w+\s+){0,2}\w+,\s+[A-Z]", claim[n.end:]):
            continue  # "two small moons, Phobos and Deimos": the list fixes the count
        if _CATALOGUE.search(claim[:n.start]):
            continue  # "Symphony No. 5", "Op. 27": a catalogue number names a work
        if re.match(rf"\s+(?:of\s+)?(?:{MONTHS})\b", claim[n.end:]) or re.search(
                rf"\b(?:{MONTHS})\s+$", claim[:n.start]):
            continue  # a day of a month ("29 February"), not a quantity
        token = _token_at(doc, n.start)
        if token is not None and (token.ent_type_ in ("ORDINAL", "DATE", "TIME")
                                  or (token.head.dep_ == "compound" and token.head.i != token.i)):
            continue
        keep.append(n)
    return sorted(keep, key=lambda n: n.start)


def fixed(claim: str, doc: Any, n: Number, *, scope: bool = True) -> str | None:
    """Why the sentence fixes ``n`` so that no range, comparative or larger count of it can
    be written (see the constants above), or None. ``scope``: also a number inside the
    restriction of a uniqueness claim (numerical rewrites; a larger count there stays false)."""
    before = claim[:n.start].split()
    if before and before[-1].lower() in _DEFINITE:
        return "a number after a definite article"
    words = claim[n.end:].split()
    if words and words[0].strip(",.;").lower() in _PERIODIC:
        return "a count of periodic things"
    if _event_distance(doc, n):
        return "a distance that names an event"
    if _LIST_AFTER.match(claim[n.end:]) or _LIST_BEFORE.search(claim[:n.start]):
        return "the count of a list the sentence gives"
    names = " ".join(claim[a:b] for a, b in name_spans(doc)).lower()
    value = int(n.value) if n.value == int(n.value) else None
    if value is not None and (re.search(rf"(?<![\d.]){value}(?![\d.])", names)
                              or (value in NUMBER_WORDS and re.search(rf"\b{NUMBER_WORDS[value]}\b", names))):
        return "a number a name of the sentence also holds"  # "The Four Seasons ... four concertos"
    token = _token_at(doc, n.start)
    if token is None:
        return None
    for a in list(token.ancestors)[:4]:
        if any(c.dep_ == "amod" and c.lower_ in _FIXING for c in a.children):
            return "a number an adjective fixes"
    if any(a.dep_ == "prep" and a.lower_ in _CONDITIONS and a.head.dep_ in ("nsubj", "nsubjpass")
           for a in token.ancestors):
        return "a condition of the subject"  # "the speed of sound at 20 degrees Celsius is ..."
    if scope:
        for a in token.ancestors:
            head = a.head
            if a.dep_ in ("acl", "relcl") and (head.tag_ == "JJS" or any(
                    c.lower_ in _UNIQUE or c.tag_ == "JJS" for c in head.children)):
                return "a number inside a uniqueness claim"
    return None


def _event_distance(doc: Any, n: Number) -> bool:
    """'the men's 100 metres world record', 'the 400 metres hurdles': a number and unit that
    name a race, not a length (after a possessive, or before another noun)."""
    token = _token_at(doc, n.start)
    if token is None or token.i + 1 >= len(doc) or doc[token.i + 1].lower_ not in _UNITS | _DISTANCES:
        return False
    unit = doc[token.i + 1]
    after = doc[unit.i + 1] if unit.i + 1 < len(doc) else None
    possessive = token.i > 0 and doc[token.i - 1].tag_ == "POS"
    return possessive or (after is not None and after.tag_ in ("NN", "NNS") and after.lower_ != "of")


_DISTANCES = {"kilometres", "kilometers", "km", "miles", "yards", "m", "metre", "metres"}


# Verbs of a state: "in 2008 it was the busiest arena" -> "after 2000 it was" reads as "from
# 2000 on", which the sentence does not say; an event ("founded", "published") has one date.
_STATES = {"be", "have", "remain", "stay", "hold", "stand", "live", "last", "contain", "serve"}


def _of_a_state(doc: Any, prep_start: int) -> bool:
    prep = next((t for t in doc if t.idx == prep_start), None)
    if prep is None or prep.head.lemma_.lower() not in _STATES:
        return False
    # "was held in 1903" (an event was organised) is no state; "held the record in 1990" is
    return not (prep.head.lemma_.lower() == "hold" and any(c.dep_ == "auxpass" for c in prep.head.children))


def nice(x: float, digits: int) -> float:
    """``x`` rounded to ``digits`` significant digits."""
    if x <= 0:
        return 0.0
    scale = 10 ** (math.floor(math.log10(x)) - digits + 1)
    return float(round(x / scale) * scale)


def format_number(n: Number, x: float) -> str:
    """``x`` written the way ``n`` was (a word, commas, decimals, currency)."""
    if n.word and x == int(x) and int(x) in NUMBER_WORDS:
        return NUMBER_WORDS[int(x)]
    if x == int(x) and n.decimals == 0:
        shown = f"{int(x):,}" if n.commas or x >= 1000 else str(int(x))
    else:
        shown = f"{x:.{max(n.decimals, 1)}f}".rstrip("0").rstrip(".")
    return n.currency + shown


def _holds(comparator: str, value: float, bounds: Sequence[float]) -> bool:
    if comparator == "over":
        return value > bounds[0]
    if comparator == "under":
        return value < bounds[0]
    return bounds[0] <= value <= bounds[1]


# A bound at least this far (relative) from the value: "over 1,000 megawatts" for 1,000 is false
# only to a pedant, and a reader takes "about 5,500 degrees" to be "over 5,500" (round 3).
MARGIN = 0.1


def _bounds(comparator: str, v: float, truth: bool) -> list[list[float]]:
    """Candidate bounds, nicest first, meant to make ``comparator`` hold iff ``truth``."""
    factors = {("over", True): (0.7,), ("over", False): (1.3,), ("under", True): (1.3,),
               ("under", False): (0.7,), ("between", True): (0.8, 1.2),
               ("between", False): (1.3, 1.6)}[(comparator, truth)]
    out = [[nice(v * f, digits) for f in factors] for digits in (1, 2, 3)]
    if v == int(v):
        step = 1 if v < 20 else max(1, int(v * 0.1))
        out.append([v - step] if (comparator, truth) in (("over", True), ("under", False))
                   else [v + step] if comparator != "between" else
                   ([v - step, v + step] if truth else [v + step, v + 2 * step]))
    return out


def numerical(claim: str, doc: Any, rng: random.Random, *, comparator: str | None = None,
              truth: bool | None = None) -> Outcome:
    """Turn a quantity into a range or comparative that keeps or breaks the truth ('$30' ->
    'over $20' stays true, 'over $40' becomes false); a year becomes 'before 2010' or 'after
    2010' when the claim has no quantity it may rewrite (paper §2.1)."""
    if comparator is not None and comparator not in ("over", "under", "between"):
        return Dropped("numerical", f"unknown comparator {comparator!r}")
    want = rng.random() < 0.5 if truth is None else truth
    found = [n for n in numbers(claim, doc) if fixed(claim, doc, n) is None]
    if not found:
        years = [t for t in time_expressions(claim, doc)
                 if t.prep_start is not None and t.kind in ("year", "date", "month")
                 and not _of_a_state(doc, t.prep_start)
                 and not re.match(r"\s*(?:,|and|or)\s+(?:in\s+)?(?:1\d{3}|20\d{2})\b", claim[t.end:])
                 and not re.search(r"(?:1\d{3}|20\d{2})\s*(?:,|and|or)\s+$", claim[:t.prep_start])]
        # not one of two years ("published in 1605 and 1615" -> "after 1600 and 1615")
        if not years:
            return Dropped("numerical", "no number, quantity or year")
        t = rng.choice(years)
        assert t.prep_start is not None
        # the round years on either side, never the year itself: "in 1670" -> "before 1680"
        # (true) or "after 1680" (false). Not "in the decade after 1660": 1670 is in it or not
        # depending on how the reader counts (round 3, held-back labels).
        lower, upper = (t.year - 1) // 10 * 10, t.year // 10 * 10 + 10
        options = [(rel, bound) for rel in ("before", "after") for bound in (lower, upper)
                   if ((rel == "before") == (bound == upper)) == want and bound <= LATEST_YEAR]
        if not options:
            return Dropped("numerical", f"no {'true' if want else 'false'} bound for {t.year}")
        rel, bound = rng.choice(options)
        before = claim[t.prep_start:t.end]
        after = f"{rel} {bound}"
        holds = t.year < bound if rel == "before" else t.year > bound
        return ClaimAttack("numerical", replace_span(claim, t.prep_start, before, after), "",
                           before, after, t.prep_start, holds,
                           "" if holds else as_sentence(claim), (),
                           {"comparator": rel, "value": t.year, "bounds": [bound]})
    n = rng.choice(found)
    comp = comparator or rng.choice(("over", "under", "between"))
    chosen = None
    for bounds in _bounds(comp, n.value, want):
        if n.value == int(n.value):
            bounds = [float(round(b)) for b in bounds]
        if (all(b >= (2 if n.word else 1) for b in bounds) and _holds(comp, n.value, bounds) == want
                and (len(bounds) == 1 or bounds[0] < bounds[1])
                and all(abs(b - n.value) >= MARGIN * n.value for b in bounds)):
            chosen = bounds
            break
    if chosen is None:
        return Dropped("numerical", f"no {'true' if want else 'false'} bound for {n.text}")
    holds = _holds(comp, n.value, chosen)
    more = "more than" if n.word else "over"
    less = "fewer than" if n.word else "under"
    if comp == "between":
        after = f"between {format_number(n, chosen[0])} and {format_number(n, chosen[1])}"
    else:
        after = f"{more if comp == 'over' else less} {format_number(n, chosen[0])}"
    after = match_case(after, n.text) if n.start == 0 else after
    return ClaimAttack("numerical", replace_span(claim, n.start, n.text, after), "", n.text, after,
                       n.start, holds, "" if holds else as_sentence(claim), (),
                       {"comparator": comp, "value": n.value, "bounds": chosen})
