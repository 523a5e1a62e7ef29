"""Reading a model's reply before any extractor looks at it (shared by every judge).

- Reasoning blocks (``<think>…</think>``, ``<thinking>``, ``<reasoning>``) are dropped: the
  answer is what follows them (DeepSeek-R1 style). An unclosed block is kept as text.
- Code fences are unwrapped (JSON answers often come fenced); Unicode is NFKC-normalised
  (full-width ``Ｂ`` and ``（B）``), superscript powers are kept as ``^2`` and the minus sign
  U+2212 becomes ``-``.
- A reply that revises itself ("Answer: A. Wait, no: … B") is read from its last revision
  marker first (``after_revision``).
- Negation stays inside a clause: ``negated_before`` (one of the few words before a span:
  "not (A)", "neither (A) nor (C)", "rather than A", "pas", "nicht", "不是"),
  ``negated_after`` ("(A) is wrong", "B - no", "(C) can be ruled out") and
  ``clause_negated`` (anywhere earlier in the clause: "I don't think the answer is B").
- ``json_answer`` reads an ``answer``-like field of a JSON object or Python-style dict.
"""

from __future__ import annotations

import json
import re
import unicodedata

_THINK = re.compile(r"<(think|thinking|reasoning|reflection)>.*?</\1>", re.I | re.S)
_OPEN_THINK = re.compile(r"^\s*<(?:think|thinking|reasoning)>", re.I)
_FENCE = re.compile(r"```[a-zA-Z]*\n?|```")
_SUPER = str.maketrans({"²": "^2", "³": "^3", "¹": "^1", "⁴": "^4"})
_DASHES = str.maketrans({"\u2212": "-", "\u2044": "/", "\u00a0": " ", "\u202f": " ",
                         "\u2009": " ", "\u2018": "'", "\u2019": "'", "\u201c": '"',
                         "\u201d": '"', "\u3010": "[", "\u3011": "]", "\u3014": "[",
                         "\u3015": "]", "\u300c": "[", "\u300d": "]", "\ufeff": ""})
# Revision markers: the model takes back what it said before ("Wait, no", "on second thought",
# "unanswerable — actually, Document 3 says …").
_REVISION = re.compile(
    r"(?:\bwait\b|\bhold on\b|\bon second thought\b|\bactually,?\s+no\b|\bno,?\s+wait\b|"
    r"(?:[\u2014\u2013]|\s-\s)\s*(?:(?:hmm+|um+|oh|well|no)[,.]?\s+)?actually\b|"
    r"(?:[\u2014\u2013]|\s-\s)\s*(?:(?:well|hmm+|um+|oh),?\s+)?no(?=\s*[,.:;!])|"  # "Yes — well, no: …", "X — no, …"
    r"(?<=[.!?\u2026])\s+(?:(?:hmm+|um+|oh|well|no)[,.]?\s+)?actually\b(?!\s+(?:is|was|are|were)\b)|"
    r"\bcorrection\s*:|\blet me (?:reconsider|re-?check|correct (?:that|myself))\b|"
    # "… one of Beethoven's... no, sorry, that's wrong", "… is 6... sorry, that's 2 × 3", "scratch
    # that", "I misspoke"
    r"\bno,?\s+sorry\b|\bsorry,\s+(?:no|my\s+(?:mistake|bad))\b|\bscratch\s+that\b|"
    r"\bI\s+misspoke\b|(?:\.\.\.|\u2026)\s*(?:no|sorry)\b|"
    r"\bI (?:was wrong|made a mistake)\b|"
    # Round 7: a hesitation that says no ("… is... hmm, no.", "True — … Hmm, no: …") and a
    # correction announced in any wording ("Correcting myself:", "Let me correct that",
    # "Self-correction:", "I stand corrected", "Correction —")
    r"(?<=[\w.,;:!?\u2026\u2014\u2013-])\s*(?<!^)(?:hmm+|um+|uh+|erm|oh|ah)[,.]*\s+no\b(?=\s*[,.:;!\u2014\u2013-])|"
    r"\bcorrecting\s+(?:myself|that|this)\b|\bself-?correction\b|\bI\s+stand\s+corrected\b|"
    r"\b(?:let\s+me|I\s+(?:need|have|must|should)\s+to|I(?:'ll|\s+will|\s+must))\s+correct\s+"
    r"(?:myself|that|this|my\s+(?:answer|mistake|error))\b|"
    r"(?:^|(?<=[.!?\n]))\s*correction\s*(?:[\u2014\u2013:]|\s-\s))[\s,.:;!\u2014\u2013-]*(?:\bno\b[\s,.:;!\u2014\u2013-]*)?",
    re.I)
