"""Option letters in a reply: where a letter stands as a letter, and which statement commits
to one (the letter half of ``judges.choice``; decision order in docs/judging.md).

A letter stands as a letter when it is framed ("(B)", "[B]", "**B**", "B)" or "B." opening a
line, "option B") or, bare, when it cannot be a word: never next to other letters, never the
start of an abbreviation ("e.g.", "i.e."), and for "a"/"A"/"I" and lower-case letters only when
nothing but punctuation, a connective ("because", "or") or that option's text follows, so the
article in "the answer is a dog" is not option A.

Statements, strongest first: tier 1 is a final label ("Final answer: C", ``\\boxed{C}``, a JSON
``answer`` field, an "Answer:" line); tier 2 an answer sentence ("the answer is (B)", "I pick
C", "(B) is correct", "so it's B", a lone bold letter, a last line that is only a letter),
in English and the common forms of other languages ("la respuesta es (B)", "réponse : C",
"Antwort: B", "答案是B"). A negated statement ("the answer is not A", "I wouldn't pick A")
does not count; two letters joined by "or"/"and" make the statement ambiguous.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rattle.judges.reply import (clause_negated, json_answer, negated_after, negated_before,
                                 sentences)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Capitals some models write in other scripts for option letters (Cyrillic, Greek).
_LOOKALIKE = str.maketrans("АВСЕНКМОРТХΑΒΕΗΙΚΜΝΟΡΤΧ", "ABCEHKMOPTXABEHIKMNOPTX")
_L = r"[A-Za-zАВСЕНΑΒΕΗ]"
_OPEN = r"[\(\[\{<]"
_CLOSE = r"[\)\]\}>]"
# A letter token: framed by brackets / bold, or bare (checked by ``_bare_ok``).
TOKEN = (r"(?:\*\*\s*)?(?:(?P<o>" + _OPEN + r")\s*(?P<lf>" + _L + r")\s*" + _CLOSE + r"|"
         r"(?<![A-Za-z0-9'’\u00b0\u0370-\u03ff\u0400-\u04ff])(?P<lb>" + _L
         + r")(?![A-Za-z0-9'’\u0370-\u03ff\u0400-\u04ff]))(?:\s*\*\*)?")  # CJK may touch a letter
_FOLLOW_OK = re.compile(
    r"\s*(?:$|[,;:!?)\]}*\"'\u3002\uff0c\uff1a\u0964\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af]|"
    r"\.(?![A-Za-z])|\s+(?:because|since|as|which|"
    r"for|with|or|and|is|was|would|seems|looks|option|choice|answer|\u2014|\u2013|-|\()\b|"
    r"\s+[\u2014\u2013-])", re.I)
_ANSWER_WORD = (
    r"(?:answer|ans\b|response|respuesta|r[ée]ponse|antwort|resposta|risposta|\u043e\u0442\u0432\u0435\u0442|"
    r"jawaban(?:nya)?|cevap(?:\u0131)?|antwoord|odpowied\u017a|\u0111\u00e1p \u00e1n|c\u00e2u tr\u1ea3 l\u1eddi|"
    r"svar(?:et)?|vastaus|odpov\u011b\u010f|r\u0103spuns(?:ul)?|\u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7|"
    r"\u0432\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c|jibu|"
    r"\u0909\u0924\u094d\u0924\u0930|\u0627\u0644\u0625\u062c\u0627\u0628\u0629|"
    r"\u7b54\u6848|\u6b63\u786e\u7b54\u6848|\u7b54\u3048|\u6b63\u89e3|\uc815\ub2f5|\ub2f5)")
_ADJ_AFTER = (r"(?:\s+(?:correcta|correcto|correct[ae]?|correta|correto|corretta|richtige|final|finale|"
              r"juste|bonne|exacta|exacte|\u0111\u00fang|correcto|benar|corect|oikea|spr\u00e1vn\u00e1))?")
_COPULA = (r"(?:\s+(?:here|then|therefore|thus|to\s+(?:this|the)\s+question|for\s+this\s+question))?"
           r"\s*(?:is|are|was|would\s+be|should\s+be|must\s+be|will\s+be|seems\s+to\s+be|"
           r"appears\s+to\s+be|es|est|ist|\u00e9|\u00e8|\u00e4r|er|on|je|este|adalah|ialah|l\u00e0|to|"
           r"\u03b5\u03af\u03bd\u03b1\u03b9|ni|=|:|\uff1a|-|\u2013|\u2014|\u662f|\u4e3a|"
           r"\u70ba|\u306f|\uc740|\ub294|\s)\s*[:\uff1a]?\s*(?:(?:probably|likely|clearly|definitely|"
           r"obviously|indeed|simply|therefore|thus|then|most\s+likely|also|donc|alors|ainsi|"
           r"entonces|pues|quindi|dunque|portanto|logo|daher|somit|also|dus)\s+)?"
           r"(?:(?:la|le|el|il|lo|die|der|das|o|a|l')\s*)?"
           r"(?:(?:option|choice|letter|alternative|alternativa|opci[óo]n|op[çc][ãa]o|opzione|optie|"
           r"variante|\u0432\u0430\u0440\u0438\u0430\u043d\u0442|\u9009\u9879)\s*)?"
           r"(?:(?:la|le|el|il|lo|die|der|das|o)\s+)?")
_STATEMENTS: list[tuple[int, str, re.Pattern[str]]] = [
    (1, "final", re.compile(r"\bfinal\s+(?:answer|choice|option)\b[\s*_]*(?:is|:|=|-)?[\s*_]*"
                            r"(?:(?:option|choice)\s*)?" + TOKEN, re.I)),
    (1, "label", re.compile(r"(?m)^[\s#>*_]*(?:the\s+)?(?:correct\s+|best\s+|right\s+)?"
                            + _ANSWER_WORD + _ADJ_AFTER + r"[\s*_]*[:\uff1a=\-\u2013\u2014]\s*"
                            r"(?:(?:option|choice)\s*)?" + TOKEN, re.I)),
    (1, "boxed", re.compile(r"\\boxed\{\s*(?:\\text(?:bf)?\{\s*)?" + TOKEN)),
    (2, "answer-is", re.compile(r"(?<![A-Za-z])" + _ANSWER_WORD + _ADJ_AFTER + _COPULA + TOKEN, re.I)),
    (2, "correct-option", re.compile(r"\b(?:correct|right|best|closest|nearest|only\s+correct|"
                                     r"most\s+(?:likely|appropriate|suitable|plausible))\s+"
                                     r"(?:option|choice|letter)\b\s*(?:is|would\s+be|:|=|-|\u2192|=>|->)?"
                                     r"\s*" + TOKEN, re.I)),
    # "The correct explanation is A.", "the best description here is (C)": any noun the
    # question asks for, then a letter that ends the clause
    (2, "correct-option", re.compile(r"\b(?:the\s+)?(?:correct|right|best|true|accurate|only\s+"
                                     r"correct|most\s+(?:likely|accurate|appropriate|plausible))\s+"
                                     r"(?:[a-z]+\s+){1,2}?(?:here\s+)?(?:is|would\s+be|must\s+be|:)\s*"
                                     r"(?:(?:option|choice|letter)\s+)?" + TOKEN
                                     + r"(?=[\s*)\]]*(?:[.!,;]|$))", re.I)),
    # "The only option consistent with the passage is (A)", "the option that fits is C"
    # round 7: elimination that ends on the one option left, in any wording ("the only supported
    # option is A", "The remaining option, D (Yellow), …", "the one left is D", "what remains is C")
    (2, "correct-option", re.compile(r"\b(?:(?:only|one|remaining|sole|last\s+remaining)\s+(?:[a-z]+\s+){0,2}?(?:option|"
                                     r"choice|alternative|answer|candidate|one)|(?:option|choice|alternative)\s+"
                                     r"(?:that|which)|(?:one|option|choice|alternative)\s+(?:left|remaining)|"
                                     r"(?:what|all\s+that)\s+(?:remains|is\s+left))"
                                     r"\b(?:[^.;\n()]{0,60}?\s(?:is|would\s+be|remains)\s+|\s*,\s*)(?:(?:option|"
                                     r"choice)\s+)?" + TOKEN, re.I)),
    (2, "choose", re.compile(
        r"\b(?:I|I'd|I'll|we|let's|I'm|I\s+am)\s+(?:would\s+|will\s+|should\s+|going\s+to\s+|"
        r"\w+ly\s+)?(?:pick|choose|select|go(?:ing)?\s+with|say|opt\s+for|vote\s+for|answer|guess|"
        r"lean\s+towards?|settle\s+on|stick\s+with)\s+(?:for\s+)?(?:(?:option|choice|answer|"
        r"letter)\s+)?" + TOKEN, re.I)),
    (2, "choose", re.compile(r"(?:elijo|escojo|je\s+choisis|ich\s+w\u00e4hle|escolho|\u9009\u62e9|"
                             r"\u9009|\u9078)\s*(?:(?:la\s+)?(?:opci[óo]n|option)\s*)?" + TOKEN,
                             re.I)),
    (2, "so", re.compile(r"\b(?:so|thus|therefore|hence|consequently|overall|in\s+conclusion|"
                         r"in\s+summary|that\s+leaves|which\s+leaves|leaving|leaves\s+us\s+with|"
                         r"only)\b[,:]?\s+(?:(?:actually|really|clearly|definitely|probably)\s+)?"
                         r"(?:the\s+answer\s+(?:is|would\s+be)\s+|"
                         r"it(?:'s|\s+is|\s+must\s+be|\s+would\s+be)\s+|I\s+(?:pick|choose)\s+|"
                         r"(?:option|choice)\s+)?" + TOKEN, re.I)),
    (2, "my-pick", re.compile(r"\bmy\s+(?:final\s+)?(?:guess|pick|choice|vote|selection|bet)\s*"
                              r"(?:is|would\s+be|:|=|-)\s*(?:(?:option|choice)\s+)?" + TOKEN, re.I)),
    (2, "believe", re.compile(r"\b(?:probably|likely|most\s+likely|clearly|definitely|certainly|"
                              r"obviously|surely|I\s+(?:think|believe|guess))\s+"
                               r"(?:it'?s\s+|it\s+is\s+|the\s+answer\s+is\s+)?(?:(?:option|choice)"
                               r"\s+)?" + TOKEN, re.I)),
    (2, "it-is", re.compile(r"\b(?:it|that|this|which)(?:'s|\s+is|\s+must\s+be|\s+would\s+be|\s+should"
                            r"\s+be)\s+(?:(?:option|choice|answer)\s+)?" + TOKEN, re.I)),
]
# Any language: an answer word, at most two words, then a capital letter that ends the
# sentence ("Prawidłowa odpowiedź to A.", "Rätt svar är C.").
_STATEMENTS.append((2, "answer-is", re.compile(
    r"(?<![A-Za-z])" + _ANSWER_WORD + r"\w*(?:\s+[^\s\d]{1,12}){0,2}?\s*[:\uff1a]?\s*"
    r"(?:(?P<o>[\(\[])(?P<lf>(?-i:[A-Z]))[\)\]]|(?P<lb>(?-i:[A-Z])))(?=\s*(?:[.!\u3002\u0964]|$))",
    re.I)))
# A closing arrow: "So you'll be late → C", "… ✓ → (B)", "=> D" (the letter ends the line)
_STATEMENTS.append((2, "arrow", re.compile(
    r"(?:\u2192|\u21d2|\u27f6|\u27f9|=+>|-+>)\s*(?:(?:option|choice|answer)\s*:?\s*)?" + TOKEN
    + r"(?=[\s*)\]]*(?:[.!]?[ \t]*$|[.!]?[ \t]*\n))", re.I | re.M)))
# A closing colon: "The Yangtze, at roughly 6,300 km, is the longest: C." (the letter ends the
# reply's last sentence)
_STATEMENTS.append((2, "colon", re.compile(
    r"(?<=\w)(?<![Aa]nswer)[ \t]*:[ \t]*(?:\*\*)?(?:(?P<o>[\(\[])(?P<lf>(?-i:[A-Z]))[\)\]]|(?P<lb>(?-i:[A-Z])))"
    r"(?:\*\*)?[ \t]*[.!]?[ \t*]*$", re.I)))
# "(B) is correct", "Option C is the right answer", "B is the best choice"
_LETTER_IS = re.compile(r"(?:(?:option|choice)\s+)?" + TOKEN + r"[^.,;:\n()\[\]]{0,60}?\s+(?:is|seems|"
                        r"looks|appears)\s+(?:to\s+be\s+)?(?:the\s+)?(?:(?:correct|right|best|true|"
                        r"most\s+(?:likely|appropriate|accurate|plausible))\b(?!\s+only)|(?:final\s+)?"
                        r"answer\b|my\s+(?:final\s+)?(?:answer|choice|pick|guess)\b|only\b(?!\s+(?:one\s+)?(?:that|which)\s+(?:is(?:n't|\s+not)|"
                        r"doesn't|does\s+not|can't|cannot)\b)(?![^.;\n]{0,40}\b(?:wrong|incorrect)\b))",
                        re.I)
# "✅ C", "✓ (B)": a tick before the letter
_MARK_BEFORE = re.compile(r"(?:\u2705|\u2714\ufe0f?|\u2713)\s*(?:(?:option|choice)\s+)?" + TOKEN, re.I)
# "C) Nitrogen - correct", "C: correct", "(C) ✓"
_LETTER_MARK = re.compile(r"(?:(?:option|choice)\s+)?" + TOKEN + r"[.)\]]?[^.,;\n()\[\]]{0,60}?\s*[-:\u2014"
                          r"\u2013]?\s*(?:(?<=[-:\u2014\u2013\s])(?:correct|right|(?<=[-:\u2014\u2013]\s)yes)"
                          r"(?!\w)|"
                          r"\u2713|\u2714|\u2705)", re.I)
_BOLD = re.compile(r"\*\*\s*(?:option\s+)?(?:" + _OPEN + r"\s*(?P<a>" + _L + r")\s*" + _CLOSE
                   + r"|(?P<b>" + _L + r")(?![A-Za-z0-9'])[.):]?)(?P<rest>[^*\n]{0,80})\*\*", re.I)
_FRAMED = re.compile(
    r"(?P<p>" + _OPEN + r")\s*(?P<l1>" + _L + r")\s*" + _CLOSE
    + r"|(?:^|(?<=\s))(?P<l2>" + _L + r")\)"
    + r"|(?m:^)[\s*#>-]*(?P<l3>" + _L + r")(?:[.:](?=\s)|(?=\s+[\u2014\u2013]\s))"
    + r"|\b(?:option|choice|letter|opci[óo]n|op[çc][ãa]o)\s+(?P<l4>" + _L + r")(?![A-Za-z0-9'])"
    + r"|(?:^|(?<=[.,;:!?\u2014\u2013]\s)|(?<=\n))(?P<l5>[A-Z])(?=\s*(?:[.!?]\s|[.!?]?$|\n))",
    re.I | re.M)
_AMBIGUOUS = re.compile(r"(?:\s*,\s*(?:[A-Z]|" + _OPEN + r"\s*" + _L + r"\s*" + _CLOSE
                        + r")(?![A-Za-z0-9]))*"  # "A, B or C are all plausible"
                        r"\s*(?:,\s*)?(?:(?i:or|and|o|ou|oder)\s+|[/&\u6216]\s*)(?:\*\*)?\s*"
                        r"(?:[A-Z\u0410\u0412\u0421\u0415\u041d](?=\s*(?:$|[.,;:!?)\]])|\s+(?i:is|are|"
                        r"would|could|might|seems?|both|either|all|depending|depends)\b|\s+[-\u2014\u2013])|" + _OPEN + r"\s*"
                        + _L + r"\s*" + _CLOSE + r")")
_EITHER = re.compile(r"\b(?:either|both|between)\s*$", re.I)


@dataclass(frozen=True)
class Hit:
    """A letter the reply commits to (or rejects): display index, position, rule."""

    index: int
    start: int
    tier: int
    how: str
    ambiguous: bool = False


def letter_index(raw: str, n: int) -> int | None:
    letter = raw.translate(_LOOKALIKE).upper()
    i = LETTERS.find(letter)
    return i if 0 <= i < n else None


def _norm(text: str) -> str:
    """Lower-case words, punctuation dropped (decimal points and fractions kept)."""
    return " ".join(re.sub(r"[^\w\s%./-]|(?<!\d)[./]|[./](?!\d)", " ", text.lower()).split())


def _bare_ok(text: str, m: re.Match[str], options: list[str]) -> bool:
    """A bare letter (no brackets) stands as a letter: see the module docstring."""
    raw = m.group("lb")
    end = m.end("lb")
    if re.match(r"\.[A-Za-z]", text[end:end + 2]) or re.search(r"[A-Za-z]\.$",
                                                               text[:m.start("lb")]):
        return False  # e.g. / i.e. / U.S.
    head = _norm(text[max(0, m.start("lb") - 40):end])
    if any(len(o.split()) > 1 and o.split()[-1] == raw.lower() and head.endswith(o)
           for o in map(_norm, options)):
        return False  # the last word of an option's text: "Vitamin D", "Plan B"
    if re.match(r"[ \t]*[=\u2248<>+\u00d7\u00f7^]", text[end:end + 3]):
        return False  # a variable in a formula: "C = \u03c0d"
    if raw.isupper() and raw not in "AI":
        return True
    if _FOLLOW_OK.match(text, end):
        return True
    i = letter_index(raw, len(options))
    if i is not None:  # the option's own text follows: "a) sink", "A sink" when A is "sink"
        after = _norm(text[end:end + 80])
        opt = _norm(options[i])
        return bool(opt) and (after == opt or after.startswith(opt + " "))
    return False


def token_index(text: str, m: re.Match[str], options: list[str]) -> int | None:
    """The display index of the letter token matched by ``m`` (None: not a letter here)."""
    if m.group("lf"):
        return letter_index(m.group("lf"), len(options))
    if m.group("lb") and m.group("lb") not in as_text(options) and _bare_ok(text, m, options):
        return letter_index(m.group("lb"), len(options))
    return None


def as_text(options: list[str]) -> set[str]:
    """Options whose whole text is one letter ("a", "I", grades "A" … "F"): a bare such letter
    in the reply is that option's text, not an option letter ("A is the highest grade")."""
    return {o.strip() for o in options if len(o.strip()) == 1}


