"""Does a letter agree with what the reply says beside it? (``judges.choice``)

A letter the reply commits to is taken back to unmeasured when the reply, at that very
place, names a different option: "The answer is (A) Australia." where (A) is New Zealand,
"D) 9" where (D) is 7, "(C) True" where (C) is False. The same holds when the clause that
leads into the statement states a different option as the answer ("6 × 9 = 54, so the answer
is B" where (B) is 56; "The largest mammal is the blue whale, so the answer is D"), and on
True/False items when the sentence opens with the opposite verdict ("Yes, (A)." where (A) is
False). A careful grader cannot tell which of the two the model meant, so the reply is
unmeasured (STYLE.md 7), not read by its letter alone.
"""

from __future__ import annotations

import re

from rattle.judges import numbers, polarity
from rattle.judges.option_text import occurrences, option_pattern
from rattle.judges.reply import clause_before, negated_before, sentences

_TOKEN_AT = re.compile(r"[ \t*_]*(?:option[ \t]+|choice[ \t]+)?[\(\[]?[ \t]*[A-Za-z][ \t]*[\)\]]?",
                       re.I)
_LEAD_IN = re.compile(r"(?:,|\s)\s*(?:so|therefore|thus|hence|which\s+(?:means|is)|i\.e\.|(?:the\s+)?"
                      r"answer(?:\s+is)?)\b[^.;!?\n]*$", re.I)
_YES_NO = {"true": "yes", "yes": "yes", "false": "no", "no": "no",
           "unable to determine": "undetermined", "cannot be determined": "undetermined"}
# The result a computation states: "6 × 7 = 42." (not a step inside it: "9 = 3 × 3"), or a
# sentence that is only a value ("Eight. Answer: D")
_RESULTS = tuple(re.compile(lead + r"\s*(?P<v>[^=\u2248\n]{1,25}?)\s*[.!]?\s*$", re.I) for lead in (
    r"\b(?:answer|result)\s+(?:is|would\s+be|:)", r"[=\u2248]", r"^"))  # "The answer is 750."


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())}


def _named(part: str, options: list[str], values: list[numbers.Value | None] | None,
           *, at_end: bool) -> int | None:
    """The option a short stretch of text restates (all of it, or its end)."""
    core = re.sub(r"^[\s*_:.)\]\-\u2013\u2014]+|[\s*_.:!]+$", "", part)
    if not core:
        return None
    if values is not None:
        found = numbers.values(core)
        if at_end and found and re.search(r"[-+*/\u00d7\u00f7\u00b7^]\s*$", core[:found[-1].start]):
            return None  # a step inside an expression ("9 = 3 × 3"), not a stated value
        if at_end and found and re.search(r"\b(?:than|over|under|above|below|exceeds?|beyond|except|besides|"
                                          r"unlike|instead\s+of|not)\s*$", core[:found[-1].start], re.I):
            return None  # a comparison ("… and is larger than 6 → D"), not the result
        if found and (found[-1].end >= len(core.rstrip(" %")) - 6 if at_end
                      else found[0].start == 0 and len(found) == 1):
            return numbers.match(found[-1] if at_end else found[0], values)
        return None
    best: tuple[int, int] | None = None
    for i, opt in enumerate(options):
        pattern = option_pattern(opt)
        if pattern is None:
            continue
        m = None
        if at_end:
            m = next((x for x in pattern.finditer(core) if x.end() == len(core)
                      and not negated_before(core, x.start(), words=3)), None)
        else:
            m = pattern.fullmatch(core)
        if m is not None and (best is None or m.end() - m.start() > best[1]):
            best = (i, m.end() - m.start())
    return None if best is None else best[0]


def _only_named(clause: str, options: list[str]) -> int | None:
    """The one option a clause names, not negated ("The whale shark is the largest")."""
    if re.search(r"\b(?:not|never|no|neither|nor)\b|n't\b", clause, re.I):
        return None
    named = set()
    for i, opt in enumerate(options):
        pattern = option_pattern(opt)
        if pattern is not None and any(not negated_before(clause, m.start(), words=3)
                                       for m in pattern.finditer(clause)):
            named.add(i)
    return named.pop() if len(named) == 1 else None


def _sentence_before(text: str, start: int) -> str:
    cut = 0
    for m in re.finditer(r"[!?\n]|\.(?!\d)", text[:start]):
        cut = m.end()
    return text[cut:start]