# Clause boundaries: negation does not reach across them.
_BOUNDARY = re.compile(r"[;:!?\n\u3002\uff0c\uff1b\u2014\u2013]|(?<!\d)[.,]|[.,](?!\d)|\s-\s|\b(?:but|however|whereas|"
                       r"while|though|although|yet|instead)\b", re.I)
# Words that negate what follows them within a few words (English and common other languages).
NEGATOR = re.compile(r"\b(?:not|never|neither|nor|no|none|rather than|instead of|except|"
                     r"excluding|other than|eliminated?|eliminates|rule[sd]? out|ruling out|"
                     r"cross(?:ed)? out|pas|nicht|kein|keine|n\u00e3o|non|\u043d\u0435\u0442|"
                     r"\u043d\u0435)\b|n't\b|\u4e0d\u662f|\u4e0d|\u975e", re.I)
# Idioms with a negation word that deny nothing ("not only", "no doubt", "without a doubt").
NOT_NEGATING = re.compile(r"\b(?:not\s+(?:only|just|merely)|no\s+(?:doubt|question|wonder|problem|"
                          r"matter)|without\s+(?:a\s+)?doubt)\b", re.I)
_NEGATED_AFTER = re.compile(
    r"^[^.;,!?\n()]{0,40}?(?:\b(?:is|are|was|seems|looks|appears|sounds)\s+(?:definitely\s+|"
    r"clearly\s+|also\s+|obviously\s+)?(?:wrong|incorrect|false|not\b|out\b|unlikely|"
    r"eliminated|irrelevant|impossible|a distractor)|\bcan(?:not|'t)?\s+be\s+(?:ruled out|"
    r"eliminated|excluded)|\b(?:doesn't|does not|don't|do not|isn't|aren't|wasn't|can't|cannot)\b|"
    r"[-:?\u2014\u2013]\s*(?:no|incorrect|wrong|false)\b|\u2717|\u274c|\u2718)", re.I)


# "or" in the languages models answer in ("vielleicht 625 oder 675", "peut-être 3 ou 5",
# "3 или 5", "3 或 5"); not Dutch "of", which is English "of".
OR_WORD = (r"(?:or|oder|ou|o|\u0438\u043b\u0438|lub|albo|veya|atau|eller|vagy|sau|nebo|alebo|ho\u1eb7c|"
           r"\u6216(?:\u8005)?|\u307e\u305f\u306f|\ub610\ub294)")

# Words that introduce an answer ("the answer is", "Answer:", "I'd go with", "→", "答案是"): an
# option's text or value right after one is a statement.
ANSWER_CUE = (r"(?:\b(?:final\s+)?(?:answer|response|respuesta|r[ée]ponse|antwort|resposta|"
        r"risposta)\b(?:\s+(?:here|then|therefore|thus))?\s*(?:is|would\s+be|should\s+be|must\s+"
        r"be|es|est|ist|[:=\-\u2013\u2014])|\b(?:I|I'd|I'll|we)\s+(?:would\s+|will\s+)?(?:pick|"
        r"choose|select|go\s+with|say|opt\s+for)|\b(?:closest|nearest|correct|right|best)\s+"
        r"(?:option|choice|answer)\s+(?:is|would\s+be|:)|\bequals|####|\\boxed\{|\u2192|=>|->|\u7b54\u6848"
        r"(?:\u662f|[:\uff1a])|\u7b54\u6848\u4e3a)[\s*\"'`]*(?:(?:actually|really|in\s+fact|clearly|"
        r"definitely|probably|indeed)\s+)?[\s*\"'`]*")