def _token_span(m: re.Match[str]) -> tuple[int, int]:
    group = "lf" if m.group("lf") else "lb"
    return m.start(group), m.end(group)


# Round 7: a letter, or a list of letters, that the clause then rejects ("so A is out", "so A, B
# and D are out", "so E can be eliminated"): elimination, not a choice.
_SIMPLE_LETTER = r"[(\[]?[A-Z][)\]]?"
_REJECTED_LIST = re.compile(r"[)\]]?(?:\s*,\s*" + _SIMPLE_LETTER + r")*(?:\s*,?\s*(?:and|or|&)\s+" + _SIMPLE_LETTER
                            + r")?\s+(?:is|are|was|were|can\s+be|get|gets|must\s+be)\s+(?:all\s+|both\s+|also\s+|"
                            r"therefore\s+|clearly\s+|definitely\s+|thus\s+)?(?:out|eliminated|ruled\s+out|excluded|"
                            r"wrong|incorrect|discarded|crossed\s+(?:out|off)|rejected|gone)\b")


def statements(text: str, options: list[str]) -> list[Hit]:
    """Every non-negated statement that commits to a letter, in text order."""
    hits: list[Hit] = []
    for tier, how, pattern in _STATEMENTS:
        for m in pattern.finditer(text):
            i = token_index(text, m, options)
            if i is None:
                continue
            start, end = _token_span(m)
            if clause_negated(text, start) or negated_before(text, start) or re.match(
                    r"[)\]]?\s+(?:could|might|may)\b", text[end:]) or _REJECTED_LIST.match(text, end):
                continue  # "… so C could be argued too" offers C; "so A, B and D are out" rejects
            ambiguous = bool(_AMBIGUOUS.match(text, m.end())) or bool(
                _EITHER.search(text[max(0, start - 12):start]))
            hits.append(Hit(i, start, tier, how, ambiguous))
    for m in (*_LETTER_IS.finditer(text), *_LETTER_MARK.finditer(text),
              *_MARK_BEFORE.finditer(text)):
        i = token_index(text, m, options)
        if i is None:
            continue
        start, end = _token_span(m)
        if not negated_before(text, start):
            after = re.match(r"[\)\]\}>]?(?:\s*\*\*)?", text[end:])
            ambiguous = bool(_AMBIGUOUS.match(text, end + (after.end() if after else 0)))
            hits.append(Hit(i, start, 2, "letter-is", ambiguous))
    bold = [(m, letter_index(m.group("a") or m.group("b"), len(options)))
            for m in _BOLD.finditer(text)]
    if len({i for _, i in bold if i is not None}) == 1:  # one bold letter: a statement
        m, i = next((m, i) for m, i in bold if i is not None)
        if i is not None and not negated_before(text, m.start()):
            hits.append(Hit(i, m.start(), 2, "bold"))
    value = json_answer(text)
    if value is not None:
        jm = re.match(r"\s*(?:option\s+)?\(?([A-Za-z])\)?(?:$|[\s.):])", value, re.I)
        if jm and (i := letter_index(jm.group(1), len(options))) is not None:
            hits.append(Hit(i, text.find(value), 1, "json"))
    last = last_line(text, options)
    if last is not None:
        hits.append(last)
    hits += conclusions(text, options)
    hits.sort(key=lambda h: h.start)
    return hits