def disagrees(text: str, start: int, index: int, options: list[str], *, question: str = "",
              values: list[numbers.Value | None] | None = None) -> bool:
    """Does the reply name another option right beside the letter at ``start``?"""
    m = _TOKEN_AT.match(text, start)
    end = m.end() if m else start + 1
    rest = text[end:end + 100]
    paren = re.match(r"[ \t]*[,:.\-\u2013\u2014]?[ \t]*\(([^()\n]{1,40})\)", rest)  # "C (9)"
    lead = re.match(r"[ \t]*[,:][ \t]*", rest)  # "B, true": the whole next clause restates
    # "D. Jupiter", "B — Paris": the whole next sentence restates
    stop = re.match(r"[ \t]*(?:[.)\u2014\u2013]|[ \t]-)[ \t]+", rest)
    hard = r"[,;(\n]|\s[\u2014\u2013-]\s|[\u2014\u2013]|\.(?:\s|$)"
    after = paren.group(1) if paren else (
        re.split(hard, rest[lead.end():], maxsplit=1)[0] if lead else
        re.split(r"[.!?\n]", rest[stop.end():], maxsplit=1)[0] if stop else
        re.split(hard + r"|\s(?:because|since|as|which|is|was|are)\s", rest, maxsplit=1)[0])
    named = _named(after, options, values, at_end=False)
    if named is not None and named != index:
        return True
    sentence = _sentence_before(text, start)
    lead_in = _LEAD_IN.search(sentence)
    if lead_in is not None and not _agrees_after_lead_in(sentence[lead_in.start():], index, options, values):
        clause = sentence[:lead_in.start()]  # "6 × 9 = 54, so the answer is B"
        named = _named(clause, options, values, at_end=True) if values is not None else _only_named(
            clause, options)
        restates = values is not None or len(_stems(clause) & _stems(question)) >= 2
        if named is not None and named != index and restates:
            return True
    tail = clause_before(text, start)
    if tail.strip():  # "Heart (B)", "32 (D)"
        named = _named(tail, options, values, at_end=True)
        if named is not None and named != index:
            return True
    if values is not None and _computed_before(text, start, index, values, numbers.asked(question)):
        return True
    if values is None and _restated_before(text, start, index, options, question):
        return True
    said = polarity.opener(sentence)  # "Yes, (A)." where (A) is False
    polar = _YES_NO.get(options[index].strip().lower().rstrip("."))
    return (polar is not None and said in ("yes", "no") and said != polar) or opens_otherwise(
        text, index, options)


_LABEL_END = re.compile(r"(?:[\s\u2014\u2013,:;-]*(?:(?:the|my)\s+)?(?:final\s+)?(?:answer|option|choice)(?:\s+is)?"
                        r"|\s*(?:\u2192|=>|->))?[\s(\[*:=-]*$", re.I)


def _agrees_after_lead_in(between: str, index: int, options: list[str],
                          values: list[numbers.Value | None] | None) -> bool:
    """After the lead-in ("so …") the reply itself states the letter's option right before the
    letter ("Girls are 60%, so boys are 40% → A", "…, so 24 hours give 86,400 s — the answer
    is A"): that is the result the letter answers, the clause before it is working."""
    head = _LABEL_END.sub("", between)
    return _named(head, options, values, at_end=True) == index


def opens_otherwise(text: str, index: int, options: list[str]) -> bool:
    """On True / False / Unable to determine items: does the reply open with a plain verdict
    that another option states ("No, Paris is in France. The answer is C." where (C) is Unable
    to determine; "Yes, sharks are mammals. Answer: False")?"""
    polar = _YES_NO.get(options[index].strip().lower().rstrip("."))
    clause = re.split(r"[,;:.!?\n\u2014\u2013]", text, maxsplit=1)[0]
    if text[len(clause):len(clause) + 1] == "?":
        return False  # "True? Hmm, … Unable to determine." asks first, then answers
    if polar is None or len(clause.split()) > 4 or re.search(
            r"\b(?:probably|likely|maybe|perhaps|think|guess|believe|seems?)\b", clause, re.I):
        return False
    if polarity.opens_undetermined(clause):
        return polar != "undetermined"  # "No se puede determinar: …" opens with no "no"
    said = polarity.opener(clause)
    return said in ("yes", "no") and said != polar


def _label_only(head: str) -> tuple[int, bool]:
    """Where the letter's own sentence starts in ``head`` (the text before the letter), and
    whether that sentence is no more than a label ("Answer:", "So")."""
    cut = max(head.rfind("\n"), *(m.end() for m in re.finditer(r"[.!?](?=\s)", head)), -1)
    own = head[cut + 1:]
    return cut, not own.strip(" \t*_#") or bool(re.fullmatch(
        r"\s*[*_#]*\s*(?:(?:the\s+)?(?:final\s+)?answer|so|thus|therefore|hence)\b[^.!?\n]*", own, re.I))


def _restated_before(text: str, start: int, index: int, options: list[str], question: str) -> bool:
    """The sentence right before a bare label restates the question with another option ("Van
    Gogh painted The Starry Night. Answer: A" where (A) is Monet)."""
    cut, label = _label_only(text[:start])
    before = sentences(text[:cut + 1])
    if not label or not before or not question:
        return False
    last = before[-1][1]
    hits = occurrences(last, options)
    named = {h.index for h in hits}
    if len(named) != 1 or any(h.negated for h in hits) or re.search(
            r"\b(?:not|never|no|wrong|incorrect|false|out)\b|n't\b", last, re.I):
        return False
    return named != {index} and len(_stems(last) & _stems(question)) >= 2


def _computed_before(text: str, start: int, index: int, values: list[numbers.Value | None],
                     asked: set[str]) -> bool:
    """The sentence right before the letter's states a computed result that is another
    option ("6 × 7 = 42. Answer: A" where (A) is 36); a value of another unknown than the one
    the question asks for is no result ("Then y = 10 - 7 = 3." for "What is x?")."""
    head = text[:start]
    cut, label = _label_only(head)
    if not label:
        return False  # the letter's own sentence says more than a label
    before = [s for _, s in sentences(re.sub(r"\([^()]*\)", " ", head[:cut + 1]))]
    if not before:
        return False
    var = re.match(r"\W*(?:(?:then|so|and|thus|hence),?\s+)?\$*\s*([a-z])\s*=", before[-1], re.I)
    if var is not None and asked and var.group(1) not in asked:
        return False
    m = next((m for pattern in _RESULTS if (m := pattern.search(before[-1]))), None)
    found = numbers.values(m.group("v")) if m else []
    if m is None or len(found) != 1 or found[0].start != 0 or found[0].end < len(
            m.group("v").rstrip(" .!")) - 8:
        return False
    named = numbers.match(found[0], values)
    return named is not None and named != index
