"""RALM replies read by how they are organised, added for the seventh dev file (broad mode;
``ralm`` consults them, docs/judging.md "Seventh round"):

- ``json_reading``: a JSON reply's boolean-ish and status fields decide, whatever the key's
  wording: ``{"answerable": false}``, ``{"status": "insufficient_information"}`` abstain,
  ``{"conflict": true}`` reports a conflict; beside a non-empty ``answer`` field the reply
  asserts both and is undecided (``{"answer": "1815", "answerable": false}``).
- ``report_then_answer``: an abstention or a conflict report followed, at the end of the reply,
  by an answer of its own — a labelled one ("Answer: 1789.", "The answer is Spanish.",
  "不过答案应该是公元前7世纪。") or, after a bare report ("Conflict.", "The documents
  conflict."), a plain statement ("The Nile is 6,650 km long.", "Tokyo."): the reply asserts
  both, so neither is its answer (the sixth round's reading of an abstention beside an answer,
  extended to conflict reports and to answers that need no "However").
- ``tentative_report``: a conflict offered only as a possibility or declined ("Perhaps there is a
  conflict, or perhaps …", "I'm hesitant to call it a conflict"), and doubt whether the documents
  hold the answer ("I'm not sure if the information is enough to answer", "I'm not confident
  that counts as the documents containing the answer — I'll leave it open").
- ``answered_questions``: a keyword the reply asks about and later denies ("Conflict? … No
  conflict.") is no report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from rattle.judges.ralm_lexicon import NEG_WORD, negated
from rattle.judges.reply import sentences

__all__ = ["answered_questions", "json_reading", "report_then_answer", "tentative_report"]

# Keys whose false value says the answer is missing, whose true value says it is missing, or
# whose true value reports a conflict (lower case, spaces and dashes as "_").
_MISSING_IF_FALSE = frozenset({"answerable", "is_answerable", "can_answer", "answer_found", "found",
                               "has_answer", "sufficient", "sufficient_information", "enough_information",
                               "in_documents", "in_context", "supported", "grounded", "answer_in_documents"})
_MISSING_IF_TRUE = frozenset({"unanswerable", "is_unanswerable", "insufficient", "insufficient_information",
                              "not_found", "no_answer", "abstain", "abstained", "missing", "not_answerable"})
_CONFLICT_IF_TRUE = frozenset({"conflict", "conflicting", "conflicts", "has_conflict", "is_conflict",
                               "conflict_detected", "contradiction", "contradictory", "documents_conflict",
                               "disagreement", "inconsistent"})
_STATUS_KEYS = frozenset({"status", "verdict", "outcome", "state", "finding", "label", "result_type"})
_ANSWER_KEYS = frozenset({"answer", "final_answer", "response", "answer_text"})
_TRUE = frozenset({"true", "yes", "1", "y"})
_FALSE = frozenset({"false", "no", "0", "n", "none", "null"})
# A status value, read as words ("insufficient_information" -> "insufficient information")
_STATUS_MISSING = re.compile(r"\b(?:un-?answerable|insufficient|not\s+(?:found|answerable|enough|in)|no\s+"
                             r"(?:answer|information|info|data)|missing|unknown|cannot\s+answer|abstain\w*|"
                             r"n/?a)\b", re.I)
_STATUS_CONFLICT = re.compile(r"\b(?:conflict\w*|contradict\w*|disagree\w*|inconsistent)\b", re.I)
_NO_VALUE = re.compile(r"^\W*(?:|none|null|n/?a|unknown|un-?answerable|conflict\w*|insufficient[\w\s]*|not\s+"
                       r"(?:found|available|stated))\W*$", re.I)


def _flag(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    return None


def json_reading(body: str) -> str | None:
    """``"abstain"``, ``"conflict"`` or ``"undecided"`` when a JSON reply says so by a field (see
    the module docstring); None when it has no such field (the reply is then read as text)."""
    start = body.find("{")
    if start < 0 or body[:start].strip():
        return None
    try:
        obj, _ = json.JSONDecoder().raw_decode(body, start)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    fields = {re.sub(r"[\s-]+", "_", str(k).strip().lower()): v for k, v in obj.items()}
    missing = conflict = False
    for key, value in fields.items():
        flag = _flag(value)
        if flag is not None:
            missing = missing or (key in _MISSING_IF_FALSE and not flag) or (key in _MISSING_IF_TRUE and flag)
            conflict = conflict or (key in _CONFLICT_IF_TRUE and flag)
        elif key in _STATUS_KEYS and isinstance(value, str):
            words = value.replace("_", " ")
            missing = missing or bool(_STATUS_MISSING.search(words))
            conflict = conflict or bool(_STATUS_CONFLICT.search(words))
    if not (missing or conflict):
        return None
    answer = next((v for k, v in fields.items() if k in _ANSWER_KEYS), None)
    answered = (isinstance(answer, (int, float)) and not isinstance(answer, bool)) or (
        isinstance(answer, str) and not _NO_VALUE.match(answer))
    if answered or (missing and conflict):
        return "undecided"  # {"answer": "1066", "conflict": true}: both asserted
    return "conflict" if conflict else "abstain"


# A labelled answer of the reply's own: "Answer: 1789.", "Final answer: X", "The answer is X",
# "答案是…", "Respuesta: X", "Réponse : X", "Antwort: X", "Resposta: X", "Risposta: X", "Antwoord:".
_LABELLED = re.compile(r"^\W*(?:(?:so|thus|therefore|but|however|still|anyway)\W+)?(?:(?:the|my)\s+)?(?:final\s+|short\s+)?"
                       r"(?:answer|respuesta|r[\u00e9e]ponse|antwort|resposta|risposta|antwoord|cevap|odpowied\u017a|"
                       r"\u043e\u0442\u0432\u0435\u0442)\s*(?:is|would\s+be|should\s+be|es|est|ist|[:=])\s*(?P<v>.+)$|"
                       r"^\W*[^\x00-\u024f]{0,4}?(?:\u7b54\u6848|\u7b54\u3048|\uc815\ub2f5|\ub2f5)[^\u3002.]{0,6}?(?:\u662f|\u4e3a|"
                       r"\u306f|[:\uff1a])\s*(?P<w>.+)$", re.I | re.S)  # "不过答案应该是公元前7世纪。"
_KEYWORD = re.compile(r"\b(?:un-?answerable|conflict\w*|contradict\w*|disagree\w*|unknown|n/?a|none|unclear|"
                      r"insufficient|not\s+(?:stated|mentioned|given|found|available|enough))\b|\?\s*$", re.I)
_SOURCES = re.compile(r"\b(?:documents?|docs?|passages?|sources?|context|texts?|provided|retrieved|question|"
                      r"vs\.?|versus|or|and|either)\b|\u6587\u6863|\u6587\u4ef6|\u8d44\u6599|\u6587\u66f8|/", re.I)
# A report taken back in a later sentence: "No conflict.", "Those aren't contradictory."
_DENIED = re.compile(r"(?:\b(?:no|not|never|isn't|aren't|wasn't|nor)\b|n't\b)\s+(?:\w+\s+){0,2}?(?:conflict\w*|"
                     r"contradict\w*|disagree\w*|un-?answerable)", re.I)
_BARE_REPORT_WORDS = 8  # "Grounded answer: The documents conflict." is bare; a report naming values is not


def _labelled_answer(unit: str) -> bool:
    m = _LABELLED.match(unit.strip(" *_#>`"))
    if m is None:
        return False
    value = (m.group("v") or m.group("w") or "").strip(" *_.\u3002")
    return bool(re.search(r"\w", value)) and not _KEYWORD.search(value)


def _plain_answer(unit: str) -> bool:
    """A sentence that states one answer: not about the documents or the question, not two
    values, not a question, no keyword; a value, a name or a short statement."""
    core = unit.strip(" *_#>`()")
    if not re.search(r"\w", core) or core.endswith("?") or _SOURCES.search(core) or _KEYWORD.search(core) or \
            re.search(NEG_WORD, core, re.I):  # "Cevap verilemez.", "Dit is niet te beantwoorden."
        return False
    words = re.findall(r"\w+", core)
    return len(words) <= 4 or bool(re.search(r"\b(?:is|was|are|were)\b[^.!?]*\d", core))


def report_then_answer(body: str, reports: Callable[[str], bool]) -> bool:
    """An abstention or conflict report, then an answer of the reply's own that ends it (see the
    module docstring); ``reports`` says whether a sentence abstains or reports a conflict."""
    joined = re.sub(r"\b(vs|v|cf|approx|ca|c|e\.g|i\.e|No|no|St|Dr|Mr|Mrs|Ms)\.(?=\s)", r"\1", body)  # "Melville vs. Hawthorne"
    units = [s for _, s in sentences(joined) if re.search(r"\w", s)]
    if len(units) < 2 or reports(units[-1]):
        return False
    said = [i for i, u in enumerate(units[:-1]) if reports(u)]
    if not said or any(_DENIED.search(u) for u in units[said[-1]:]):
        return False  # "… — but that's the same person. No conflict. Answer: George Orwell."
    if _labelled_answer(units[-1]):
        return True
    report = units[said[-1]]
    bare = len(report.split()) <= _BARE_REPORT_WORDS and not re.search(r"\d", report)
    return bare and said[-1] == len(units) - 2 and _plain_answer(units[-1])


_TENTATIVE = re.compile(
    # "Perhaps there is a conflict", "there may be a conflict", "it could be a conflict"
    r"\b(?:perhaps|maybe|possibly)\s+(?:there\s+(?:is|'s|are)|it(?:'s|\s+is)|this\s+is)\s+(?:a\s+)?(?:real\s+)?"
    r"(?:conflict|contradiction|discrepancy)|\b(?:there|it|this|that)\s+(?:may|might|could)\s+(?:well\s+)?be\s+"
    r"(?:a\s+)?(?:real\s+)?(?:conflict|contradiction|discrepancy)|"
    # "I'm hesitant to call it a conflict", "not sure I'd call this a conflict"
    r"\b(?:hesitant|reluctant|not\s+(?:sure|comfortable|confident)|unsure|wary)\s+(?:whether\s+)?(?:to\s+|I'?d\s+|I\s+"
    r"(?:would|should)\s+)?(?:call|count|label|flag|treat|report|classify)\s+(?:it|this|that|them)\s+(?:as\s+)?"
    r"(?:a\s+)?(?:conflict|contradiction)|"
    # doubt whether the documents hold the answer
    r"\b(?:not\s+(?:sure|certain|confident|convinced)|unsure|uncertain|doubt(?:ful)?)\s+(?:whether|if|that)\s+"
    r"[^.!?]{0,80}?\b(?:enough|sufficient|answers?|answered|answerable|counts?\s+as|contain\w*|settles?|"
    r"covers?)\b|\b(?:leave|leaving)\s+(?:it|this|the\s+question)\s+open\b", re.I)


def tentative_report(body: str) -> bool:
    """A conflict offered only as a possibility or declined, or doubt whether the documents hold
    the answer (see the module docstring)."""
    return any(not negated(body, m.start()) for m in _TENTATIVE.finditer(body))


_ASKED = re.compile(r"\b(un-?answerable|conflict(?:ing|s)?|contradiction|discrepancy|disagreement|inconsistency)"
                    r"\s*\?+", re.I)
_CONFLICT_FAMILY = r"(?:conflict|contradict|discrepan|disagree|inconsisten)\w*"


def answered_questions(body: str) -> str:
    """The reply without a keyword it asks about ("Conflict?") when it later denies it ("No
    conflict.", "not a conflict"): the question was answered."""
    out = body
    for m in reversed(list(_ASKED.finditer(body))):
        asked = m.group(1).lower()
        family = r"un-?answerable" if "answerable" in asked else _CONFLICT_FAMILY
        later = list(re.finditer(family, body[m.end():], re.I))
        if any(negated(body, m.end() + k.start()) for k in later):
            out = out[:m.start()] + out[m.end():]
    return out