_CONCLUDES = re.compile(r"^\W*(?:so|thus|therefore|hence|consequently|in\s+conclusion|overall|"
                        r"in\s+summary|that\s+leaves|which\s+leaves)\b", re.I)


def conclusions(text: str, options: list[str]) -> list[Hit]:
    """A concluding sentence ("So the relationship is (B) neutral.") that mentions exactly one
    letter, not negated."""
    out = []
    for m in re.finditer(r"[^.!?\n]+[.!?]*", text):
        sentence = m.group(0)
        if not _CONCLUDES.match(sentence):
            continue
        pos, neg = mentions(sentence, options)
        if not pos and not neg:  # "So the explanation that shows it is D."
            end = re.search(TOKEN + r"[\s*_]*[.!]?[\s*_]*$", sentence)
            i = token_index(sentence, end, options) if end and end.group("lb") else None
            if i is not None and end is not None and end.group("lb").isupper():
                if re.search(r"(?<![A-Za-z])[A-Z]\s*(?:,\s*[A-Z]\s*)*,?\s*(?:and|or|&|/)\s*$",
                             sentence[:end.start()]):  # "So it comes down to B and C."
                    out.append(Hit(i, m.start(), 2, "conclusion", ambiguous=True))
                    continue
                pos = {i}
        if len(pos) == 1 and not neg:
            out.append(Hit(next(iter(pos)), m.start(), 2, "conclusion"))
    return out


