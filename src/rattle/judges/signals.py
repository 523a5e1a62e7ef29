"""Signals that a reply gives no usable answer, shared by every extractor (docs/judging.md).

- ``cut_off``: the reply stops mid-sentence (a token limit): it ends on a colon, a comma or a
  function word ("…, while", "20% of", "Then add this to the cost price:").
- ``degenerate``: a small model's repetition loop or word salad ("Answer: Answer:", "Jupiter
  Jupiter unanswerable … planet planet", the same four words three times, a run of words
  without any sentence punctuation that repeats one word three times).
- ``undecided``: the reply weighs several options and leaves the choice open ("either A or
  C", "between A and C", "both A and D are good", "A, B or C could all be defensible", "it
  depends", "there isn't a single best choice", "tout dépend", "kommt darauf an").
- ``none_fits``: the reply says that no displayed option is right ("None of the given options
  is correct", "the question seems to be missing the right option", "the correct answer is
  not listed"); "none of the *other* options" is elimination, not this.

These only ever make a reply unmeasured; each extractor documents where it consults them (an
explicit answer statement always wins over them).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter

_FUNCTION_END = re.compile(
    r"(?:[:,(\-\u2013\u2014=+\u00d7\u00f7]|\b(?:The|An|Of|In|This|These|Those|My|Your|Our|Its|Their)|"
    r"\b(?:the|a|an|of|in|on|at|to|for|by|with|from|into|and|or|but|nor|"
    r"is|are|was|were|be|been|has|have|had|will|would|can|could|should|that|which|who|while|"
    r"because|since|than|as|its|their|his|her|this|these|those|then|so|if|when|where|whereas|"
    r"although|though|whether|about|my|your|our|whose|de|la|le|el|y|und|der|die|das|et|est|ist)\b)$")  # lower case (and capitalised words but "A" inside a sentence): "… → A" ends


def cut_off(text: str) -> bool:
    """The reply stops mid-sentence: it ends on ``: , ( -`` or a function word, inside a
    quotation or bracket it opened ('… the famous line "Call me'), or on the last item of a
    list before the predicate its earlier items have ("Marlowe wrote Doctor Faustus, Jonson
    wrote Volpone, and Milton")."""
    if not re.search(r"[.!?\u3002\u0964\u0965]\W*$", text) and (
            text.count('"') % 2 == 1 or text.count("(") > text.count(")") or _unfinished_list(text)):
        return True
    core = re.sub(r"[\s*_`#>\"']+$", "", text)
    return bool(core) and (bool(_FUNCTION_END.search(core)) or bool(_SUBJECT_ONLY.search(core)))


# Round 7: a last sentence that is only a subject with a relative clause, left without its
# predicate ("… An anemometer measures wind speed. The instrument that measures")
_SUBJECT_ONLY = re.compile(r"(?:^|[.!?]\s+)(?:The|A|An|This|These|Those|Its|Their|One)\s+[^.!?,;:\n]*?\b(?:that|which|"
                           r"who)\s+[a-z]+$")


def _unfinished_list(text: str) -> bool:
    """The last sentence is a list of two or more clauses of three or more words each, then
    "and" or "or" and one or two words with no closing mark."""
    last = re.split(r"[.!?\n\u3002]", text.rstrip())[-1]
    items = [i.strip() for i in re.split(r"[,;]", last)]
    if len(items) < 3 or re.search(r"[)\]\"'*]\s*$", text):
        return False
    return bool(re.fullmatch(r"(?:and|or)\s+[\w'-]+(?:\s+[\w'-]+)?", items[-1], re.I)) and all(
        len(i.split()) >= 3 for i in items[-3:-1])


def stopped_thinking(reply: str, text: str) -> bool:
    """The reply opens a reasoning block it never closes and stops mid-sentence or without a
    closing mark ("<think>Hmm, the documents mention"): the model was still thinking, so what
    it said was not its answer yet (``text`` is the prepared reply)."""
    from rattle.judges.reply import unfinished_reasoning

    return unfinished_reasoning(reply) and (cut_off(text) or not re.search(r"[.!?)\]*]\W*$", text))


# Letters with their combining vowel signs (Devanagari "हाँ" is one word, not "ह"), not the danda.
_LETTER_RUN = r"(?:[^\W_]|[\u0900-\u0963\u0966-\u0dff\u0e00-\u0eff])+"


def _words(text: str) -> list[str]:
    return re.findall(_LETTER_RUN + r"(?:'" + _LETTER_RUN + r")?", text.lower())


# A list item ("- 10: not divisible by 4 ✗", "2. …"): lists repeat their phrasing by design.
_LIST_ITEM = re.compile(r"(?m)^[ \t]*(?:[-*\u2022+]|\d{1,2}[.)]|[A-Za-z][.)])[ \t].*$")


_DOUBLE_OK = frozenset({"that", "had", "very", "ha", "no", "yes"})  # "had had", "very very"


def _doubled(words: list[str]) -> int:
    return sum(1 for a, b in itertools.pairwise(words) if a == b and not a.isdigit()
               and a not in _DOUBLE_OK)


def word_salad(text: str) -> bool:
    """Two or more different words doubled in a row ("Egypt Egypt … the the answer answer"): a
    small model's word salad, whose letters or statements are no answer (a loop of one word,
    "B. B. B.", "Water Water Water", is not)."""
    words = _words(text)
    return len({a for a, b in itertools.pairwise(words) if a == b and not a.isdigit()
                and a not in _DOUBLE_OK}) >= 2


def degenerate(text: str) -> bool:
    """A repetition loop or word salad (see the module docstring); the items of a list
    ("- 18: not divisible by 4 ✗") do not count as repetition."""
    text = _LIST_ITEM.sub("", text) if len(_LIST_ITEM.findall(text)) >= 2 else text
    words = _words(text)
    if len(words) < 3:
        return False
    repeats = _doubled(words)
    chopped = cut_off(text)
    unpunctuated = len(words) >= 4 and not re.search(r"[.!?:{}\u3002\uff01\uff1f\u0964\u0965]", text)
    if repeats >= 2 or (repeats and (chopped or unpunctuated)):
        return True
    grams = Counter(tuple(words[i:i + 4]) for i in range(len(words) - 3))
    top = max(grams.values(), default=0)
    if top >= 3 or (top >= 2 and chopped):
        return True
    if unpunctuated:
        counts = Counter(w for w in words if len(w) >= 4)
        if counts and max(counts.values()) >= 3:
            return True
        if len(words) >= 4 and len(set(words)) <= 0.6 * len(words) and not re.search(
                r"[=+\u00d7\u00b7*/^\u221a]", text) and (any(w.isalpha() for w in words)
                                                        or len(set(text.split())) >= 2):
            return True  # "1905 1906 1905 conflict 1906", "1912 1913 1912 1913" (not a calculation)
    return False


_LETTER = r"(?:\(?[A-Z]\)?)"
_UNDECIDED = re.compile(
    # letters left open: "either A or C", "between A and C", "both A and D", "A, B or C could"
    r"\b(?:either|between|both)\s+(?:options?\s+|choices?\s+)?" + _LETTER + r"\s*(?:,\s*"
    + _LETTER + r"\s*)*(?:,?\s*(?:or|and)\s+)" + _LETTER + r"(?![\w'])|"
    r"(?<![\w'])" + _LETTER + r"(?:\s*,\s*" + _LETTER + r")*,?\s+or\s+" + _LETTER
    + r"(?![\w'])(?=\s*(?:[.!?\u2014\u2013]|$|\s+(?:could|would|might|may|both|all|look|seem|depending)\b|"
    r"\s+(?:are|is)\s+(?!(?:both\s+|also\s+|clearly\s+)?(?:wrong|incorrect|out|not|false|ruled|"
    r"eliminated|impossible|unlikely)\b)))|"
    r"(?:^|[-\u2014\u2013:]\s*)" + _LETTER + r"\s+or\s+" + _LETTER + r"\s*[.!?]?\s*$|"
    # "So it comes down to B and C.", "narrowed it down to A or D"
    r"\b(?:comes?\s+down\s+to|narrow(?:s|ed)?\s+(?:it\s+)?down\s+to|(?:left|stuck)\s+with|torn\s+"
    r"between)\s+(?:options?\s+)?" + _LETTER + r"(?:\s*,\s*" + _LETTER + r")*,?\s+(?:or|and)\s+"
    + _LETTER + r"(?![\w'])|"
    # "it depends", "no single best answer", "a matter of taste", other languages
    r"\bit\s+(?:really\s+|all\s+)?depends\b|\bdepend(?:s|ing)\s+on\s+(?:what|how|whether|"
    r"the\s+(?:learner|reader|person|context|definition)|your|you|who)\b|"
    r"\b(?:there\s+(?:is|'s)\s+no|there\s+isn't\s+(?:a|one))\s+(?:single\s+|one\s+)?(?:best|"
    r"right|correct)?\s*(?:choice|answer|option)\b|\bno\s+single\s+(?:best|right|correct)\b|"
    r"\b(?:a\s+)?matter\s+of\s+(?:taste|opinion|preference)\b|\bsubjective\b|"
    r"\bcould\s+go\s+either\s+way\b|\bboth\s+(?:are|look|seem|could\s+be)\s+(?:good|great|"
    r"valid|fine|defensible|plausible|reasonable|correct|acceptable)\b|"
    r"\btout\s+d[ée]pend\b|\bça\s+d[ée]pend\b|\bdepende\s+de\b|\bkommt\s+darauf\s+an\b|"
    r"\bh[äa]ngt\s+(?:\w+\s+){1,4}ab\b|\bkeine\s+eindeutige\s+antwort\b|\beindeutige\s+antwort\s+"
    r"gibt\s+es\s+(?:\w+\s+){0,2}nicht\b|\bdipende\s+da\b|\u53d6\u51b3\u4e8e|\u56e0\u4eba\u800c\u5f02|"
    r"\bje\s+ne\s+peux\s+pas\s+choisir\b|\bno\s+puedo\s+elegir\b|"
    # CJK: "A和D都可以" (both A and D work), "A或C"
    r"(?<![A-Za-z])[A-Z]\s*[\u548c\u4e0e\u53ca\u6216\u3001\u3068]\s*[A-Z](?![A-Za-z])\s*"
    r"(?:\u90fd|\u4e24\u8005|\u3069\u3061\u3089\u3082|\u4e21\u65b9|\u4e5f)", re.I)


# "which is B. Or maybe A, I always mix these up", "so B... but …, so perhaps A": a second
# letter offered after the answer
_SECOND_GUESS = re.compile(r"(?:\b(?:or|but|so)\s+(?:maybe|perhaps|possibly|probably)|,\s*(?:maybe|perhaps|possibly)|\b(?:but|though|although)\s+"
                           r"(?:it|the\s+answer)\s+(?:might|could|may)\s+(?:also\s+|well\s+|just\s+as\s+"
                           r"well\s+)?be)\s+(?:it'?s\s+)?(?:option\s+)?"
                           r"(?:" + _LETTER + r"(?![\w'])|[$\u20ac\u00a3]?\d)", re.I)


# "… so C could be argued too", "B might also work": another letter offered as a possibility
_POSSIBLE = re.compile(r"(?<![\w'])" + _LETTER + r"\s+(?:could|might|may)\s+(?:also\s+|well\s+)?(?:be\s+"
                       r"(?:argued|defended|right|correct|valid|justified)|work|fit)\b")


def second_guess(text: str) -> bool:
    """After its answer the reply offers another letter or value as a possibility ("… B. Or
    maybe A", "81, or maybe 90", "so C could be argued too")."""
    return bool(_SECOND_GUESS.search(text) or _POSSIBLE.search(text))


def undecided(text: str) -> bool:
    """The reply leaves the choice between options open (see the module docstring); a list
    the reply negates ("Definitely not B, C or D — …") leaves nothing open."""
    from rattle.judges.reply import negated_before

    return any(not negated_before(text, m.start()) for m in _UNDECIDED.finditer(text))


_PICK = r"(?:pick|choose|select|name|endorse|declare|rank|recommend|favou?r|commit(?:\s+to)?|settle\s+on|decide\s+on)"
_DECLINES = re.compile(
    # "I can't pick one", "I don't think it's appropriate for me to pick one", "I'd rather not"
    r"(?:\b(?:can't|cannot|can\s+not|won't|will\s+not|wouldn't|would\s+not|shouldn't|should\s+not|unable\s+to|"
    r"rather\s+not)|(?:\bnot\b|n't\b)[^.!?,;]{0,30}?\b(?:going|able|in\s+a\s+position|"
    r"appropriate|right|fair|possible)\s+(?:for\s+me\s+)?to)\s+(?:\w+\s+){0,2}?" + _PICK + r"\s+(?:one|any|a\s+(?:single|winner|side|"
    r"favou?rite)|an?\s+(?:option|answer|winner|side)|between|among|from\s+(?:these|them)|just\s+one|"
    r"only\s+one)\b|"
    # "I can't tell you which of these options is correct", "picking one would be a guess"
    r"\b(?:can't|cannot|can\s+not|unable\s+to)\s+(?:\w+\s+){0,2}?(?:tell|say|know|determine)\s+"
    r"(?:you\s+)?which\s+(?:one|of\s+(?:these|them|the)|option|answer)\b|"
    r"\b(?:picking|choosing|selecting)\s+(?:one|any|an?\s+option)\b[^.!?]{0,30}\bwould\s+be\s+"
    r"(?:(?:just|only|purely|a\s+pure)\s+)?(?:a\s+)?(?:guess|guesswork|arbitrary)\b|"
    # "It's impossible to know in advance", "I'd rather not pretend to know"
    r"\b(?:impossible|not\s+possible|no\s+way)\s+to\s+(?:know|predict|tell|say)\b|"
    r"\brather\s+not\s+(?:pretend|guess|speculate)\b|"
    # Round 7: "it's hard to single one out", "I'd reject the framing rather than pick", "I can
    # see a case for both True and Unable to determine"
    r"\b(?:hard|difficult|impossible|tough)\s+to\s+(?:single\s+(?:one|any(?:\s+one)?|out\s+one)(?:\s+out)?|pick\s+"
    r"(?:just\s+)?one|choose\s+(?:just\s+)?(?:one|between))\b|\breject\s+the\s+(?:framing|premise|question)\b|"
    r"\b(?:see|make)\s+a\s+case\s+for\s+both\b", re.I)


def declines(text: str) -> bool:
    """The reply declines to pick any option ("I can't pick one with any real confidence",
    "I don't think it's appropriate for me to pick one", "it's impossible to know in advance",
    "picking one here would be a guess")."""
    return bool(_DECLINES.search(text))


_NONE_FITS = re.compile(
    r"\bnone\s+of\s+(?:the\s+)?(?:given\s+|listed\s+|provided\s+|available\s+|offered\s+|"
    r"above\s+|displayed\s+|these\s+|those\s+)?(?:(?:two|three|four|five|\d)\s+)?(?:options?|choices?|answers?|answer\s+choices|"
    r"alternatives|them|these|listed\s+\w+|given\s+\w+)\s+(?:is|are|match(?:es)?|fits?|comes?|"
    r"gives?|works?|seems?|equals?|appears?)\b|"
    r"\bnone\s+of\s+the\s+(?:listed|given|provided|offered|displayed)\s+\w+\b|"
    r"\bnone\s+of\s+the\s+(?:above|options)\b|"
    # a sentence that opens by choosing none: "None of these — the capital is Ankara."
    r"(?:^|(?<=[.!?\n]))\W*none\s+of\s+(?:these|those|them|the\s+(?:choices|answers|alternatives))\b"
    r"(?=\s*(?:[.,;:!\u2014\u2013-]|$))|"
    r"\b(?:missing|lacks|lacking|without)\s+the\s+(?:right|correct)\s+(?:option|answer|choice)\b|"
    r"\b(?:the\s+)?(?:right|correct|true|actual)\s+(?:option|answer|value|result)\s+(?:is\s+not|"
    r"isn't|does\s+not\s+appear|doesn't\s+appear)\s+(?:\w+\s+)?(?:listed|among|in\s+the\s+"
    r"(?:list|options|choices)|one\s+of\s+the|(?:given|provided|available|offered)\b|an\s+option)|"
    r"\b(?:the\s+)?(?:right|correct|true|actual)\s+(?:option|answer)\s+is\s+missing\b|"
    r"\b(?:it|that|this|which|the\s+(?:right|correct|true|actual)\s+(?:one|answer|option))\s*(?:'s|is|"
    r"are)\s*(?:not|n't)\s+(?:listed|among\s+the\s+(?:options|choices))\b|"
    r"\bthat's\s+not\s+listed\b|\bno\s+(?:correct|right)\s+(?:option|answer|choice)\b", re.I)


def none_fits(text: str) -> bool:
    """The reply says no displayed option is right (see the module docstring)."""
    return any(not re.search(r"\bother\b", text[max(0, m.start() - 5):m.end()], re.I)
               for m in _NONE_FITS.finditer(text))


_UNSURE = re.compile(r"(?:\b(?:I'?m|I\s+am)\s+|(?<![\w\s])\s*|^\s*)not\s+(?:100\s*%\s+|completely\s+|entirely\s+|"
                     r"totally\s+|quite\s+)?(?:sure|certain|confident)\b(?!\s+(?:why|how|what|who|"
                     r"whether\s+you))|\bI\s+(?:don't|do\s+not)\s+know\b|\bor\s+is\s+it\b|"
                     r"\bI\s+(?:might|may|could)\s+be\s+(?:wrong|mistaken)\b", re.I)


def unsure(text: str) -> bool:
    """The reply doubts its own answer ("I think 63 but I'm not sure", "or is it 73?")."""
    return bool(_UNSURE.search(text))
