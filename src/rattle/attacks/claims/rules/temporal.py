"""Temporal modification (paper §2.1): a time expression of the claim is replaced by a direct
("1949"), vague ("the 1930s") or relative ("after World War I") one.

Time expressions are found by their English shapes: years, dates ("9 November 1989", "July 4,
1776", "April 1912"), decades ("the 1870s"), centuries ("the early 16th century",
"15th-century"), ranges ("from 1939 to 1945", "between 1508 and 1512") and BC/AD years. New
ones are written as English writes them: "in the 1840s", "in the mid-19th century", never
"1902s" (issue 15). The label is computed from what was written: a decade, century or range is
true iff the original year lies in it, a relative one iff the year falls before/after the
reference event.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.claims.rules.common import (TIME_LABELS, as_sentence, edit_problem, ordinal,
                                                replace_span)
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
# A changed year never lands in the future (fixed, so variants do not change with the clock).
LATEST_YEAR = 2024
# Year shifts of a direct replacement: small, so the new year stays plausible.
SHIFTS = (-10, -5, -3, -2, -1, 1, 2, 3, 5, 10)
# Events at most this many years away make a believable relative expression.
EVENT_DISTANCE = 60

_Y = r"(1\d{3}|20\d{2})"
MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|"
           "December")
_PATTERNS = (  # (kind, regex); earlier kinds win where spans overlap
    ("range", re.compile(rf"\b(?:from|between)\s+{_Y}\s+(?:to|and|until)\s+{_Y}\b")),
    ("range", re.compile(rf"\b{_Y}\s*[–-]\s*{_Y}\b")),
    ("century", re.compile(r"\b(?:the\s+)?(?:(early|mid|late)[- ])?(\d{1,2})(?:st|nd|rd|th)"
                           r"([- ])century\b", re.I)),
    ("decade", re.compile(r"\b(?:the\s+)?(?:(early|mid|late)[- ])?(1\d{2}0|20\d0)s\b", re.I)),
    ("era", re.compile(r"\b(\d{1,4})\s+(BC|BCE|AD|CE)\b")),
    ("date", re.compile(rf"\b\d{{1,2}}\s+(?:{MONTHS})\s+{_Y}\b")),
    ("date", re.compile(rf"\b(?:{MONTHS})\s+\d{{1,2}},\s+{_Y}\b")),
    ("month", re.compile(rf"\b(?:{MONTHS})\s+{_Y}\b")),
    ("year", re.compile(rf"(?<![\d,.$£€]){_Y}(?![\d,%]|\.\d|s\b)")),
)
_PREP = re.compile(r"\b(in|on|during)\s+$")
# "fought over three days in July 1863": a time phrase after a duration would read as part of it
_AFTER_DURATION = re.compile(r"\b(?:days?|weeks?|months?|years?|hours?|decades?|centuries)\s+$", re.I)
# An approximate date ("dated to around 1665"): a shift within its fuzz is not clearly false,
# and one beyond it is just a wrong date (round 3: "around 1670" was not labelled false).
CIRCA = re.compile(r"\b(?:around|about|circa|c\.|ca\.|approximately|roughly|some|nearly|almost)\s+$", re.I)
# Events held every four years: their years move by multiples of four.
_QUADRENNIAL = re.compile(r"^\s+(?:Summer |Winter )?(?:Olympics|Olympic Games|Paralympics|World Cup|FIFA World Cup)", re.I)


@dataclass(frozen=True)
class TimeExpr:
    """A time expression: its span, shape and the years it covers."""

    start: int
    end: int
    kind: str  # year, date, month, decade, century, range, era
    year: int  # the first year covered (for a century: its first year)
    last: int  # the last year covered
    prep_start: int | None  # where "in"/"on"/"during" right before it starts, if any

    def text(self, claim: str) -> str:
        return claim[self.start:self.end]


def time_expressions(claim: str, doc: Any) -> list[TimeExpr]:
    """Every time expression of ``claim`` outside a protected name, in text order."""
    out: list[TimeExpr] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(claim):
            if any(m.start() < t.end and t.start < m.end() for t in out):
                continue
            made = _expr(kind, m)
            if made is None or edit_problem(claim, doc, m.start(), m.end(), targets=TIME_LABELS):
                continue
            prep = _PREP.search(claim[:m.start()])
            if prep and _AFTER_DURATION.search(claim[:prep.start()]):
                prep = None
            out.append(TimeExpr(m.start(), m.end(), kind, made[0], made[1],
                                prep.start() if prep and kind not in ("range",) else None))
    return sorted(out, key=lambda t: t.start)


def _expr(kind: str, m: re.Match[str]) -> tuple[int, int] | None:
    if kind == "range":
        a, b = int(m.group(1)), int(m.group(2))
        return (a, b) if a < b else None
    if kind == "century":
        n = int(m.group(2))
        return ((n - 1) * 100 + 1, n * 100) if 1 <= n <= 21 else None
    if kind == "decade":
        d = int(m.group(2))
        return d, d + 9
    if kind == "era":
        return None if m.group(2) in ("AD", "CE") and int(m.group(1)) > 999 else (0, 0)
    year = int(re.findall(_Y, m.group(0))[-1])
    return year, year


# -- English time phrases ------------------------------------------------------------------
def decade_phrase(year: int) -> str | None:
    """'the 1840s'; None for a century's first decade ("the 1900s" also means the century)."""
    if year % 100 < 10:
        return None
    return f"the {year // 10 * 10}s"


