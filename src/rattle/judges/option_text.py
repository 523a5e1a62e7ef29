"""Option texts restated in a reply without a letter ("The capital is Canberra").

An option occurs where its words appear in order inside one sentence, not inside the
occurrence of a longer option ("York" inside "New York"). An occurrence is rejected when it is
negated ("not Paris", "late for work, not early for work", "Sydney is wrong"). Among the
options the reply states, the choice is, in order: the one right after an answer cue ("the
answer is the Eagles"), the only one, the only one in a concluding sentence ("So …", "That
leaves …"), the one the reply opens with as a subject ("Avocado is the main …"), and last the
one mentioned last.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from rattle.judges.reply import OR_WORD, negated_after, negated_before

_CUE = re.compile(
    r"(?:\b(?:answer|response|respuesta|r[ée]ponse|antwort|resposta|risposta)\b(?:\s+(?:here|"
    r"then|therefore|thus))?\s*(?:is|would\s+be|should\s+be|must\s+be|es|est|ist|[:=\-\u2013"
    r"\u2014])|\b(?:I|I'd|I'll|I\s+would|we)\s+(?:\w+\s+)?(?:pick|choose|select|go\s+with|say|"
    r"opt\s+for)|\bit(?:'s|\s+is|\s+was|\s+must\s+be|\s+would\s+be)|\bthat\s+leaves|\b(?:so|"
    r"thus|therefore|hence)\b,?\s+(?:it(?:'s|\s+is)\s+)?|\bI\s+(?:think|believe)\s+(?:it'?s|it\s+is)"
    r"|\u7b54\u6848\u662f|\u7b54\u6848[:\uff1a])[\s*\"'`]*(?:(?:actually|really|in\s+fact|clearly|"
    r"definitely|probably|indeed|just)\s+)?(?:(?:the|a|an)\s+)?", re.I)
_CONCLUSION = re.compile(r"^\W*(?:so|thus|therefore|hence|that\s+leaves|which\s+leaves|leaving|"
                         r"in\s+conclusion|overall|finally|among\s+the\s+options|the\s+best)\b",
                         re.I)


_NEGATIVE_QUESTION = re.compile(r"\b(?:not|never|except|cannot)\b|n't\b", re.I)


@dataclass(frozen=True)
class TextHit:
    """One occurrence of an option's text."""

    index: int
    start: int
    end: int
    negated: bool
    quoted: bool = False


_MATH = re.compile(r"[\u221a\u03c0^\u00d7\u00f7*+=<>]|\d\s*/\s*\d|\d[a-z]\b", re.I)
_SEP = r"(?:[^\w.!?\n]|\.(?=\w))*"  # between an option's words ("p.m." keeps its dots)
# ... and at most one copula or article the reply adds: "prices are set by supply and demand"
# restates the option "Prices set by supply and demand"
_GAP = _SEP + r"(?:(?<!\w)(?:is|are|was|were|be|been|being|the|an?)\b" + _SEP + r")?"


def option_pattern(option: str) -> re.Pattern[str] | None:
    """Where an option's text occurs: its words in order within a sentence (plural forms of
    the last word); a formula ("4\u221a2", "x + 3") only as written; a one-character option
    ("I", "V") only as a capital standing at the end of a clause ("The numeral is I.")."""
    option = option.strip()
    if _MATH.search(option):
        body = r"\s*".join(re.escape(part) for part in re.findall(r"\S", option))
        return re.compile(r"(?<![\w\u221a^/.])" + body + r"(?![\w\u221a^/])", re.I)
    if re.fullmatch(r"[A-Za-z]", option):  # case-sensitive: the article "a", the pronoun "I"
        alts = [r"(?<=[\"'])(?<!\w[\"'])" + option + r"(?=[\"'](?!\w))"]  # 'The pronoun is "I".'
        if option.isupper():  # "The numeral is I.", "A is the highest grade."
            alts += [r"(?<![\w'])" + option + r"(?=\s*(?:[.!?,;]|$))",
                     r"(?<![\w'\"])" + option + r"(?=\s+(?:is|was|would\s+be)\s+(?:the|an?)\s)"]
        return re.compile("|".join(alts))
    return _pattern(option)