def clause_before(text: str, start: int, reach: int = 80) -> str:
    """The text of the clause that ends at ``start`` (back to the last boundary)."""
    head = text[max(0, start - reach):start]
    cut = 0
    for m in _BOUNDARY.finditer(head):
        cut = m.end()
    return head[cut:]


# "the statement that isn't true is (C)", "the one which doesn't belong is B": the negation
# sits in a relative clause that describes what the span is said to be (NOT-questions).
_RELATIVE_NEGATION = re.compile(r"\b(?:that|which|who)\b[^,;]*?(?:\bnot\b|n't\b|\bnever\b)[^,;]*?"
                                r"\b(?:is|are|was|were|would\s+be|must\s+be)\s+(?:(?:option|choice|"
                                r"answer|letter)\s+)?[(\[*\s]*$", re.I)


_WORD = r"(?!(?:is|are|was|were|be|been|has|have|had|does|did|do|it|that|which)\b)[\w'.-]+"
_ITEM = r"(?:the\s+|a\s+|an\s+)?" + _WORD + r"(?:\s+" + _WORD + r"){0,2}"  # a name, not a clause
_NEGATED_LIST = re.compile(r"\b(?:not|neither|never)\s+" + _ITEM + r"(?:\s*,\s*" + _ITEM + r")*\s*(?:,|\bor\b|"
                           r"\bnor\b|,\s*or\b)\s*(?:the\s+|a\s+|an\s+)?$", re.I)


def negated_before(text: str, start: int, *, words: int = 4) -> bool:
    """Is the span at ``start`` negated by one of the few words before it in its clause
    ("not (A)", "it isn't A", "neither (A) nor (C)", "rather than A")?"""
    clause = clause_before(text, start)
    if _RELATIVE_NEGATION.search(clause):
        return False
    if re.match(r"\W*(?:not|neither|never)\b[^.;:!?]*\b(?:or|nor)\s+\S+(?:\s+\S+)?\s*[(\[]?\s*$", clause,
                re.I):
        return True  # "Not Monet (A) or Picasso (B)": the negation covers the whole list
    if re.search(r"\b(?:not|neither|never)\b[^.;:!?]*?\b(?:or|nor)\s+(?:the\s+|a\s+|an\s+)?$",
                 clause, re.I) and not NOT_NEGATING.search(clause):
        return True  # "definitely not the yuan (that's China) or the won": the list goes on
    head = re.split(r"[.;:!?\n]", text[max(0, start - 120):start])[-1]
    if _NEGATED_LIST.search(head) and not NOT_NEGATING.search(head):
        return True  # "Orwell, not Huxley, Bradbury or Wells"
    window = " ".join(re.findall(r"\S+", clause)[-words:])
    if not NEGATOR.search(window):
        return False
    return not NOT_NEGATING.search(window)


# After a dash, a clause with a subject of its own is the letter's reason, not its rejection
# ("C – the Moon doesn't make its own light", "B — Paris isn't in Italy"); "C — doesn't fit",
# "D – it isn't right", "A — this option is wrong" still reject.
_REASON = re.compile(r"^[)\].]?[ \t]*(?:[\u2014\u2013]|\s-)[ \t]*(?!(?:it|this|that|these|those|which|option|choice|"
                     r"answer|letter|one|no|not|none|never|wrong|incorrect|false)\b)(?:(?:the|a|an|its|their|his|"
                     r"her|our|some|all|most|many|every)\s+)?[A-Za-z][\w'-]*(?:\s+(?!(?:option|choice|answer|"
                     r"letter|one)\b)[a-z][\w'-]*){0,2}?\s+(?:doesn't|does\s+not|don't|do\s+not|isn't|is\s+not|"
                     r"aren't|are\s+not|wasn't|was\s+not|weren't|can't|cannot|never|has\s+no|have\s+no)\b")


def negated_after(text: str, end: int) -> bool:
    """Does the clause after the span reject it ("(A) is wrong", "B - no", "(C) can be ruled
    out", "Option D doesn't fit")? Not a reason after a dash with a subject of its own ("C –
    the Moon doesn't make its own light")."""
    rest = text[end:end + 80]
    return bool(_NEGATED_AFTER.search(rest)) and not _REASON.match(rest)


