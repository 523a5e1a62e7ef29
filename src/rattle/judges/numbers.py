"""Numeric option values (AQuA, RCC number options): which option's value did the reply state?

Options read as numbers when they hold exactly one number, with currency ("$", "Rs.", "₹",
"€", "£"), thousands separators, a fraction ("3/4"), a percent sign or a trailing unit ("54
km/hr", "4 hours"). A stated value matches an option when it is equal, when it rounds to the
option's precision ("0.3333" -> "0.33", "≈ 78.2" -> "$78.20"), or, failing that, as a
percentage of it ("26%" -> "0.26"). Number words count where the reply writes no digits
("eighteen", "negative four", "three quarters").
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction

_CURRENCY = r"(?:\$|US\$|USD\s*|Rs\.?\s*|INR\s*|\u20b9|\u20ac|\u00a3|EUR\s*|GBP\s*)"
NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.^/])(?:(?P<sign>-(?=\S)|negative\s+))?" + _CURRENCY + r"?(?:(?P<whole>\d+)\s+"
    r"(?=\d+\s*/\s*\d))?(?P<num>(?<!\d,)\d+,\d{1,2}(?![\d,])|(?:\d{1,3}(?:,\d{3})+|"
    r"\d{1,3}(?: \d{3})+(?=(?:,\d{1,2})?\s?[\u20ac$\u00a3\u20b9%])|\d+)"
    r"(?:\.\d+)?|\.\d+)(?:\s*/\s*(?P<den>\d+(?:\.\d+)?))?(?![\d/])(?P<pct>\s*(?:%|percent\b|"
    r"per\s+cent\b))?(?P<cents>\s*(?:cents?\b|\u00a2))?")
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_PARTS = {"half": 2, "halves": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6,
          "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "twelfth": 12, "hundredth": 100}
_PARTS |= {k + "s": v for k, v in _PARTS.items() if not k.startswith("hal")}
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
    form: str = ""  # as written, digits only ("1/4", "25/100", "-7"): "1/4" is not "25/100"
    money: bool = False  # written with a currency: "$20" is no "20%"


def _to_value(m: re.Match[str]) -> Value | None:
    raw = m.group("num").replace(" ", "")  # "16 200 €": thousands grouped by spaces
    # "2,5" is a decimal comma; "1,500" a thousands separator
    num = raw.replace(",", ".") if re.fullmatch(r"\d+,\d{1,2}", raw) else raw.replace(",", "")
    try:
        value = float(Fraction(num) / Fraction(m.group("den"))) if m.group("den") else float(num)
    except (ValueError, ZeroDivisionError):
        return None
    if m.group("whole"):  # "2 1/2"
        value += int(m.group("whole"))
    if m.group("sign"):
        value = -value
    decimals = len(num.split(".")[1]) if "." in num and not m.group("den") else 0
    if m.group("cents"):  # "30 cents" is $0.30
        value, decimals = value / 100, decimals + 2
    form = (("-" if m.group("sign") else "") + (m.group("whole") + " " if m.group("whole") else "")
            + num + ("/" + m.group("den") if m.group("den") else ""))
    money = bool(re.search(_CURRENCY, m.group(0))) or bool(re.match(r"\s?[\u20ac$\u00a3\u20b9]", m.string[m.end():]))
    return Value(value, bool(m.group("pct")), decimals, m.start(), m.end(), form, money)


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
    """Numbers written in digits, and in words ("Half of 50 is twenty-five."; beside digits
    only from ten up: small counts there are mostly units, "in two weeks"); exponents
    ("m^2", "7^2") and digits glued to words ("Statement1") are not values."""
    out = [v for m in NUMBER.finditer(text) if (v := _to_value(m)) is not None]
    digits = bool(re.search(r"\d", text))
    words = [v for m in _WORD_NUMBER.finditer(text) if (v := _word_value(m)) is not None
             and not (digits and (abs(v.value) < 10 or m.group("part")))]
    return sorted(out + words, key=lambda v: v.start) if words else out


def option_value(text: str) -> Value | None:
    """The option's value when the option is a single number (units and currency allowed)."""
    stripped = text.strip()
    word = _WORD_NUMBER.fullmatch(stripped.rstrip("."))
    if word is not None:  # "Six", "twenty-five"
        return _word_value(word)
    found = list(NUMBER.finditer(stripped))
    if len(found) != 1:
        return None
    m = found[0]
    head = stripped[:m.start()].strip()
    tail = stripped[m.end():].strip()
    if head or (tail and not re.fullmatch(r"[A-Za-z/. \u00b0]{1,20}(?:\^\d)?", tail)):
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
    def find(test: object) -> list[int]:  # an amount of money is never a percentage, nor back
        return [i for i, o in enumerate(options) if o is not None and not (
            (stated.money and o.percent) or (stated.percent and o.money)) and test(o)]  # type: ignore[operator]

    exact = find(lambda o: _same(stated.value, o.value))
    if not exact:  # "0.375" is "37.5%" before it rounds to "0.38"
        if stated.percent:
            exact = find(lambda o: not o.percent and _same(stated.value / 100, o.value))
        else:
            exact = find(lambda o: o.percent and _same(stated.value * 100, o.value))
    if not exact and stated.decimals > 0:
        exact = find(lambda o: stated.decimals > o.decimals > 0
                     and _same(round(stated.value, o.decimals), o.value))
    if not exact and stated.decimals == 0 and stated.value != int(stated.value):
        exact = find(lambda o: o.decimals > 0 and _same(round(stated.value, o.decimals), o.value))
    if len(exact) > 1 and stated.form:  # "1/4" among 1/4 and 25/100: the form written
        exact = [i for i in exact if (o := options[i]) is not None and o.form == stated.form]
    return exact[0] if len(exact) == 1 else None