def _pattern(option: str) -> re.Pattern[str] | None:
    words = re.findall(r"\d+(?:[.,/]\d+)*|[^\W\d_]+|\d+", option.lower())
    if not words or (len(words) == 1 and len(words[0]) < 2):
        return None
    body = _GAP.join(re.escape(w) for w in words[:-1])
    last = words[-1]
    if last.isalpha() and len(last) > 2:  # plurals: "Dolphins are mammals", "afraid of wolves"
        forms = [re.escape(last) + r"(?:e?s)?"]
        if last.endswith("fe"):
            forms.append(re.escape(last[:-2]) + "ves")
        elif last.endswith("f"):
            forms.append(re.escape(last[:-1]) + "ves")
        elif last.endswith("y") and last[-2] not in "aeiou":
            forms.append(re.escape(last[:-1]) + "ies")
        tail = "(?:" + "|".join(forms) + ")"
    else:
        tail = re.escape(last)
    body = (body + _GAP if body else "") + tail
    return re.compile(r"(?<!\w)" + body + r"(?!\w)", re.I)


def _surname(option: str, options: list[str]) -> re.Pattern[str] | None:
    """A name of two or more capitalised words is also named by its last word when no other
    option ends in it ("Van Gogh" / "Gogh" for "Vincent van Gogh", "Austen")."""
    words = option.split()
    last = words[-1] if words else ""
    if len(words) < 2 or not words[0][:1].isupper() or not last[:1].isupper() or len(last) < 4 \
            or not last.isalpha() or sum(o.split()[-1:] == [last] for o in options) > 1:
        return None
    return re.compile(r"(?<!\w)" + re.escape(last) + r"(?!\w)")


def occurrences(text: str, options: list[str], skip: frozenset[int] = frozenset()) -> list[TextHit]:
    found: list[tuple[int, int, int]] = []
    for i, opt in enumerate(options):
        if i in skip:
            continue
        pattern = option_pattern(opt)
        if pattern is None:
            continue
        found += [(i, m.start(), m.end()) for m in pattern.finditer(text)]
        short = _surname(opt.strip(), [o.strip() for o in options])
        if short is not None:
            found += [(i, m.start(), m.end()) for m in short.finditer(text)]
    kept = [(i, s, e) for i, s, e in set(found)
            if not any(s2 <= s and e <= e2 and (e2 - s2) > (e - s) for _, s2, e2 in found)]
    return [TextHit(i, s, e, negated_before(text, s) or negated_after(text, e),
                    text[s - 1:s] in "\"'" and s > 0 and text[e:e + 1] in ("\"", "'"))
            for i, s, e in sorted(kept, key=lambda h: h[1])]


def choose_text(text: str, options: list[str], skip: frozenset[int] = frozenset(),
                question: str = "") -> tuple[int | None, str]:
    """The option whose text the reply commits to, and the rule that decided."""
    hits = occurrences(text, options, skip)
    positive = [h for h in hits if not h.negated]
    if _NEGATIVE_QUESTION.search(question):  # "Which can a plant NOT do?" "It can't walk."
        negated = {h.index for h in hits if h.negated}
        if len(negated) == 1:
            return negated.pop(), "text-negative"
    if not positive:
        return None, "unparsed"
    if any(h.quoted for h in positive):  # 'The word we want is "a".': the quoted term is named
        positive = [h for h in positive if h.quoted]
    for a, b in itertools.pairwise(positive):
        if a.index != b.index and re.fullmatch(r"\s*(?:,\s*)?(?:" + OR_WORD + r"|and/or)\s+(?:the\s+|a\s+)?",
                                               text[a.end:b.start], re.I):
            return None, "ambiguous"  # "honey or silk", "It's Russia or Canada"
    cued = [h for h in positive if any(m.end() <= h.start <= m.end() + 2
                                       for m in _CUE.finditer(text[:h.start + 1]))]
    if cued:
        return cued[-1].index, "text-answer"
    indices = {h.index for h in positive}
    if len(indices) == 1:
        return positive[0].index, "text"
    for start, sentence in reversed(_sentences(text)):
        if _CONCLUSION.match(sentence):
            inside = {h.index for h in positive if start <= h.start < start + len(sentence)}
            if len(inside) == 1:
                return inside.pop(), "text-conclusion"
    if question:
        best = _by_question(text, positive, question, options)
        if best is not None:
            return best, "text-question"
    first = positive[0]
    lead = text[:first.start].strip(" \t\n*\"'")
    if re.fullmatch(r"(?:(?:the|a|an)\s*)?", lead, re.I) and re.match(
            r"\s*(?:\([^)]*\)\s*)?(?:,|\u2014|-|:|(?!(?:and|or|nor)\b)[a-z]+\b)", text[first.end:]):
        return first.index, "text-subject"
    return positive[-1].index, "text-last"