def clause_negated(text: str, start: int) -> bool:
    """A statement whose clause is negated anywhere before it ("I don't think the answer is
    B", "I would not choose A")."""
    clause = clause_before(text, start, reach=120)
    m = re.search(r"\b(?:not|never|doubt)\b|n't\b", clause, re.I)
    return bool(m) and not NOT_NEGATING.search(clause) and not _RELATIVE_NEGATION.search(clause)


def strip_reasoning(reply: str) -> str:
    """The reply without closed reasoning blocks; what follows them if anything does."""
    text = _THINK.sub(" ", reply)
    if not text.strip() and _THINK.search(reply):
        # Nothing after the block: the block itself is all there is.
        inner = re.sub(r"</?(?:think|thinking|reasoning|reflection)>", " ", reply, flags=re.I)
        return inner.strip()
    return _OPEN_THINK.sub("", text).strip()


def normalise(text: str) -> str:
    """The character-level part of ``prepare``: superscript powers as ``^2``, NFKC, the minus
    sign and typographic quotes as ASCII (also applied to option texts)."""
    return unicodedata.normalize("NFKC", text.translate(_SUPER)).translate(_DASHES)


_ANSWER_TAG = re.compile(r"<(answer|final_answer|final|verdict|choice|label)>\s*(.*?)\s*</\1>",
                         re.I | re.S)
_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
# A model's control tokens ("<|endoftext|>", "<|im_end|>", "[/INST]", "[TOOL_CALLS]") are no text.
_CONTROL = re.compile(r"<\|[^<>|\s]{1,40}\|>|\[/?(?:INST|PAD|EOS|BOS|UNK|SEP|CLS|TOOL_CALLS)\]")
_TABLE_RULE = re.compile(r"(?m)^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$\n?")


def _tables(text: str) -> str:
    """A markdown table becomes one line per row, cells joined by ": " (the header row, which
    names the columns, is dropped): "| A | ✗ |" -> "A: ✗"."""
    rule = _TABLE_RULE.search(text)
    if rule is None:
        return text
    head_start = text.rfind("\n", 0, max(0, rule.start() - 1)) + 1
    rows = []
    for line in text[rule.end():].split("\n"):
        if not line.strip().startswith("|") and not line.strip().endswith("|"):
            break
        rows.append(": ".join(c.strip() for c in line.strip().strip("|").split("|")))
    end = rule.end() + sum(len(r) for r in text[rule.end():].split("\n")[:len(rows)]) + len(rows)
    return text[:head_start] + "\n".join(rows) + "\n" + text[end:]


def prepare(reply: str) -> str:
    """Normalised reply text every extractor reads: an ``<answer>X</answer>`` tag is read as
    "Answer: X.", other markup tags are dropped (their text kept), markdown tables become one
    line per row."""
    text = strip_reasoning(_CONTROL.sub(" ", reply or ""))
    text = _FENCE.sub("\n", text)
    text = _ANSWER_TAG.sub(lambda m: f"\nAnswer: {m.group(2)}.\n", text)
    text = _TAG.sub(lambda m: "\n" if re.match(r"</?(?:p|div|br|li|ul|ol|h\d|tr|td|th|table)\b",
                                                 m.group(0), re.I) else "", text)
    text = _tables(text)
    text = _LATEX_TEXT.sub(r"\1", text)  # "\\boxed{\\text{True}}" -> "\\boxed{True}"
    text = _POLAR_NOUN.sub(r"\g<w>", _ASIDE_AFTER_IS.sub(r"\g<is> ", text))  # "is, I believe, a yes" -> "is yes"
    return re.sub(r"[ \t]{2,}", " ", normalise(text)).strip()