def only_letter(text: str, options: list[str]) -> int | None:
    """The reply is nothing but a letter, optionally framed, with or without the option's text
    ("B", "b", "(B)", "**B**", "Option B", "C. Nitrogen", "(C)wolf")."""
    core = re.sub(r"^(?:[\s*_#>`\"']|[\u2192\u21d2]|=+>|-+>)+|[\s*_`\"'.!]+$", "", text)
    m = re.fullmatch(r"(?:(?:option|choice|answer|letter)\s*:?\s*)?" + _OPEN + r"?\s*(" + _L
                     + r")\s*" + _CLOSE + r"?", core, re.I)
    if m:
        return None if core in as_text(options) else letter_index(m.group(1), len(options))
    m = re.fullmatch(r"(?:" + _OPEN + r"\s*(" + _L + r")\s*" + _CLOSE + r"|(" + _L
                     + r")(?:[.):\-]|\s*[\u2014\u2013]|\s-(?=\s)))\s*(.+)", core, re.I | re.S)
    if m:
        i = letter_index(m.group(1) or m.group(2), len(options))
        rest = _norm(m.group(3))
        if i is None or option_lines(text, options):  # "A. Ostrich B. Penguin C. Owl"
            return None
        if any(rest == _norm(o) for o in options if _norm(o)):
            return i  # a different option's text ("D. Jupiter") is left to the cross-check
        # "(A) sink\n\nAfter eating, …", 'B — "a" is the indefinite article': a capital letter
        # that opens the reply (its option's text or prose follows), naming no other letter
        pos, neg = mentions(m.group(3), options)
        bare = {j for t in re.finditer(TOKEN, m.group(3)) if t.group("lb") and t.group("lb").isupper()
                and (j := token_index(m.group(3), t, options)) is not None}  # "…, so actually C."
        lead = (bool(m.group(1)) or (m.group(2).isupper() and m.group(2) != "I")) and not \
            negated_after(core, m.start(3) if m.group(1) else m.end(2))  # "(A) is wrong because …",
        # "B - no." reject it; "C – the Moon doesn't make its own light" is its reason
        if (lead or any(rest.startswith(_norm(o) + " ") for o in options if _norm(o))) and not (
                pos | neg | bare) - {i}:
            return i
    return None


