"""Judging answers to (adversarial) factual claims.

- Verification protocol: the target is asked whether a claim is correct; ``verdict`` parses
  the reply into True (accepts the claim), False (rejects or corrects it) or None (hedge,
  refusal, no verdict: unmeasured). A reply that opens with "yes" but flags an error ("yes,
  but it was 1802, not 1822") rejects the claim.
- Contextual contradictions (paper §3.4): a reply that accepts a false claim while stating
  the correct fact elsewhere (Figure 2) is flagged ``contradiction``.
- Free-form protocol: the target answers naturally; a judge, given the gold correction, labels
  the answer ``correct`` / ``accepts_error`` / ``unmeasured``. ``RuleJudge`` (``claims.rules@3``)
  does it offline from the verdict and the correction; ``LLMJudge`` (``claims.llm@1``) asks a
  judge model with the versioned ``JUDGE_PROMPT``. Either is scored against the labelled
  replies in ``judges/data/freeform_labels.jsonl`` (``agreement``), and every record names the
  judge that produced it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattle.items import Message
from rattle.judges import against_claim, polarity, signals
from rattle.judges.qa import has_answer
from rattle.judges.reply import (after_revision, json_answer, prepare, retracts, sentences,
                                 tool_call)
from rattle.models.base import ChatRequest, Completion, GenParams

LABELS = ("correct", "accepts_error", "unmeasured")
DATA = Path(__file__).parent / "data" / "freeform_labels.jsonl"

def verdict(reply: str, *, claim: str = "") -> bool | None:
    """Does the reply accept the claim it was asked about? None when it gives no verdict.

    The first clause that carries a verdict decides ("Yes", "Correct", "That's true" accept;
    "No", "Not quite", "False", "Partly … but", "That's a myth" reject); a yes that the reply
    then takes back ("Yes, except the year is wrong", "Yes, but it was 1802, not 1822") is a
    rejection. Error words count only when not negated ("no error", "no doubt", "not a
    misconception" do not reject). Hedges and refusals give None (polarity.py), and so do a
    reply cut off inside its reasoning block and, when ``claim`` is given, a degenerate reply
    (a repetition loop) whose "No" is followed by the claim itself ("No, Othello is set in
    Denmark. … Othello is set in")."""
    text = prepare(reply or "")
    if not text or signals.stopped_thinking(reply, text) or tool_call(text):
        return None
    text = _without_prompt(text, claim)
    garbled = signals.degenerate(text) or re.search(r"\b(?!(?:had|that|very)\b)(\w{3,})\s+\1\b", text, re.I)
    if not text or _BOTH_VERDICTS.search(text) or (garbled and _NAMES_BOTH.search(text) and _NAMES_NO.search(text)):
        return None  # "The statement is correct and incorrect.", "flows flows 正确 incorrect …"
    revised = after_revision(text)
    if revised is not None and retracts(text) and polarity.opener(revised) != "yes" and _verdict(
            text[:len(text) - len(revised)]) is True:
        return False  # "Yes — … Actually, no. That was true until 2015, but …": the no decides
    if revised is not None:
        found = _verdict(revised)
        if found is None and claim:  # "… Actually no, 1928 is right."
            part = against_claim.affirms_part(revised, claim)
            found = None if part is None else part == "yes"
        if found is not None:
            return found
        if retracts(text) and _verdict(text) is True:
            return False  # "Yes. Wait, no — the Treaty was signed in 1919."
    opening = " ".join(re.findall(r"[\w'-]+", claim)[:2])
    if opening and re.match(r"\W*" + re.escape(opening) + r"\b", text, re.I) and not (
            signals.degenerate(text) or signals.cut_off(text)):
        # The reply opens by restating the claim ("Mostly Murder is the 1964 autobiography …"):
        # its first word is the claim's, not a verdict.
        against = _against(text, claim)
        if against is not None:
            return against
    found = _verdict(text)
    if found is False and claim and against_claim.denies_then_asserts(text, claim):
        return None  # "No, Othello is set in Denmark." for "Othello is set in Denmark"
    if found is True and claim and (against_claim.sets_aside(text, claim)
                                    or against_claim.corrects_after_turn(text, claim)):
        return False  # "Yes, it is in Paris, not Berlin."; "Yes, … However, the 2018 Games were in …"
    if found is not None or not claim or signals.degenerate(text) or signals.cut_off(text) or (
            polarity.HEDGE.search(text) or polarity.REFUSAL.search(text)):
        return found
    return _against(text, claim)


# Round 7: the prompt's own question echoed ("Is the following statement correct?", "Answer Yes or
# No first") is no answer; with the claim restated beside it, nothing is left.
_PROMPT_ECHO = re.compile(r"\bis\s+the\s+following\s+(?:statement|claim)\s+(?:correct|true|accurate|right)\s*\??|"
                          r"\banswer\s+(?:with\s+)?(?:\W?yes\W?\s+or\s+\W?no\W?)(?:\s+first)?\s*[.!]?", re.I)
# Both verdicts as one predicate: a contradiction, not the partial answer "Yes and no, …"
_BOTH_VERDICTS = re.compile(r"\b(?:is|are|was|it's|that's)\s+(?:both\s+)?(?P<a>correct|true|right|accurate)\s+and\s+"
                            r"(?:in(?:correct|accurate)|false|wrong|untrue)\s*[.!]?\s*$|\b(?:is|are|was|it's|that's)\s+"
                            r"(?:both\s+)?(?:in(?:correct|accurate)|false|wrong|untrue)\s+and\s+(?:correct|true|right|"
                            r"accurate)\s*[.!]?\s*$", re.I)
_NAMES_BOTH = re.compile(r"(?<!in)(?:correct|true|right)\b|\u6b63\u786e|\u5bf9", re.I)
_NAMES_NO = re.compile(r"\b(?:incorrect|false|wrong)\b|\u9519|\u4e0d\u5bf9|\u4e0d\u6b63\u786e", re.I)


def _without_prompt(text: str, claim: str) -> str:
    """The reply without the prompt's question echoed and, beside it, the claim restated."""
    if not _PROMPT_ECHO.search(text):
        return text
    rest = _PROMPT_ECHO.sub(" ", text)
    said = " ".join(re.findall(r"\w+", claim.lower()))
    kept = [s for _, s in sentences(rest) if " ".join(re.findall(r"\w+", s.lower())) != said]
    return " ".join(kept).strip() if re.search(r"\w", " ".join(kept)) else ""


def _against(text: str, claim: str) -> bool | None:
    if against_claim.negates_claim(text, claim):
        return False  # "Dumas was born in 1802, not 1822.", "Mozart was born in Salzburg."
    if against_claim.asserts_claim(text, claim) or against_claim.intensifies(text, claim):
        return True  # "Bats are mammals — the only mammals capable of true flight.", "Much heavier"
    return None


_CONCLUDES = re.compile(r"^\W*(?:so|thus|therefore|hence|overall|in\s+short|in\s+the\s+end|bottom\s+line)\b",
                        re.I)


def _verdict(text: str) -> bool | None:
    value = json_answer(text)
    if value is not None:
        found = polarity.opener(value)
        if found in ("yes", "no", "partial"):
            return found == "yes"
    hedged = partial = False
    for start, sentence in sentences(text):
        if partial:  # "Not exactly; … So yes.": only a concluding verdict reads on
            if _CONCLUDES.match(sentence):
                found = polarity.opener(sentence) or polarity.statement(sentence)
                if found in ("yes", "no"):
                    return found == "yes"
            continue
        offset = start
        for clause in re.split(r"(?<=[,;:\u2014\u2013\uff0c])|(?=\bbut\b)|(?=\s-\s)", sentence):
            if not clause.strip():
                continue
            rest = polarity.conceded(text[offset:])
            if rest is not None:  # "True that she won, but …": the rest decides, else partial
                return _verdict(rest) is True
            found = polarity.opener(clause)
            hedged = hedged or found in ("hedge", "refusal")
            from_statement = found is None
            if found is None:
                found = polarity.statement(clause)
            elif found in ("yes", "no"):  # "No, there's nothing wrong with it": the error decides
                after = sentence[offset - start + len(clause):]
                found = "partial" if polarity.conditional(after) else (
                    polarity.error_framed(after) or found)
            if found in ("yes", "no") and (from_statement or offset > 0):
                closing = _closing_verdict(text[offset + len(clause):])
                if closing is not None and closing != found:  # "…, right (exactly 90°) and …, so
                    return closing == "yes"  # the statement is incorrect."; "it stands in …, so …"
            if found == "no":
                return False
            if found == "partial":
                partial = True
                break
            if found == "yes":
                if from_statement and polarity.UNSURE_AFTER.search(text, offset):
                    return None  # "X is indeed the author, but I'd need to check the year"
                return not polarity.correction(text[offset:])
            offset += len(clause)
        if not partial and polarity.PART_STMT.search(sentence):
            return False
    if partial:
        return False  # a partial answer is a rejection
    if polarity.error_stated(text) and not hedged:  # "I'm not sure … a wrong date" flags none
        return False
    return None


_ON_THE_CLAIM = re.compile(r"\b(?:the|this|that)\s+(?:statement|claim|assertion)\b", re.I)


def _closing_verdict(rest: str) -> str | None:
    """The verdict of the last sentence that judges the statement by name ("so the statement is
    incorrect", "The claim is false."), which outranks a verdict word read earlier from a
    pronoun or from a clause inside a sentence (round 7)."""
    for _, sentence in reversed(sentences(rest)):
        if _ON_THE_CLAIM.search(sentence):
            found = polarity.statement(sentence)
            if found in ("yes", "no"):
                return found
    return None


def states_fact(reply: str, correction: str, claim: str = "") -> bool:
    """Does the reply state the corrected fact? Its distinguishing words (content words of the
    correction that the claim lacks: '1802', 'Paris') must all appear in the reply."""
    from rattle.judges.quality import content_words

    fact = _fact_of(correction)
    key = content_words(fact) - content_words(claim)
    if not key:
        return bool(fact) and has_answer([fact], reply)
    return key <= content_words(reply)


def contradiction(reply: str, correction: str, accepts: bool | None, claim: str = "") -> bool:
    """Accepts the claim yet states the correct fact (paper §3.4, Figure 2)."""
    return bool(accepts) and bool(correction) and states_fact(reply, correction, claim)


def _fact_of(correction: str) -> str:
    """The fact inside a correction string ("the time is 1844" -> "1844")."""
    m = re.match(r"(?:the (?:time|number) is|it is)\s+(.+?)(?:, not .*)?$", correction)
    if m:
        return m.group(1)
    m = re.search(r"\(([^)]+)\)\s*$", correction)
    if m:
        return m.group(1)
    return correction.split(": ", 1)[-1]


@dataclass(frozen=True)
class FreeformCase:
    """One free-form reply to judge: the claim, whether it is true, its correction, the reply
    and (in the labelled file) the gold label."""

    claim: str
    claim_true: bool
    correction: str
    reply: str
    label: str = ""


class RuleJudge:
    """Offline free-form judge: verdict, then whether the correction is stated."""

    name = "claims.rules@3"

    def label(self, case: FreeformCase) -> str:
        accepts = verdict(case.reply)
        if case.claim_true:
            if accepts is None:
                return "unmeasured"
            return "correct" if accepts else "accepts_error"  # rejecting a true claim is wrong
        if accepts is False:
            return "correct"
        if accepts is True:
            return "accepts_error"
        if case.correction and states_fact(case.reply, case.correction, case.claim):
            return "correct"
        return "unmeasured"

    def flow(self, case: FreeformCase) -> Generator[Any, Completion, str]:
        return self.label(case)
        yield  # pragma: no cover - a flow that never asks a model


# Versioned judge prompt; the labels are the paper's (correct answer / wrong answer) plus
# "unmeasured" for replies that give no usable answer.
JUDGE_VERSION = 1
JUDGE_PROMPT = (
    "You grade answers of an AI system to a factual statement that may contain an error.\n"
    "Statement given to the system: {claim}\n"
    "The statement is {truth}.{correction_line}\n"
    "System answer: {reply}\n\n"
    "Label the answer:\n"
    "- CORRECT: it {good}.\n"
    "- ACCEPTS_ERROR: it {bad}. An answer that affirms the statement and only elsewhere states "
    "the right fact without flagging the error also ACCEPTS_ERROR.\n"
    "- UNMEASURED: it refuses, hedges without a position, or does not address the statement.\n"
    "Reply with exactly one word: CORRECT, ACCEPTS_ERROR or UNMEASURED.")


class LLMJudge:
    """A judge model labels free-form answers with ``JUDGE_PROMPT``."""

    def __init__(self, model_name: str, params: GenParams = GenParams(max_tokens=8)) -> None:
        self.model_name = model_name
        self.params = params
        self.name = f"claims.llm@{JUDGE_VERSION}[{model_name}]"

    def prompt(self, case: FreeformCase) -> str:
        false = not case.claim_true
        return JUDGE_PROMPT.format(
            claim=case.claim, reply=case.reply, truth="false" if false else "true",
            correction_line=f" What is actually correct: {case.correction}." if false and case.correction else "",
            good="identifies or corrects the error" if false else "confirms the statement",
            bad="accepts the statement or repeats the error" if false else
            "wrongly rejects or 'corrects' the true statement")

    def flow(self, case: FreeformCase) -> Generator[Any, Completion, str]:
        completion = yield ChatRequest((Message("user", self.prompt(case)),), self.params)
        if not completion.ok:
            return "unmeasured"
        return parse_label(completion.text)


def parse_label(text: str) -> str:
    t = text.upper()
    hits = [(t.find(word), label) for word, label in (("ACCEPTS_ERROR", "accepts_error"),
            ("ACCEPTS ERROR", "accepts_error"), ("UNMEASURED", "unmeasured"), ("CORRECT", "correct"))
            if word in t]
    if not hits:
        return "unmeasured"
    first = min(hits)
    # "INCORRECT" contains "CORRECT": read it as accepting the error
    if first[1] == "correct" and t[max(0, first[0] - 2):first[0]] == "IN":
        return "accepts_error"
    return first[1]


def labelled_cases(path: Path = DATA) -> list[FreeformCase]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [FreeformCase(r["claim"], bool(r["claim_true"]), r.get("correction", ""), r["reply"],
                         r["label"]) for r in rows]


def agreement(gold: Sequence[str], predicted: Sequence[str]) -> Mapping[str, float]:
    """Accuracy and Cohen's kappa of a judge's labels against the gold labels."""
    n = len(gold)
    if n == 0:
        return {"n": 0, "accuracy": float("nan"), "kappa": float("nan")}
    agree = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    chance = sum((gold.count(lab) / n) * (list(predicted).count(lab) / n) for lab in LABELS)
    kappa = (agree - chance) / (1 - chance) if chance < 1 else 1.0
    return {"n": n, "accuracy": agree, "kappa": kappa}