def century_part(year: int) -> str | None:
    """early / mid / late for a year not within 3 years of a boundary (1-33, 34-66, 67-100
    of the century), else None: the part must be clear for the label to be right."""
    pos = (year - 1) % 100 + 1
    for part, low, high in (("early", 1, 33), ("mid", 34, 66), ("late", 67, 100)):
        if low + (3 if low > 1 else 0) <= pos <= high - (3 if high < 100 else 0):
            return part
    return None


def century_phrase(n: int, part: str | None = None, *, adjective: bool = False) -> str:
    """'the 19th century', 'the mid-19th century', 'the early 16th century', '15th-century'."""
    core = f"{ordinal(n)}-century" if adjective else f"{ordinal(n)} century"
    if part is None:
        return core if adjective else f"the {core}"
    joined = f"mid-{core}" if part == "mid" else f"{part} {core}"
    return joined if adjective else f"the {joined}"


def _century_of(year: int) -> int:
    return (year - 1) // 100 + 1


def events_near(year: int, claim: str) -> list[tuple[str, int, int]]:
    """Reference events within ``EVENT_DISTANCE`` years of ``year`` not named in the claim."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", claim)}
    return [e for e in REFERENCE_EVENTS if abs(e[1] - year) <= EVENT_DISTANCE and not (
        {w.lower() for w in re.findall(r"[A-Za-z]+", e[0])} - _EVENT_STOP) & words]


# -- the three kinds of replacement --------------------------------------------------------
Change = tuple[int, str, str, bool]  # start, before, after, truth


def _shift(rng: random.Random, first: int, last: int, *, quadrennial: bool = False) -> int | None:
    steps = (-8, -4, 4, 8) if quadrennial else SHIFTS
    shifts = [s for s in steps if first + s >= 1000 and last + s <= LATEST_YEAR]
    return rng.choice(shifts) if shifts else None


def _direct(claim: str, t: TimeExpr, rng: random.Random) -> Change | None:
    text = t.text(claim)
    if t.kind in ("year", "date", "month"):
        k = _shift(rng, t.year, t.year, quadrennial=bool(_QUADRENNIAL.match(claim[t.end:])))
        if k is None:
            return None
        head, _, tail = text.rpartition(str(t.year))
        return t.start, text, f"{head}{t.year + k}{tail}", False
    if t.kind == "range":
        k = _shift(rng, t.year, t.last)
        if k is None:
            return None
        after = re.sub(_Y, lambda m: str(int(m.group(1)) + k), text)
        return t.start, text, after, False
    if t.kind == "decade":
        d = t.year + rng.choice((-20, -10, 10, 20))
        if d < 1000 or d > LATEST_YEAR:
            return None
        return t.start, text, text.replace(str(t.year), str(d), 1), False
    if t.kind == "century":
        n = _century_of(t.year)
        new = n + rng.choice((-1, 1) if n > 1 else (1,))
        if new > _century_of(LATEST_YEAR):
            new = n - 1
        return t.start, text, text.replace(ordinal(n), ordinal(new), 1), False
    m = re.match(r"(\d+)", text)  # BC/AD years
    if not m:
        return None
    value = int(m.group(1))
    new_value = value + rng.choice([s for s in SHIFTS if value + s > 0])
    return t.start, text, str(new_value) + text[m.end():], False


def _vague(claim: str, t: TimeExpr, rng: random.Random) -> Change | None:
    if t.prep_start is None or t.kind not in ("year", "date", "month", "decade"):
        return None
    before = claim[t.prep_start:t.end]
    truth = rng.random() < 0.5
    if t.kind == "decade":  # a decade becomes its century (true: a shifted century is absurd)
        return t.prep_start, before, "in " + century_phrase(_century_of(t.year + 1)), True
    phrases: list[str] = []
    if t.kind in ("date", "month"):
        phrases.append("year")
    if decade_phrase(t.year):
        phrases.append("decade")
    if century_part(t.year):
        phrases.append("century")
    if not phrases:
        return None
    shape = rng.choice(phrases)
    if shape == "year":
        shown_year = t.year if truth else t.year + rng.choice([s for s in SHIFTS if abs(s) <= 3])
        return t.prep_start, before, f"in {shown_year}", shown_year == t.year
    if shape == "decade":
        # a false decade is the neighbour nearer the year ("founded in 1998" -> "in the
        # 2000s"): one further away contradicts what readers know ("Google was founded in the
        # 2010s", round 3); never a decade that has not ended
        decade = t.year // 10 * 10
        near = decade - 10 if t.year % 10 <= 4 else decade + 10
        if not truth and (near + 10 > LATEST_YEAR or not decade_phrase(near)):
            return None  # not "the 1900s" (also the century), nor the far side instead
        shown = decade if truth else near
        phrase = decade_phrase(shown) or f"the {shown}s"
        return t.prep_start, before, f"in {phrase}", shown == t.year // 10 * 10
    # the part of the century: a false one is another part of the same century
    part = century_part(t.year)
    n = _century_of(t.year)
    parts = [p for p, low in (("early", 1), ("mid", 34), ("late", 67))
             if p != part and (n - 1) * 100 + low <= LATEST_YEAR]  # never a future part
    shown_part = part if truth or not parts else rng.choice(parts)
    return t.prep_start, before, "in " + century_phrase(n, shown_part), shown_part == part


def _relative(claim: str, t: TimeExpr, rng: random.Random) -> Change | None:
    if t.prep_start is None or t.kind not in ("year", "date", "month", "decade"):
        return None
    if claim[t.end:].strip()[:1] not in ("", ".", ",", ";", "!", "?"):
        return None  # "born before X in the village of Smiljan" would misattach what follows
    events = [e for e in events_near(t.year, claim) if e[2] < t.year or e[1] > t.last
              or (t.year == t.last and e[1] == e[2] == t.year)]
    if not events:
        return None
    name, first, last = rng.choice(events)
    if first == last == t.year:
        rel, truth = rng.choice((("in the same year as", True), ("before", False), ("after", False)))
    elif t.last < first:
        rel, truth = rng.choice((("before", True), ("after", False)))
    else:
        rel, truth = rng.choice((("after", True), ("before", False)))
    return t.prep_start, claim[t.prep_start:t.end], f"{rel} {name}", truth


_MAKERS = {"direct": _direct, "vague": _vague, "relative": _relative}


def temporal(claim: str, doc: Any, rng: random.Random, *, kind: str | None = None) -> Outcome:
    """Replace a time expression by a direct, vague or relative one (paper §2.1)."""
    if kind is not None and kind not in _MAKERS:
        return Dropped("temporal", f"unknown kind {kind!r}")
    found = [t for t in time_expressions(claim, doc) if not CIRCA.search(claim[:t.start])]
    if not found:
        return Dropped("temporal", "no time expression (or only approximate ones)")
    kinds = [kind] if kind else list(_MAKERS)
    usable = [(t, k) for t in found for k in kinds
              if k == "direct" or (t.prep_start is not None and t.kind in ("year", "date", "month", "decade"))]
    if not usable:
        return Dropped("temporal", f"no time expression that takes a {kind} replacement")
    rng.shuffle(usable)
    for t, k in usable:
        made = _MAKERS[k](claim, t, rng)
        if made is None:
            continue
        start, before, after, truth = made
        declarative = replace_span(claim, start, before, after)
        return ClaimAttack("temporal", declarative, "", before, after, start, truth,
                           "" if truth else as_sentence(claim), (),
                           {"kind": k, "expression": t.kind, "year": t.year})
    return Dropped("temporal", f"no {kind or 'usable'} replacement for the time expression")