_STOP = frozenset({
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "and", "or", "but", "is",
    "are", "was", "were", "be", "been", "it", "its", "this", "that", "these", "those", "as",
    "from", "which", "who", "whom", "what", "when", "where", "how", "than", "then", "there",
    "their", "has", "have", "had", "not", "no", "do", "does", "did", "so", "such", "can",
    "could", "would", "should", "will", "also"})


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP and len(w) > 2}


def _by_question(text: str, hits: list[TextHit], question: str, options: list[str]) -> int | None:
    """Several options restated: the one whose clause restates the question ("Sydney is the
    biggest city, but Canberra is the capital" for "What is the capital of Australia?")."""
    asked = _stems(question)
    known = {w.lower() for w in re.findall(r"[\w'-]+", question + " " + " ".join(options))}
    score: dict[int, int] = {}
    for h in hits:
        head = re.split(r"[,;.!?\n]|\bbut\b|\bwhile\b|\bwhereas\b", text[:h.start])[-1]
        tail = re.split(r"[,;.!?\n]|\bbut\b|\bwhile\b|\bwhereas\b", text[h.end:])[0]
        words = _stems(head + " " + tail)
        # a clause about another named thing ("Huxley wrote Brave New World" for "Who wrote
        # '1984'?") does not restate the question
        foreign = any(w[:1].isupper() and w.lower() not in known
                      for w in re.findall(r"[\w'-]+", tail) + re.findall(r"[\w'-]+", head)[1:])
        score[h.index] = max(score.get(h.index, 0), 0 if foreign else len(words & asked))
    top = max(score.values())
    winners = [i for i, v in score.items() if v == top]
    return winners[0] if top > 0 and len(winners) == 1 else None


def _sentences(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in re.finditer(r"[^.!?\n]+[.!?]*", text)
            if m.group(0).strip()]


def spelled(text: str) -> str:
    """A lone symbol as its name: a Greek letter ("π" -> "pi", "Δ" -> "delta") or a
    mathematical symbol ("∞" -> "infinity"); any other text unchanged."""
    core = text.strip(" \t\n*_`\"'.!")
    if len(core) != 1:
        return text
    name = unicodedata.name(core, "").lower()
    if name.startswith(("greek small letter ", "greek capital letter ")):
        return name.split()[-1]
    return name if unicodedata.category(core) == "Sm" and name else text