# Reading which value a worked reply ends on (``answer_value``): asides and remarks about
# other numbers ("(The mean would be 9.2)", "Note that 245 would be one week", "It's
# tempting to compute 17 - 9 = 8") are not the answer while the main line states a value.
# "(The mean would be 9.2)", "(365 ÷ 7 ≈ 52.1)", "…, one more than a common year's 365"
_ASIDE = re.compile(r"\((?=[^)]*\s)(?:[^()]|\([^()]*\))*\)|,\s*(?:\w+\s+){0,2}(?:more|less|fewer|greater|smaller|"
                    r"higher|lower|bigger)\s+than\b[^,.;()]*|"
                    # a justification after the result: "… is 9 because 9 × 9 = 81."
                    r"(?<=\d)[^.;!?\n\d]{0,20}?,?\s+(?:because|since)\s+[^.;!?\n]*")
_REMARK_OPEN = re.compile(
    r"^\W*(?:note|nb|check(?:ing)?|verify|verification|sanity\s+check|if|had|it(?:'s|\s+is)\s+"
    r"tempting|a\s+common\s+(?:mistake|error|trap)|careful|don't|do\s+not|compare|unlike|"
    r"otherwise|for\s+(?:comparison|reference)|whereas|by\s+contrast|(?:the\s+)?other)\b", re.I)
_REMARK_ANY = re.compile(r"\bwould(?:n't)?\s+(?:\w+ly\s+)?(?:be|give|get|mean|have|result)\b|"
                         r"\byou'd\b|\bmistake|\bwrong(?:ly)?\b|\bincorrect(?:ly)?\b|\bmistakenly\b|"
                         r"\bjust\s+the\b|\binstead\s+of\b|"
                         r"\brather\s+than\b", re.I)
_CONCLUDE = re.compile(r"^\W*(?:so|thus|therefore|hence|result|in\s+total|altogether|overall|"
                       r"(?:that|this|which)\s+gives)\b|,\s*(?:so|thus|therefore|hence)\b", re.I)
_CLAUSE_END = re.compile(r"[\u2014\u2013;(]|(?<!\d)\s-\s(?!\d)|\bbut\b|\bnot\b|n't\b", re.I)


def _kept(text: str, start: int, found: list[Value]) -> list[Value]:
    from rattle.judges.reply import negated_before

    return [dataclasses.replace(v, start=v.start + start, end=v.end + start)
            for v in found if not negated_before(text, v.start + start, words=2)]


def answer_value(text: str) -> Value | None:
    """The value a worked reply ends on: the last value of its main line (asides in
    parentheses and remark sentences left out while the main line states one); a concluding
    sentence ("So 9. The other 8 ran off.") wins unless a later sentence computes on."""
    from rattle.judges.reply import sentences

    masked = _ASIDE.sub(lambda m: " " * len(m.group(0)), text)
    main = [(start, s) for start, s in sentences(masked)
            if values(s) and not (_REMARK_OPEN.match(s) or _REMARK_ANY.search(s))]
    if not main:
        stated = _kept(text, 0, values(text))
        return stated[-1] if stated else None
    chosen = main[-1]
    concluding = [i for i, (_, s) in enumerate(main) if _CONCLUDE.search(s)]
    if concluding and not any(re.search(r"=|\u2192", s) for _, s in main[concluding[-1] + 1:]):
        chosen = main[concluding[-1]]
    start, sentence = chosen
    m = _CONCLUDE.search(sentence)
    if m is not None:
        part = sentence[m.end():]
        cut = _CLAUSE_END.search(part)
        head = part[:cut.start()] if cut else part
        stated = _kept(text, start + m.end(), values(head))
        if stated:
            return stated[-1]
    for start, sentence in reversed(main[:main.index(chosen) + 1]):  # "… = 16 m. Not 15."
        stated = _kept(text, start, values(sentence))
        if stated:
            return stated[-1]
    return None


def asked(question: str) -> set[str]:
    """The single-letter unknowns a question explicitly asks for ("What is x?", "Solve for
    x", "find the value of y")."""
    return set(re.findall(r"\b(?:solve\s+for|value\s+of|find|what\s+is|what's)\s+([a-z])"
                          r"(?=\s*(?:[?.,;:]|$|\s+(?:if|when|given|in|such|so)\b))", question, re.I))


def unknowns(question: str) -> set[str]:
    """The single-letter unknowns a question asks for ("Solve for x", "2x + 6 = 20")."""
    found: list[str | tuple[str, str]] = list(asked(question))
    found += re.findall(r"\bfor\s+([a-z])\b", question, re.I)
    found += re.findall(r"(?<![A-Za-z])([a-z])(?=\s*(?:[=\u00b2^]|[+\-]\s*\d))|\d([a-z])\b",
                        question)
    out: set[str] = set()
    for f in found:
        out.update(x for x in (f if isinstance(f, tuple) else (f,)) if x)
    return out
