"""Abstention and conflict detection in RALM replies (imperfect-retrieval-ralm.txt, Park & Lee,
TACL 2024, Tables 4, 7 and 9).

Two named modes:

- ``mode="paper"`` (default) looks for the strings the paper's prompts ask for: the Unans
  prompt says "If the answer cannot be found, write 'unanswerable'", the Conflict prompt says
  "respond with 'conflict'". The word counts unless it is negated ("it is not unanswerable:
  Paris", "There is no conflicting information; it is X", "no conflict").
- ``mode="broad"`` also accepts other phrasings of the same act: abstention ("the documents do
  not say", "not mentioned", "I don't know", "not enough information", "N/A") and conflict
  ("the documents disagree", "contradictory", "Document 1 says X, while Document 3 says Y").
  An abstention that goes on to answer anyway ("The documents don't say, but it is Paris")
  is an answer.

Reasoning blocks (``<think>…</think>``) are dropped in both modes: the answer is what follows.
``classify_reply`` maps a reply to the labelled sets' vocabulary (abstain / answer /
conflict; None for a reply with no content).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rattle.judges import ralm_lexicon as lex
from rattle.judges import ralm_mixed, ralm_structure, signals
from rattle.judges.ralm_content import has_content, placeholder_only
from rattle.judges.reply import after_revision, first_item, prepare, tool_call

__all__ = ["Detection", "classify_reply", "detect_conflict", "detect_unanswerable", "has_content", "says_conflict",
           "says_unanswerable", "unusable"]

Mode = Literal["paper", "broad"]
Prompt = Literal["unans", "conflict", "normal"]
MODES: tuple[Mode, ...] = ("paper", "broad")

# Paper strings (Table 9 prompts): 'unanswerable', 'conflict'.
_UNANSWERABLE = re.compile(r"\bun-?answerable\b", re.I)
_CONFLICT_WORD = re.compile(r"\bconflict(?:s|ing|ed)?\b|\bconflict-free\b", re.I)
# An answer stated after the abstention word ("Unanswerable questions aside, the answer is X").
_ANSWER_AFTER = re.compile(r"\b(?:the\s+)?(?:final\s+)?answer\s+(?:is|would\s+be|[:=])\s*(?!(?:not|"
                           r"unanswerable|unknown|none|unclear|that|n/?a)\b)[\"'*]*\w", re.I)
# ... unless the reply goes on to answer anyway.
_ANSWERS_ANYWAY = re.compile(
    r"\b(?:but|however|though|although|yet)\b[\s,]*(?:\w+ly,?\s+)?(?:based\s+on\s+(?:my|general)\s+knowledge"
    r"|from\s+(?:my|general)\s+knowledge|according\s+to\s+(?:my|general)\s+knowledge|"
    r"i\s+(?:recall|remember|know)\b|"
    # "…, although most people know it's Rome", "…, but the symbol is Na"
    r"(?:(?!not\b|never\b|if\b|whether\b)\w+\s+){0,4}?it(?:\s+is|\s+was|'s)\b|the\s+(?:\w+\s+){0,2}?"
    r"(?:is|was)\s+(?!not\b|unknown\b|unclear\b|missing\b)[\"'*]*[A-Z0-9]|"
    r"the\s+answer\s+is\b|i\s+(?:believe|think)\b|it'?s\s+(?:likely|probably)\b|"
    r"(?:likely|probably)\b|"
    # "…, but Document 2 states that Marie Curie was born in 1867": a document answers
    r"(?:doc(?:ument)?|passage|source|article)\s*#?\s*\d+\s+(?:clearly\s+|explicitly\s+|does\s+)?(?:says?|"
    r"states?|gives?|names?|lists?|reports?|shows?|notes?|confirms?|identifies|credits?|dates?)\b(?!\s+nothing))",
    re.I)

# Refusing the task is not abstaining for lack of information (unmeasured in broad mode).
_SORRY = (r"(?:(?:(?:I'm|I\s+am)\s+(?:sorry|afraid)|sorry|unfortunately|apologies|I\s+apologi[sz]e)[,.]?\s*"
          r"(?:but\s+)?)?(?:as\s+an\s+ai(?:\s+(?:language\s+)?model)?,?\s*)?")
# "I'm sorry, I can't discuss the deaths of real people", "I'd rather not provide information
# about political ideologies": the reply declines the topic (an abstention phrase wins).
_REFUSAL = re.compile(r"^\W*" + _SORRY + r"(?:I|we)(?:\s+|(?='))(?:can't|cannot|can\s+not|won't|"
                      r"will\s+not|am\s+unable\s+to|'m\s+unable\s+to|(?:am|'m)\s+not\s+(?:able|allowed|"
                      r"permitted|going)\s+to|(?:must\s+|have\s+to\s+)?decline\s+to|(?:am|'m)\s+not\s+comfortable|refuse\s+to|(?:'d|would)\s+(?:rather|prefer)\s+not(?:\s+to)?|prefer\s+not\s+to|"
                      r"(?:don't|do\s+not)\s+feel\s+comfortable)\s+(?:help|assist|answer|respond|comply|"
                      r"discuss|say|comment|share|provide|talk|speculate|engage|give|disclose|offer|"
                      r"weigh\s+in|reproduce|explain|write|generate|repeat)(?:ing)?\b|^\W*as\s+an\s+ai\b", re.I)
# Declining the topic or the request, not lacking the information: a withholding verb ("I can't
# provide that information", "I can't assist with that"), a class of questions ("I cannot answer
# questions related to gambling") or no opinions ("As an AI, I don't have opinions on …"). Only
# where the sentence speaks of no documents ("I can't provide an answer from these documents"
# abstains), and inability alone ("I am unable to answer.") stays an abstention.
_TOPIC_REFUSAL = re.compile(
    r"^\W*" + _SORRY + r"(?:I|we)\s+(?:can't|cannot|can\s+not|won't|will\s+not|am\s+unable\s+to|'m\s+"
    r"unable\s+to|(?:am|'m)\s+not\s+(?:able|allowed|permitted)\s+to)\s+(?:help|assist|comply|discuss|share|"
    r"disclose|comment|talk|speculate|engage|weigh\s+in|provide(?!\s+(?:you\s+with\s+)?(?:an?|the|any)\s+"
    r"(?:\w+\s+)?answer)|(?:answer|respond\s+to|address)\s+(?:any\s+)?(?:questions?|queries|requests?)\s+"
    r"(?:about|on|related|regarding|concerning|involving|that))\b|"
    r"^\W*" + _SORRY + r"I\s+(?:don't|do\s+not)\s+have\s+(?:personal\s+|any\s+)?(?:opinions?|views?|"
    r"feelings?|beliefs?|preferences?|political\s+\w+)\b", re.I)
_DOCUMENT_WORDS = re.compile(r"\b(?:documents?|passages?|sources?|context|texts?|provided|given|retrieved)\b",
                             re.I)
# Offering the abstention/conflict only as a possibility beside an answer ("Charles III, …
# so it might be unanswerable", "France, or unanswerable if …", "Rembrandt / unanswerable").
_TENTATIVE = re.compile(
    r"\b(?:might|may|could)\s+(?:well\s+)?(?:be|count\s+as|mean)\s+(?:a\s+|an\s+)?(?:un-?answerable|"
    r"conflict(?:ing)?)|\b(?:possibly|perhaps|maybe|probably)\s+(?:a\s+|an\s+)?(?:un-?answerable|"
    r"conflict)|\b(?:un-?answerable|conflict(?:ing|s)?)\s*\?|\b(?:un-?answerable|conflict(?:ing|s)?)\s*,?"
    r"\s*(?:maybe|perhaps|possibly|probably)\b|\bor\s+(?:it(?:'s|\s+is)\s+)?(?:un-?answerable|"
    r"(?:a\s+)?conflict)|"
    # "Lisbon, unless the documents conflict — I can't tell."
    r"\b(?:unless|if)\s+(?:the\s+)?(?:documents?|sources?|passages?)\s+(?:\w+\s+)?(?:conflict|disagree|"
    r"differ|contradict)|/\s*(?:un-?answerable|conflict)\b|\b(?:un-?answerable|conflict)\s*/|"
    r"\b(?:whether|if)\s+(?:that|this|it)\s+(?:counts\s+as|is)\s+(?:a\s+)?(?:conflict|un-?answerable)|"
    # "Renaissance (if the documents refer to her album) — otherwise unanswerable"
    r"\b(?:otherwise|else|if\s+not)\b[,\s]*(?:it(?:'s|\s+is|\s+would\s+be)\s+)?(?:un-?answerable|"
    r"(?:a\s+)?conflict)|"
    # "Possibly around 1 million, though the documents may not fully agree"
    r"\b(?:documents?|sources?|passages?|they|both|the\s+two)\s+(?:\w+\s+)?(?:may|might|could)\s+(?:not\s+"
    r"(?:fully\s+|entirely\s+|quite\s+|all\s+)?(?:agree|match|"
    r"line\s+up|be\s+consistent)|(?:slightly\s+)?(?:disagree|differ|conflict|contradict))",
    re.I)
_AGREE = re.compile(r"\b(?:all|both|every)\s+(?:of\s+)?(?:the\s+)?(?:documents?\s+|sources?\s+|passages?\s+)?"
                    r"agrees?\b|\b(?:documents?|sources?|passages?)\s+(?:all\s+)?agree\b|\bare\s+"
                    r"consistent\b|\b(?:all|both|every)\s+(?:of\s+)?(?:the\s+)?(?:documents?|sources?|"
                    r"passages?)\s+(?:all\s+)?(?:says?|states?|gives?|reports?|lists?|names?|confirms?)\b|"
                    r"\b(?:documents?|sources?|passages?)\s+all\s+(?:say|state|give|report|list|name|"
                    r"confirm)\b", re.I)


@dataclass(frozen=True)
class Detection:
    """Whether a reply abstains / reports a conflict, and the rule that decided."""

    found: bool
    how: str

    def __bool__(self) -> bool:
        return self.found


# A keyword the reply asks about or labels, then denies: "Unanswerable? No — 1969.", "Conflict?
# None. Lake Baikal", {"conflict": false, "answer": "1947"}.
_DENIED = re.compile(r"[\"'*]*\s*[?:=]\s*[\"'*]*\s*(?:no|none|nope|nah|false|null|0|no\s+way|hardly|"
                     r"not\s+(?:at\s+all|really|here|found|detected|in\s+the\s+least)|(?:of\s+course|"
                     r"definitely|certainly)\s+not|far\s+from\s+it)(?=\s*(?:[.,;:!}\"'\u2014\u2013-]|$))|"
                     # "unanswerable is not the right response here — Ding Liren"
                     r"[\"'*]*\s+(?:is|was|would\s+be)\s*(?:not|n't)\s+(?:the\s+)?(?:right|correct|"
                     r"appropriate|accurate|case|applicable)\b|[\"'*]*\s+(?:is|was|would\s+be)\s+(?:the\s+)?"
                     r"(?:wrong|incorrect|inappropriate)\b|[\"'*]*\s+(?:does\s+not|doesn't)\s+apply\b",
                     re.I)


def _first_unnegated(pattern: re.Pattern[str], text: str, *,
                     wars: bool = False) -> re.Match[str] | None:
    """The first keyword neither negated nor denied (with ``wars``: nor naming a war)."""
    for m in pattern.finditer(text):
        if not lex.negated(text, m.start()) and not _DENIED.match(text, m.end()) and not (
                wars and _names_a_war(text, m)):
            return m
    return None


# "The Korean conflict (Korean War)", "the Northern Ireland conflict", "(the conflict formally
# ended in 1919)": the word names a war, in a sentence about no documents.
_WAR_BEFORE = re.compile(r"\b(?i:the|a|an|this|that)\s+(?:(?:[A-Z][\w'\u2013-]*|(?i:armed|military|border|"
                         r"civil|ethnic|regional|violent|bloody|brief|bitter|long|decades-long|\w+est)|"
                         r"(?i:most\s+\w+))\s+){1,4}$")  # "the deadliest conflict", "the Korean conflict"
_WAR_AFTER = re.compile(r"\s+(?:(?:that|which)\s+)?(?:\w+ly\s+)?(?:ended|began|started|lasted|broke\s+out|"
                        r"took\s+place|erupted|escalated|claimed|killed|continued|raged|devastated|destroyed|"
                        r"divided|ravaged)\b", re.I)


def _names_a_war(text: str, m: re.Match[str]) -> bool:
    start = max(text.rfind(c, 0, m.start()) for c in ".!?\n") + 1
    end = min((i for i in (text.find(c, m.end()) for c in ".!?\n") if i >= 0), default=len(text))
    head = text[start:m.start()]
    if _AGREE.search(text[start:end]) and re.search(r"\b(?:the|this|that)\s+$", head, re.I):
        return True  # "The documents agree that the conflict ended with the 1953 armistice."
    if re.search(r"\b(?:documents?|passages?|sources?|texts?|articles?|answers?)\b", text[start:end], re.I):
        return False
    return bool(_WAR_BEFORE.search(head)) or (bool(re.search(r"\b(?:the|a|an)\s+$", head, re.I))
                                               and bool(_WAR_AFTER.match(text, m.end())))


def _undenied(body: str) -> str:
    """The reply without the keywords it denies ("Conflict? No — Shakespeare." -> " — Shakespeare.")."""
    for pattern in (_UNANSWERABLE, _CONFLICT_WORD):
        body = re.sub(r"(?:" + pattern.pattern + r")" + _DENIED.pattern, " ", body, flags=re.I)
    return body


@lru_cache(maxsize=16)  # a suite asks both detectors about one reply: prepared once
def _body(text: str, mode: str) -> str:
    """The reply as the detectors read it; in broad mode up to any exercise the model went on
    to write of its own, and from its last revision ("unanswerable — actually, Document 3 says
    … 1912")."""
    body = prepare(text or "")
    if mode == "paper":
        return body
    body = first_item(body)
    revised = after_revision(body)
    body = revised if revised is not None and re.search(r"\w", revised) else body
    return ralm_structure.answered_questions(body)  # "Conflict? … No conflict." asked, then denied


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        from rattle.errors import ConfigError

        raise ConfigError(f"unknown detection mode {mode!r}; use 'paper' (the papers' strings) "
                          "or 'broad' (other phrasings too)")


def detect_unanswerable(text: str, *, mode: Mode = "paper") -> Detection:
    """Does the reply abstain (the paper's 'unanswerable'; more phrasings in broad mode)?"""
    _check_mode(mode)
    body = _body(text, mode)
    word = _first_unnegated(_UNANSWERABLE, body)
    if word is not None:
        if mode == "broad" and (_ANSWER_AFTER.search(body, word.end())
                                or _ANSWERS_ANYWAY.search(body, word.end()) or _set_aside(body, word)):
            return Detection(False, "abstains, then answers")
        return Detection(True, "unanswerable")
    if mode == "paper":
        return Detection(False, "paper: no 'unanswerable'")
    shaped = ralm_structure.json_reading(body)  # {"answerable": false}
    if shaped is not None:
        return Detection(shaped == "abstain", "json field")
    m = next((m for m in lex.ABSTAIN.finditer(body) if not lex.negated(body, m.start())
              and not _DENIED.match(body, m.end()) and not lex.of_other_documents(body, m.start())),
             None)
    if m is None:
        m = lex.negated_documents(body)
    if m is None:
        return Detection(False, "no abstention")
    if _set_aside(body, m):  # "Although the documents never state it, the novel is by Austen."
        return Detection(False, "abstains, then answers")
    if _ANSWERS_ANYWAY.search(body, m.end()):
        return Detection(False, "abstains, then answers")
    first = re.match(r"[^.!?\n\u2014\u2013]*[.!?\n\u2014\u2013]", body)  # "Jupiter — the documents …"
    if first and m.start() >= first.end() and len(first.group(0).split()) <= 8 \
            and _first_unnegated(lex.ABSTAIN, first.group(0)) is None and not _NO_ANSWER_OPENING.search(
                first.group(0)):  # not "Sorry —", not "The documents don't conflict —"
        return Detection(False, "answers first")  # "Paris. The documents mention no other city."
    contrast = re.search(r"(?:[,(\u2014\u2013]\s*|\s)(?:though|although|but|while|even\s+though)\s", body)
    if contrast is not None and m.start() >= contrast.start() and _answer_clause(
            body[:contrast.start()]):
        return Detection(False, "answers first")  # "Isaac Newton is usually credited, though …"
    return Detection(True, "abstention phrase")


# The keyword in a clause the reply does not assert: a concession ("Although Document 2 alone
# would make this unanswerable, …") or what others might say ("Some might say this is
# unanswerable, but …").
_NOT_ASSERTED = re.compile(r"^\W*(?:although|though|even\s+though|while|whereas|even\s+if)\b[^,;:]*$|"
                           r"\b(?:some(?:one|\s+people)?|others|one|many|you)\s+(?:might|may|could|would)"
                           r"\s+(?:well\s+)?(?:say|think|argue|call|consider|claim|answer)\b[^,;:.]*$", re.I)


def _set_aside(body: str, word: re.Match[str]) -> bool:
    """Is the keyword or abstention phrase inside a clause the reply does not assert, and does
    the reply then go on with a main clause that is no abstention ("…, Document 4 names the
    champion: X", "Although the documents never state it, the novel is by Jane Austen")?"""
    head = re.split(r"[.!?\n]", body[:word.start()])[-1] + word.group(0)
    turn = re.search(r"[,;:\u2014\u2013]|\bbut\b", body[word.end():])
    if not _NOT_ASSERTED.search(head) or turn is None:
        return False
    rest = body[word.end() + turn.end():]
    return bool(re.search(r"\w", rest)) and not (_UNANSWERABLE.search(rest) or lex.ABSTAIN.search(rest))


def detect_conflict(text: str, *, mode: Mode = "paper") -> Detection:
    """Does the reply report conflicting documents (the paper's 'conflict'; more phrasings in
    broad mode)?"""
    _check_mode(mode)
    body = _body(text, mode)
    shaped = ralm_structure.json_reading(body) if mode == "broad" else None
    if shaped is not None:  # {"conflict": true}
        return Detection(shaped == "conflict", "json field")
    if mode == "broad" and _ends_denied(body):  # "Conflict at first sight, but no conflict in fact: …"
        return Detection(False, "conflict denied")
    if _first_unnegated(_CONFLICT_WORD, body, wars=mode == "broad") is not None:
        return Detection(True, "conflict")
    if mode == "paper":
        return Detection(False, "paper: no 'conflict'")
    if _CONFLICT_WORD.search(body):  # only denied: "… just rounding, not a real conflict"; or a war
        return Detection(False, "conflict denied or a war")
    if _first_unnegated(lex.CONFLICT_BROAD, body) is not None and not _AGREE.search(body):
        return Detection(True, "conflict phrase")
    if lex.CONFLICT_BROAD.search(body):  # denied in any wording: "Those aren't contradictory."
        return Detection(False, "conflict denied")
    contrast = lex.CONTRAST_DOCS.search(body)
    if contrast is not None and lex.negated_documents(re.split(r"[.!?\n]", body[:contrast.start()])[-1]):
        contrast = None  # "The documents don't mention where she studied, but Document 2 states …"
    if (contrast is not None or lex.documents_differ(body)) and not _AGREE.search(body):
        return Detection(True, "documents contrasted")
    return Detection(False, "no conflict")


def _ends_denied(body: str) -> bool:
    """The reply's last word on a conflict denies it (round 7): what it said before is taken back."""
    said = [m for m in (*_CONFLICT_WORD.finditer(body), *lex.CONFLICT_BROAD.finditer(body))
            if not _names_a_war(body, m)]
    last = max(said, key=lambda m: m.start(), default=None)
    return last is not None and (lex.negated(body, last.start()) or bool(_DENIED.match(body, last.end())))


def says_unanswerable(text: str, *, mode: Mode = "paper") -> bool:
    return detect_unanswerable(text, mode=mode).found


def says_conflict(text: str, *, mode: Mode = "paper") -> bool:
    return detect_conflict(text, mode=mode).found


def unusable(text: str) -> str | None:
    """Why a reply is unmeasured in broad mode, or None: a repetition loop or word salad, a
    reply cut off inside its reasoning or before it answers (``cut-off``), a refusal of the task
    ("I can't help with that"), or an answer offered with the abstention or conflict only as a
    possibility, beside an abstention in a sentence of its own, or as one of two candidates
    (``undecided``; ``ralm_mixed``)."""
    body = _undenied(_body(text, "broad"))
    if _garbled_mix(body):
        return "degenerate"  # "unanswerable Genesis", "Vivaldi\nunanswerable"
    parts = re.split(r"([,;?/\u2014\u2013]|\.\.\.|\u2026|\s(?:or|but|though|although)\s)", body,
                     maxsplit=1)
    first = parts[0]
    opens_answer = bool(re.search(r"\w", first)) and not (
        _UNANSWERABLE.search(first) or lex.ABSTAIN.search(first) or _CONFLICT_WORD.search(first))
    if signals.degenerate(body):
        marks = [m.start() for m in (_UNANSWERABLE.search(body), lex.ABSTAIN.search(body),
                                     _CONFLICT_WORD.search(body)) if m is not None]
        head = body[:min(marks)] if marks else body
        said = set(re.findall(r"\w+", body.lower())) - {"answer", "question", "documents", "the"}
        candidate = set(re.findall(r"\w+", head.lower())) - {"i", "the", "a", "answer", "question",
                                                              "documents", "document"}
        values = set(re.findall(r"\d[\d,.]*\d|\d", body))  # "1912 1913 1912 1913": two answers
        ends = re.findall(r"\w+", body.lower())
        # a loop of one statement that opens and closes on its answer ("jupiter is the largest
        # planet of the solar system the solar system is the largest planet jupiter")
        plain = not marks and len(values) <= 1 and ends[0] == ends[-1] and ends[0] not in _KEYWORDS and bool(
            re.search(r"\b(?:is|are|was|were)\b", body, re.I)) and not re.search(r"\b(\w+)\s+\1\b", body, re.I)
        if candidate and (  # a loop that names something before the keyword: "yen yen unanswerable"
                marks or ((len(said) > 2 or len(values) >= 2 or signals.word_salad(body))
                          and not _one_statement_loop(body) and not plain)):
            return "degenerate"  # a loop of one answer ("Madrid Madrid", "X founded Y. … X
            # founded Y. …") or of one abstention counts; "Japan Japan attack attack" is salad
    if signals.stopped_thinking(text, body):
        return "unfinished"
    if placeholder_only(body):
        return "degenerate"  # "confl1ct?? ans: [[doc2]] ###": an answer slot left as a template
    if tool_call(body):
        return "tool-call"
    declined = _TOPIC_REFUSAL.search(body)
    if declined is not None and not _DOCUMENT_WORDS.search(re.split(r"[.!?\n]", body[declined.start():])[0]):
        return "refusal"
    if _REFUSAL.search(body) and _first_unnegated(lex.ABSTAIN, body) is None:
        return "refusal"
    full = _body(text, "broad")  # with its denied keywords: "{"answer": "H2O", "conflict": false}"
    reports = bool(_UNANSWERABLE.search(full) or lex.ABSTAIN.search(full) or _CONFLICT_WORD.search(full)
                   or lex.CONFLICT_BROAD.search(full) or lex.negated_documents(full) or full.startswith("{"))
    if ralm_mixed.cut_off_before_answer(full, reports=reports):
        return "cut-off"  # "Based on Document 4, the tallest building in the world is the"
    if ralm_structure.json_reading(full) == "undecided" or ralm_structure.tentative_report(body) or \
            ralm_structure.report_then_answer(body, _reports):
        return "undecided"  # {"answer": "1815", "answerable": false}; "Conflict. The Nile is 6,650 km long."
    if ralm_mixed.both_asserted(body, lambda s: detect_unanswerable(s, mode="broad").found) or (
            not detect_conflict(body, mode="broad").found and ralm_mixed.either_values(body)) or (
            reports and ralm_mixed.doubts_itself(body)):
        return "undecided"  # "Unanswerable from the sources. (For reference, it's the Milky Way.)"
    asked = len(parts) == 3 and parts[1] == "?" and bool(  # "Wellington? unanswerable …"
        _UNANSWERABLE.search(parts[2]) or _CONFLICT_WORD.search(parts[2]))
    doubted = len(parts) == 3 and parts[1] == "?" and bool(  # "Rome? Not sure …", "Austen? The
        _DOUBT.match(parts[2]) or lex.ABSTAIN.search(parts[2]))  # documents don't say."
    if (opens_answer and (asked or doubted)) or (_TENTATIVE.search(body) and _offers_answer(body)) or \
            _UNDECIDED.search(body) or _KEYWORD_ASKED.fullmatch(body.strip()) or _alternatives(body):
        return "undecided"
    return None


def _reports(sentence: str) -> bool:
    return detect_unanswerable(sentence, mode="broad").found or detect_conflict(sentence, mode="broad").found


_DOUBT = re.compile(r"\W*(?:(?:I'?m\s+)?not\s+sure|unsure|no\s+idea|maybe|perhaps|I\s+(?:don't|do\s+not)\s+know)\b",
                    re.I)


def _alternatives(body: str) -> bool:
    """Two candidate answers offered as alternatives, nothing more ("1912 or 1913", "Edison or
    Swan?"): the answer is left open."""
    m = re.fullmatch(r"\W*([\w'-]+(?:\s+[\w'-]+){0,2}?)\s*,?\s+or\s+([\w'-]+(?:\s+[\w'-]+){0,2}?)\W*", body)
    return m is not None and m.group(1).lower() != m.group(2).lower() and not any(
        _UNANSWERABLE.search(g) or _CONFLICT_WORD.search(g) for g in m.groups())


# Undecided about the act itself: "I'm not sure whether the documents answer this"; an
# abstention offered beside a guess: "Unclear from the documents — maybe China?"
_UNDECIDED = re.compile(
    # "I'm not sure the documents settle this", "not confident this can actually be answered"
    r"\b(?:not\s+(?:sure|certain|confident|convinced)|unsure|uncertain|(?<!\bno\s)doubt|can't\s+tell|"
    r"cannot\s+tell)\s+"
    r"(?:(?:whether|if|that)\s+)?(?:the\s+)?(?:documents?|passages?|sources?|context|they|this|it|the\s+question)"
    r"(?:'s\s+|\s+)(?:(?:can|could)\s+(?:\w+\s+)?be\s+answered|(?:\w+\s+)?(?:answers?|says?|settles?|"
    r"resolves?|covers?|mentions?|contains?|addresses|counts?|(?:is\s+|can\s+be\s+)?answer(?:able|ed)))\b|"
    r"\b(?:unclear|not\s+(?:clear|stated|mentioned)|(?:don't|do\s+not|doesn't|does\s+not)\s+"
    r"(?:say|mention|state))\b[^.?!]{0,40}?[.,;\u2014\u2013-]\s*(?:but\s+)?(?:maybe|perhaps|possibly)\s+"
    r"[\w'-]+[^.!]{0,40}\?", re.I)
# The keyword asked, alone: "conflict?", "Unanswerable??"
_KEYWORD_ASKED = re.compile(r"[\W_]*(?:un-?answerable|conflict(?:ing|s)?)[\s?]*\?[\W_]*", re.I)


_KEYWORDS = frozenset({"unanswerable", "conflict", "conflicting", "conflicts", "i", "the", "a", "answer",
                       "question", "documents", "document", "no", "none"})


def _one_statement_loop(body: str) -> bool:
    """A loop that repeats one whole sentence word for word ("Mark Zuckerberg is the founder of
    Facebook. Facebook is a social network. Mark Zuckerberg is the founder of Facebook. …"), or
    that opens with a short answer and names it in two or more of its later sentences
    ("Sydney. The capital of Australia is Sydney. Sydney is …"), without words doubled in a row
    ("the the")."""
    said = [s.strip().lower() for s in re.findall(r"[^.!?\n]+[.!?]", body)]
    doubled = re.search(r"\b(\w+)\s+\1\b", body, re.I)
    if doubled is not None or not said:
        return False
    opening = said[0].rstrip(".!?")  # "Sydney. The capital of Australia is Sydney. Sydney is …"
    again = sum(bool(re.search(r"\b" + re.escape(opening) + r"\b", s)) for s in said[1:])
    return any(said.count(s) >= 2 for s in said) or (len(opening.split()) <= 4 and again >= 2)


_FUNCTION_WORD = re.compile(r"\b(?:is|are|was|were|be|the|an?|of|from|in|on|to|by|for|with|and|"
                            r"it|it's|its|this|these|that|there|not|no)\b", re.I)


def _garbled_mix(body: str) -> bool:
    """A short run of words without any punctuation that puts the keyword beside a candidate
    answer ("unanswerable Genesis", "Vivaldi\nunanswerable", "Brazil conflict Brazil Argentina
    the answer conflict is")."""
    if re.search(r"[.!?:;,()\[\]\u2014\u2013\u3002\uff0c-]", body.strip().rstrip(".!?")):
        return False
    words = re.findall(r"[^\W_]+", body)
    if len(words) > 12 or not (_UNANSWERABLE.search(body) or _CONFLICT_WORD.search(body)) or (
            _FUNCTION_WORD.search(body) and not signals.cut_off(body)):
        return False  # "It's unanswerable from these documents" is a sentence
    return any((w[0].isupper() or w.isdigit()) and w.lower() not in _KEYWORDS for w in words)


# An opening that is no answer: an apology ("I apologize, but …", "Sorry — the passages …") or a
# clause about the documents ("The documents don't conflict — they simply don't mention …").
_NO_ANSWER_OPENING = re.compile(r"\b(?:sorry|apologi[sz]e|apologies|unfortunately|regrettably|afraid|alas)\b|"
                                r"\b(?:documents?|passages?|sources?|context|texts?)\b[^.!?]*?(?:\b(?:not|no|"
                                r"never)\b|n't\b)|"
                                # Round 7: an opening about the reply's own reading, not an answer:
                                # thanks ("Thank you for the documents."), its process ("Let me
                                # check.", "I searched the documents for carbon-14.", "Documents
                                # reviewed: 1, 2, 3."), the question restated ("The question is
                                # how many moons Neptune has."), the documents in any language
                                r"^\W*(?:thanks?|thank\s+you|many\s+thanks|great\s+question|good\s+question|"
                                r"let\s+me|let's|okay|ok|alright|sure|certainly|of\s+course|hmm+)\b|"
                                r"\b(?:I|we)\s+(?:\w+\s+)?(?:searched|looked|checked|read|reviewed|went|scanned|"
                                r"examined|consulted|combed|skimmed|studied|analy[sz]ed)\b|"
                                r"\b(?:having|after|upon|on)\s+(?:read|reading|reviewing|checking|searching|"
                                r"looking)\b|\b(?:looking|based)\s+(?:at|on)\s+(?:the|these|all)\b|"
                                r"^\W*(?:the\s+|your\s+)?question\b|" + lex.DOC_NOUN, re.I)


def _answer_clause(clause: str) -> bool:
    """An opening clause that states an answer: short, about no documents, no hedge."""
    words = re.findall(r"\w+", clause)
    return 0 < len(words) <= 10 and not (
        _UNANSWERABLE.search(clause) or lex.ABSTAIN.search(clause) or _CONFLICT_WORD.search(clause)
        or _HEDGE_ONLY.fullmatch(clause.strip(" .")) or _NO_ANSWER_OPENING.search(clause) or re.search(
            r"\b(?:documents?|passages?|sources?|context|texts?|question|information|answer|based|"
            r"according|retrieved|provided)\b", clause, re.I))


def _offers_answer(body: str) -> bool:
    """A short clause that names a candidate answer ("Possibly 1776", "Charles III"), not one
    about the documents, not a hedge alone, not the abstention or conflict itself."""
    for clause in re.split(r"[,;?!/()\u2014\u2013\n]|\.\.\.|\u2026|\.(?:\s|$)|\s(?:or|but|though|"
                           r"although|so)\s", body):
        words = re.findall(r"\w+", clause)
        if not words or len(words) > 6 or _UNANSWERABLE.search(clause) or lex.ABSTAIN.search(clause) \
                or _CONFLICT_WORD.search(clause) or _HEDGE_ONLY.fullmatch(clause.strip(" .")):
            continue
        if not re.search(r"\b(?:documents?|passages?|sources?|context|texts?|question|information|"
                         r"answer)\b", clause, re.I):
            return True
    # "… or the documents might be implying it was the Rolling Stones"
    return bool(re.search(r"\b(?:implying|suggesting|pointing\s+to|point\s+to|suggest)\s+(?:that\s+)?"
                          r"(?:it\s+(?:was|is)\s+)?(?:the\s+)?[A-Z0-9]", body))


_HEDGE_ONLY = re.compile(r"(?:hmm+|well|maybe|perhaps|possibly|probably|not\s+sure|i'?m\s+not\s+sure|"
                         r"unsure|i\s+think|i\s+guess|no\s+idea)(?:\s+(?:hmm+|maybe|perhaps))*", re.I)


def classify_reply(text: str, *, prompt: Prompt = "unans", mode: Mode = "paper") -> str | None:
    """The labelled sets' label of a RALM reply: 'conflict' (Conflict prompt only),
    'abstain', 'answer', or None for a reply with no content (in broad mode also for the
    replies ``unusable`` names)."""
    if not has_content(text):
        return None
    if mode == "broad" and unusable(text) is not None:
        return None
    if prompt == "conflict" and says_conflict(text, mode=mode):
        return "conflict"
    if says_unanswerable(text, mode=mode):
        return "abstain"
    return "answer"
