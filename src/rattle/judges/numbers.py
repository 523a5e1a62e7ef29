"""Numeric option values (AQuA, RCC number options): which option's value did the reply state?

Options read as numbers when they hold exactly one number, with currency ("$", "Rs.", "₹",
"€", "£"), thousands separators, a fraction ("3/4"), a percent sign or a trailing unit ("54
km/hr", "4 hours"). A stated value matches an option when it is equal, when it rounds to the
option's precision ("0.3333" -> "0.33", "≈ 78.2" -> "$78.20"), or, failing that, as a
percentage of it ("26%" -> "0.26"). Number words count where the reply writes no digits
("eighteen", "negative four", "three quarters").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

_CURRENCY = r"(?:\$|US\$|USD\s*|Rs\.?\s*|INR\s*|\u20b9|\u20ac|\u00a3|EUR\s*|GBP\s*)"
NUMBER = re.compile(
    r"(?<![\w.^/])(?:(?P<sign>-(?=\S)|negative\s+))?" + _CURRENCY + r"?(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)"
    r"(?:\.\d+)?|\.\d+)(?:\s*/\s*(?P<den>\d+(?:\.\d+)?))?(?![\d/])(?P<pct>\s*(?:%|percent\b|"
    r"per\s+cent\b))?")
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
          "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5}
_WORD_NUMBER = re.compile(
    r"\b(?P<neg>negative\s+|minus\s+)?(?P<a>" + "|".join(_TENS + _UNITS[::-1]) + r"|a|an)"
    r"(?:[\s-](?P<b>" + "|".join(_UNITS[1:10]) + r"))?(?:\s+(?P<h>hundred|thousand))?"
    r"(?:\s+(?P<part>" + "|".join(_PARTS) + r"))?\b", re.I)


@dataclass(frozen=True)
class Value:
    """A number in a text: value, whether it was a percentage, decimals written, span."""

    value: float
    percent: bool
    decimals: int
    start: int
    end: int


def _to_value(m: re.Match[str]) -> Value | None:
    num = m.group("num").replace(",", "")
    try:
        value = float(Fraction(num) / Fraction(m.group("den"))) if m.group("den") else float(num)
    except (ValueError, ZeroDivisionError):
        return None
    if m.group("sign"):
        value = -value
    decimals = len(num.split(".")[1]) if "." in num and not m.group("den") else 0
    return Value(value, bool(m.group("pct")), decimals, m.start(), m.end())


def _word_value(m: re.Match[str]) -> Value | None:
    a, b, h, part = (m.group(k) for k in ("a", "b", "h", "part"))
    a = a.lower()
    if a in ("a", "an"):
        if not part:
            return None
        n = 1.0
    elif a in _TENS:
        n = 20.0 + 10 * _TENS.index(a) + (_UNITS.index(b.lower()) if b else 0)
    else:
        n = float(_UNITS.index(a))
    if h:
        n *= 100 if h.lower() == "hundred" else 1000
    if part:
        n /= _PARTS[part.lower()]
    if m.group("neg"):
        n = -n
    return Value(n, False, 0, m.start(), m.end())


def values(text: str) -> list[Value]:
    """Numbers written in digits, or in words where the text has no digits; exponents
    ("m^2", "7^2") and digits glued to words ("Statement1") are not values."""
    out = [v for m in NUMBER.finditer(text) if (v := _to_value(m)) is not None]
    if not out and not re.search(r"\d", text):
        out = [v for m in _WORD_NUMBER.finditer(text) if (v := _word_value(m)) is not None]
    return out


def option_value(text: str) -> Value | None:
    """The option's value when the option is a single number (units and currency allowed)."""
    stripped = text.strip()
    found = list(NUMBER.finditer(stripped))
    if len(found) != 1:
        return None
    m = found[0]
    head = stripped[:m.start()].strip()
    tail = stripped[m.end():].strip()
    if head or (tail and not re.fullmatch(r"[A-Za-z/. ]{1,20}(?:\^\d)?", tail)):
        return None
    return _to_value(m)


def numeric_options(options: list[str]) -> list[Value | None] | None:
    """Option values when at least two thirds of the options (and two or more) are numbers."""
    vals = [option_value(o) for o in options]
    count = sum(v is not None for v in vals)
    if count >= 2 and count * 3 >= 2 * len(options):
        return vals
    return None


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def match(stated: Value, options: list[Value | None]) -> int | None:
    """The one option whose value the stated value is (None: none or several)."""
    def find(test: object) -> list[int]:
        return [i for i, o in enumerate(options) if o is not None and test(o)]  # type: ignore[operator]

    exact = find(lambda o: _same(stated.value, o.value))
    if not exact and stated.decimals > 0:
        exact = find(lambda o: stated.decimals > o.decimals > 0
                     and _same(round(stated.value, o.decimals), o.value))
    if not exact and stated.decimals == 0 and stated.value != int(stated.value):
        exact = find(lambda o: o.decimals > 0 and _same(round(stated.value, o.decimals), o.value))
    if not exact:
        if stated.percent:
            exact = find(lambda o: not o.percent and _same(stated.value / 100, o.value))
        else:
            exact = find(lambda o: o.percent and _same(stated.value * 100, o.value))
    return exact[0] if len(exact) == 1 else None