def last_line(text: str, options: list[str]) -> Hit | None:
    """A closing line that is only a letter ("…\\n\\nB", "…\\n\\n(C) Mars"), when the reply does
    not list the options one per line."""
    lines = [(m.start(), m.group(0)) for m in re.finditer(r"[^\n]+", text) if m.group(0).strip()]
    if not lines or (len(lines) < 2 and len(sentences(text)) < 2):
        return None
    starts = sum(1 for _, line in lines if re.match(r"\s*(?:" + _OPEN + r"\s*)?" + _L
                                                    + r"\s*[.):\]]", line))
    if starts > 1:
        return None
    pos, line = lines[-1]
    i = only_letter(line, options)
    if i is None:  # "… = 5^2 = 25. A", "… The sun is a star. (C)True": the last sentence
        said = sentences(line)
        if len(said) > 1:
            start, last = said[-1]
            i, pos = only_letter(last, options), pos + start
    return None if i is None else Hit(i, pos, 2, "last-line")


def mentions(text: str, options: list[str]) -> tuple[set[int], set[int]]:
    """Framed letters the reply mentions: (positive, rejected) display indices."""
    spans = mention_spans(text, options)
    return {i for i, _, neg in spans if not neg}, {i for i, _, neg in spans if neg}


def mention_spans(text: str, options: list[str]) -> list[tuple[int, int, bool]]:
    """Framed letters the reply mentions: (display index, start, rejected) in text order."""
    out: list[tuple[int, int, bool]] = []
    for m in _FRAMED.finditer(text):
        group = next(g for g in ("l1", "l2", "l3", "l4", "l5") if m.group(g))
        raw = m.group(group)
        if group == "l5" and not raw.isupper():
            continue
        if m.group("l2") and (raw in "aAI" or raw.islower()) and not re.match(
                r"\)\s*\S", text[m.end(group):m.end(group) + 3]):
            continue
        i = letter_index(raw, len(options))
        if i is None:
            continue
        out.append((i, m.start(), negated_before(text, m.start()) or negated_after(text, m.end())))
    for m in _LETTER_WITH_TEXT.finditer(text):  # round 7: "C (73) is odd.", the letter framed by its text
        i = letter_index(m.group("l"), len(options))
        if i is None or m.group("t").strip().lower() != options[i].strip().lower() or any(
                st == m.start() for _, st, _ in out):
            continue
        out.append((i, m.start(), negated_before(text, m.start()) or negated_after(text, m.end())))
    return sorted(out, key=lambda x: x[1])