def equals_option(text: str, options: list[str]) -> int | None:
    """The reply (or its first sentence or clause) is just one option's text ("Canberra.",
    "A lion!", "Leaves, because …", "Temperature (B)."); a letter beside it must agree. A lone
    symbol is read by its name: "π" for the option "Pi", "pi" for the option "π"."""
    options = [spelled(o) for o in options]
    text = spelled(text)
    head = re.match(r"\s*(\S)(?=\s*(?:[,.;:!?]|\s[\u2014\u2013-]\s|\s(?:because|since|as)\s))", text)
    if head is not None and spelled(head.group(1)) != head.group(1):  # "φ — the golden ratio."
        text = spelled(head.group(1)) + text[head.end():]
    parts = re.split(r"((?<=[.!?])\s|\n|,\s|\s[\u2014\u2013]\s|\s(?:because|since|as)\s)", text, maxsplit=1)
    first = parts[0]
    after = re.sub(r"^(?:and\s+|or\s+)?(?:the\s+|a\s+|an\s+)?", "", parts[2], flags=re.I) if len(
        parts) == 3 else ""
    if len(parts) == 3 and parts[1] == ", " and any(
            (p := option_pattern(o)) is not None and p.match(after) for o in options if o.strip()):
        first = ""  # "Coal, natural gas and oil are …", "Eagles, sparrows and bats": a list
    if first.rstrip().endswith("?"):
        first = ""  # "Oxygen? No. …" asks, it does not answer
    for part in (text, first):
        core = re.sub(r"^[\s*_#>`\"']+|[\s*_`\"'.!]+$", "", part).strip()
        letter = None
        m = re.match(r"^[\(\[]?\s*([A-Za-z])\s*[\)\].:]\s*(.+)$|^(.+?)\s*[\(\[]\s*([A-Za-z])\s*[\)\]]$",
                     core, re.S)
        if m:
            letter = (m.group(1) or m.group(4)).upper()
            core = (m.group(2) or m.group(3)).strip()
        core = re.sub(r"^(?:the|a|an)\s+", "", core.rstrip(" ."), flags=re.I)
        for i, opt in enumerate(options):
            o = re.sub(r"^(?:the|a|an)\s+", "", opt.strip().rstrip("."), flags=re.I)
            pattern = _pattern(o) if re.search(r"[^\W\d_]", o) else None
            if o and (core.lower() == o.lower() or (pattern is not None and pattern.fullmatch(core))):
                if letter is not None and "ABCDEFGHIJKLMNOPQRSTUVWXYZ".find(letter) != i:
                    return None
                return i
    # A short reply naming one option by part of its name ("Pacific." for "Pacific Ocean")
    core = re.sub(r"^(?:the|a|an)\s+", "", re.sub(r"[^\w\s]", " ", text).strip(), flags=re.I).lower()
    if core and len(core.split()) <= 3 and not re.search(r"\d", core):
        inside = [i for i, o in enumerate(options)
                  if re.search(r"(?<!\w)" + re.escape(core) + r"(?!\w)", o.lower())]
        if len(inside) == 1:
            return inside[0]
    return None


def options_in_a_row(text: str, options: list[str]) -> bool:
    """Three or more options' texts (all of them when fewer) one right after another with
    nothing but spaces or slashes between ("True False Unable to determine True"), or every
    option offered in one list joined by "or" (the instruction echoed: "Answer with True,
    False, or Unable to determine."): an echo of the options, not a choice."""
    hits = [h for h in occurrences(text, options) if not h.negated]
    if _all_offered(text, hits, len(options)):
        return True
    need, run, seen = min(3, len(options)), 1, {hits[0].index} if hits else set()
    for a, b in itertools.pairwise(hits):
        if re.fullmatch(r"[\s/|]*", text[a.end:b.start]) and b.index not in seen:
            run, seen = run + 1, seen | {b.index}
        else:
            run, seen = 1, {b.index}
        if run >= need:
            return True
    return False


def _all_offered(text: str, hits: list[TextHit], n: int) -> bool:
    """Every option, one after another, in a list of commas ending in "or" ("True, False, or
    Unable to determine")."""
    if n < 2:
        return False
    if n == 2:  # "True or false: …", "Yes or no? Yes." ask; two options echo only as the line
        return bool(re.fullmatch(r"\W*(?:answer|reply|respond|choose|pick)?\W*(?:with\s+)?\W*"
                                 + re.escape(text[hits[0].start:hits[-1].end]) + r"\W*", text, re.I)) \
            if len(hits) == 2 else False
    for i in range(len(hits) - n + 1):
        run = hits[i:i + n]
        gaps = [text[a.end:b.start] for a, b in itertools.pairwise(run)]
        if len({h.index for h in run}) == n and all(re.fullmatch(r"\s*,\s*|\s*,?\s*(?:or|and/or)\s+", g, re.I)
                                                     for g in gaps) and re.search(r"\bor\b", gaps[-1], re.I):
            return True
    return False