# A yes or no stated as a noun phrase is that verdict: "the answer is a clear yes", "A yes from
# me.", "I'd say the answer is a definite True", "my answer is a firm no" (an intensifier or
# none; "a qualified yes" is left as it is); and an aside between a copula and its answer is
# dropped ("The answer is, I believe, a yes.", "It's, I think, B").
_POLAR_NOUN = re.compile(r"\b(?:(?:it|that|this)(?:'s|\s+is|\s+gets|\s+earns)\s+)?(?:a|an)\s+(?:(?:clear|definite|definitive|firm|resounding|big|simple|solid|"
                         r"straightforward|plain|strong|emphatic|confident|unqualified|unambiguous|unequivocal|"
                         r"categorical|flat|hard|clean|sure|certain|decisive|full|final|short)\s+){0,2}"
                         r"(?P<w>yes|no|true|false)\b(?![-'])(?=\s*(?:[,.;:!?)\u2014\u2013-]|$|\s+(?:from|here|"
                         r"for|to|on|overall|then|again)\b))", re.I)
_ASIDE_AFTER_IS = re.compile(r"\b(?P<is>is|was|would\s+be|'s)\s*,\s*(?:I\s+(?:believe|think|guess|suppose|reckon|"
                             r"feel|'d\s+say|would\s+say)|in\s+my\s+(?:view|opinion)|I'm\s+(?:sure|confident)|"
                             r"as\s+far\s+as\s+I\s+can\s+tell)\s*,\s*", re.I)


# LaTeX text wrappers keep their text: "\\text{True}", "\\textbf{B}", "\\mathrm{No}".
_LATEX_TEXT = re.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mathbf|mbox|operatorname)\s*\{([^{}]*)\}")


_TOOL_KEYS = (frozenset({"name", "function", "tool", "tool_name"}),
              frozenset({"arguments", "parameters", "args", "input"}))


def tool_call(text: str) -> bool:
    """The (prepared) reply is only a call to a tool or function, no answer: one or more JSON
    objects with a name and its arguments (``<tool_call>{"name": "calculator", "arguments":
    {…}}</tool_call>``), nothing else in words. A call whose arguments carry an answer field
    (``{"name": "submit", "arguments": {"answer": "C"}}``, ``"letter"``, ``"verdict"``) is an
    answer, read by ``json_answer``."""
    decoder = json.JSONDecoder()
    rest, found, i = [], False, 0
    while (j := text.find("{", i)) >= 0:
        rest.append(text[i:j])
        try:
            obj, i = decoder.raw_decode(text, j)
        except ValueError:
            rest.append("{")
            i = j + 1
            continue
        keys = {str(k).lower() for k in obj} if isinstance(obj, dict) else set()
        if keys & _TOOL_KEYS[0] and keys & _TOOL_KEYS[1]:
            if isinstance(obj, dict) and _answer_tool(obj) is not None:
                return False  # {"tool": "final_answer", "input": "Alexander Graham Bell"}
            if isinstance(obj, dict) and any(isinstance(v, dict) and {str(k).lower() for k in v}
                                             & (_ANSWER_KEYS | _VERDICT_KEYS) for v in obj.values()):
                return False  # {"tool": "record_answer", "args": {"letter": "B"}} carries the answer
            found = True
        else:
            rest.append(text[j:i])
    rest.append(text[i:])
    return found and not re.search(r"\w", "".join(rest))


# A tool named for answering ("answer", "final_answer", "submit", "respond") whose input is
# text: the input is the answer ({"tool": "answer", "input": "Lake Superior"}).
_ANSWER_TOOL = re.compile(r"(?:^|_|\b)(?:answer|respond|response|reply|submit|final|record_answer|"
                          r"give_answer)(?:$|_|\b)", re.I)


def _answer_tool(obj: dict[object, object]) -> str | None:
    fields = {str(k).lower(): v for k, v in obj.items()}
    name = next((v for k, v in fields.items() if k in _TOOL_KEYS[0]), None)
    if not isinstance(name, str) or not _ANSWER_TOOL.search(name):
        return None
    value = next((v for k, v in fields.items() if k in _TOOL_KEYS[1]), None)
    return value.strip() if isinstance(value, str) and value.strip() else None


def unfinished_reasoning(reply: str) -> bool:
    """The reply opens a reasoning block and never closes it: the model was still thinking
    when it stopped, so whatever it said was not its answer yet."""
    return bool(_OPEN_THINK.match(reply or "")) and not re.search(
        r"</(?:think|thinking|reasoning)>", reply or "", re.I)