# A capital letter opening a sentence, then its option's own text in parentheses ("C (73) is odd.")
_LETTER_WITH_TEXT = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n))(?P<l>[A-Z])[ \t]+\((?P<t>[^()\n]{1,40})\)")


def lone_letter(text: str, options: list[str]) -> int | None:
    """A short reply (at most 15 words) in which exactly one option letter stands as a letter,
    not rejected: read in any language ("התשובה הנכונה היא A.", "==> D", "คำตอบคือ C")."""
    if len(re.findall(r"\w+", text)) > 15:
        return None
    found = set()
    for m in re.finditer(TOKEN, text):
        i = token_index(text, m, options)
        if i is None or (m.group("lb") and m.group("lb").islower()):
            continue
        start, end = _token_span(m)
        if negated_before(text, start) or negated_after(text, end + 1):
            return None
        found.add(i)
    return found.pop() if len(found) == 1 else None


def letter_run(text: str, options: list[str]) -> bool:
    """Three or more option letters in a row with nothing but spaces between ("A B C D"): the
    reply echoes the letters (small models' word salad), it does not choose."""
    return any(all(letter_index(x, len(options)) is not None for x in m.group(0).split())
               for m in re.finditer(r"(?<![\w(])[A-Z](?:[ \t]+[A-Z]){2,}(?![\w)])", text))