def after_revision(text: str) -> str | None:
    """The part after the last revision marker, or None when the reply has none."""
    last = None
    for m in _REVISION.finditer(text):
        last = m
    if last is None or last.end() >= len(text):
        return None
    return text[last.end():].strip() or None


def retracts(text: str) -> bool:
    """Does the last revision marker itself say no ("Yes. Wait, no — …", "Actually, no")?"""
    last = None
    for m in _REVISION.finditer(text):
        last = m
    # the marker, or a "no" right before it ("Yes... no wait, …")
    return last is not None and bool(re.search(r"\bno\b", text[max(0, last.start() - 8):last.end()], re.I))


# A small model that goes on to write exercises of its own ("Exercise 2: …", "Question: …
# Answer: …") after answering: only what precedes the first such header answers the question.
# A bare "Q:" heads a new item only when its line asks something ("Q: $0.72" is a table row).
_NEXT_ITEM = re.compile(r"\n\s*(?:#+\s*)?[*_]*(?:(?:exercise|question|problem|task|practice|q(?=\s*#?\s*\d))"
                        r"(?:\s*#?\s*\d+)?[*_]*\s*[:.)][*_]*\s*\S|q[*_]*\s*[:.)][^\n]*\?)", re.I)


def first_item(text: str) -> str:
    """The reply up to a further exercise or question the model wrote of its own ("The answer
    is B) Sarcastic.\n\nExercise 2: … Answer: Joyful." is read as its first answer); a reply
    that opens with such a header keeps it."""
    m = _NEXT_ITEM.search(text)
    if m is None or not re.search(r"\w", text[:m.start()]):
        return text
    return text[:m.start()].strip()


_ANSWER_KEYS = frozenset({"answer", "final_answer", "choice", "option", "verdict", "label",
                          "selected", "result", "letter"})
_VERDICT_KEYS = frozenset({"correct", "is_correct", "accurate", "is_accurate", "true", "is_true",
                           "valid", "is_valid", "factual", "is_factual", "agree", "accept"})


_YES_NO_VALUES = frozenset({"yes", "no", "true", "false", "correct", "incorrect", "y", "n"})


def json_answer(text: str) -> str | None:
    """The value of an ``answer``-like field of a JSON object in the reply, as text."""
    for m in re.finditer(r"\{[^{}]*\}", text, re.S):
        try:
            obj = json.loads(m.group(0))
        except (json.JSONDecodeError, ValueError):
            continue
        if not isinstance(obj, dict):
            continue
        fields = {str(k).lower().replace(" ", "_"): v for k, v in obj.items()}
        tool = _answer_tool(obj)
        if tool is not None:
            return tool
        # an answer field first; else a yes/no field ({"correct": false}, {"is_accurate": true},
        # {"correct": "no"}: a yes/no word as its value counts like a boolean)
        for keys in (_ANSWER_KEYS, _VERDICT_KEYS):
            for key, value in fields.items():
                if key not in keys or (keys is _VERDICT_KEYS and not isinstance(value, bool) and not (
                        isinstance(value, str) and value.strip().lower() in _YES_NO_VALUES)):
                    continue
                if isinstance(value, bool):
                    return "True" if value else "False"
                if isinstance(value, (str, int, float)):
                    return str(value)
    # Python-style dicts and loose JSON: {'answer': 'B'}
    loose = re.search(r"[\"'](?:answer|final_answer|choice|option|verdict|label|letter)[\"']\s*:\s*[\"']?"
                      r"([^\"',}\n]+)", text, re.I)
    return loose.group(1).strip() if loose else None


def sentences(text: str) -> list[tuple[int, str]]:
    """(start offset, sentence) pairs: split at . ! ? 。 । and newlines, keeping decimals whole."""
    out = []
    for m in re.finditer(r"(?:[^.!?\n。！？\u0964\u0965]|\.(?=\d)|\.(?=[A-Za-z]\.))+[.!?。！？\u0964\u0965]*", text):
        s = m.group(0)
        if s.strip():
            out.append((m.start() + len(s) - len(s.lstrip()), s.strip()))
    return out