def option_lines(text: str, options: list[str]) -> bool:
    """The reply lists two or more options one per line ("A. Oxygen\\nB. Carbon dioxide"), or
    three or more in a row with their texts ("A. Ostrich B. Penguin C. Owl D. Parrot")."""
    found = {letter_index(m.group(1), len(options)) for m in re.finditer(
        r"(?m)^\s*(?:" + _OPEN + r"\s*)?(" + _L + r")\s*[.):\]]", text)}
    found.discard(None)
    if len(found) > 1:
        return True
    inline = set()
    for m in re.finditer(r"(?<![A-Za-z0-9])(?:" + _OPEN + r"\s*)?([A-Z])\s*[.):\]]\s*", text):
        i = letter_index(m.group(1), len(options))
        if i is None:
            continue
        opt = _norm(options[i])
        if opt and _norm(text[m.end():m.end() + len(options[i]) + 10]).startswith(opt):
            inline.add(i)
    return len(inline) >= min(3, len(options))


_ORD = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
        "fifth": 4, "5th": 4, "sixth": 5, "6th": 5, "seventh": 6, "eighth": 7, "ninth": 8}
_NUM = {"one": 0, "two": 1, "three": 2, "four": 3, "five": 4, "six": 5, "seven": 6, "eight": 7,
        "nine": 8}
_ORDINAL = re.compile(r"\bthe\s+(?P<a>" + "|".join(_ORD) + r"|last)(?:\s+(?:and|or)\s+the\s+"
                      r"(?P<b>" + "|".join(_ORD) + r"|last))?\s+(?P<noun>options?|choices?|"
                      r"alternatives?|ones?)\b(?!\s+(?:of|in)\b)|\b(?:option|choice)\s+(?:number\s+|"
                      r"#\s*)?(?P<n>[1-9]|" + "|".join(_NUM) + r")\b(?![.,]\d)", re.I)


def ordinal_letters(text: str, n: int, *, numeric: bool = False) -> str:
    """Options named by position become letters: "the last option" -> "(D)", "the second
    one" -> "(B)", "option 2" -> "(B)" ("one" is left alone on numeric items, where "the third
    one" is usually a number in the reply's own list)."""
    def letter(word: str) -> str | None:
        w = word.lower()
        i = n - 1 if w == "last" else _ORD.get(w, _NUM.get(w, int(w) - 1 if w.isdigit() else -1))
        return f"({LETTERS[i]})" if 0 <= i < n else None

    def swap(m: re.Match[str]) -> str:
        if m.group("n"):
            return letter(m.group("n")) or m.group(0)
        if numeric and m.group("noun").lower().startswith("one"):
            return m.group(0)
        a, b = letter(m.group("a")), (letter(m.group("b")) if m.group("b") else None)
        if a is None or (m.group("b") and b is None):
            return m.group(0)
        return a if b is None else f"{a} and {b}"

    return _ORDINAL.sub(swap, text)


def listing_follows(text: str, start: int, options: list[str]) -> bool:
    """From ``start`` on, the reply lists three or more options with their texts, one right
    after another ("The answer is: B) 7 C) 8 D) 9 E) 56 A) 6"): an echo, not a choice."""
    pos, listed = start, 0
    while True:
        m = re.match(r"[\s,;]*(?:" + _OPEN + r"\s*)?([A-Z])\s*[.):\]]\s*", text[pos:])
        i = letter_index(m.group(1), len(options)) if m else None
        if m is None or i is None:
            return listed >= 3
        opt = options[i].strip()
        after = text[pos + m.end():]
        if not opt or not after.lower().startswith(opt.lower()):
            return listed >= 3
        pos += m.end() + len(opt)
        listed += 1
