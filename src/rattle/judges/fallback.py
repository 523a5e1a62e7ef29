"""Optional judge-model fallback for replies the rules leave unparsed (issue 14, item 5).

``ModelFallback(model)`` is a flow-based judge (STYLE.md 10; pattern: ``claims.LLMJudge``):
for each reply it first applies the rule extractor; only when the rules leave the reply
unmeasured does the flow yield one ``ChatRequest`` to the judge model, with a versioned prompt
(``FALLBACK_PROMPTS``, ``FALLBACK_VERSION``) that asks for a strict one-token answer: an
option letter or NONE, ACCEPT/REJECT/NONE, ABSTAIN/ANSWER/NONE, CONFLICT/ABSTAIN/ANSWER/NONE.
The parse is strict too: anything else is unmeasured. Each ``Resolved`` names the judge that
decided (``rules:<how>`` or the fallback's name), so records can say who decided each case.
Requests go through the executor, so they are cached in the store like every request.
``model_first=True`` asks the model about every reply (rules only where its answer does not
parse): the judge's own agreement on the labelled sets.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattle.items import Message
from rattle.models.base import ChatRequest, Completion, GenParams

FALLBACK_VERSION = 1
FALLBACK_PROMPTS: Mapping[str, str] = {
    "choice": (
        "You read a reply to a multiple-choice question and report which option the reply "
        "finally commits to.\n\nQuestion: {question}\nOptions:\n{options}\n\nReply:\n<<<\n{reply}"
        "\n>>>\n\nAnswer with exactly one option letter ({letters}), or NONE if the reply "
        "refuses, hedges between options or commits to no listed option. Output the letter or "
        "NONE only."),
    "verdict": (
        "A system was asked whether this statement is correct.\nStatement: {claim}\n\nReply:\n"
        "<<<\n{reply}\n>>>\n\nDoes the reply accept the statement as correct, or reject / "
        "correct it? Answer ACCEPT, REJECT, or NONE if it refuses or gives no verdict. Output "
        "one word only."),
    "abstain": (
        "A system was asked to answer from documents, and to write 'unanswerable' if the answer "
        "cannot be found.\nQuestion: {question}\n\nReply:\n<<<\n{reply}\n>>>\n\nDoes the reply "
        "abstain (says the answer cannot be found or is unknown) or give an answer? Answer "
        "ABSTAIN, ANSWER, or NONE if the reply is empty or not a reply. Output one word only."),
    "conflict": (
        "A system was asked to answer from documents, and to respond 'conflict' if the "
        "documents give different answers.\nQuestion: {question}\n\nReply:\n<<<\n{reply}\n>>>\n\n"
        "Does the reply report conflicting documents, abstain, or answer? Answer CONFLICT, "
        "ABSTAIN, ANSWER, or NONE if the reply is empty or not a reply. Output one word only."),
}
_WORDS: Mapping[str, Mapping[str, str]] = {
    "verdict": {"ACCEPT": "accept", "REJECT": "reject"},
    "abstain": {"ABSTAIN": "abstain", "ANSWER": "answer"},
    "conflict": {"CONFLICT": "conflict", "ABSTAIN": "abstain", "ANSWER": "answer"},
}


@dataclass(frozen=True)
class Resolved:
    """A label (None: unmeasured) and the judge that decided it."""

    label: str | None
    judge: str


def parse_letter(text: str, n: int) -> str | None:
    """A strict judge answer: one option letter (optionally bracketed or followed by a full
    stop), or NONE / anything else -> None."""
    m = re.fullmatch(r"\s*[\(\[]?\s*([A-Za-z])\s*[\)\]]?\s*\.?\s*", text or "")
    if not m:
        return None
    letter = m.group(1).upper()
    return letter if "A" <= letter <= chr(64 + n) else None


def parse_word(text: str, family: str) -> str | None:
    """A strict one-word judge answer of the family's vocabulary, else None."""
    word = re.sub(r"[^A-Za-z]", "", (text or "").strip().split("\n")[0]).upper()
    return _WORDS[family].get(word)


def family_of(set_name: str) -> str:
    return set_name.split(".")[0]


class ModelFallback:
    """Rules first; the judge model decides the replies the rules leave unmeasured."""

    def __init__(self, model_name: str, *, model_first: bool = False, mode: str = "broad",
                 params: GenParams = GenParams(max_tokens=8)) -> None:
        self.model_name = model_name
        self.model_first = model_first
        self.mode = mode
        self.params = params
        self.name = f"fallback@{FALLBACK_VERSION}[{model_name}]"

    def prompt(self, family: str, row: Mapping[str, Any]) -> str:
        template = FALLBACK_PROMPTS[family]
        if family == "choice":
            options = list(row["options"])
            letters = "".join(chr(65 + i) for i in range(len(options)))
            return template.format(question=row.get("question", ""), reply=row["reply"],
                                   letters=", ".join(letters),
                                   options="\n".join(f"({chr(65 + i)}) {o}"
                                                     for i, o in enumerate(options)))
        if family == "verdict":
            return template.format(claim=row.get("claim", ""), reply=row["reply"])
        return template.format(question=row.get("question", ""), reply=row["reply"])

    def rules(self, family: str, row: Mapping[str, Any]) -> tuple[str | None, str]:
        """The rule extractor's label for a row of the labelled-set schema, and its rule."""
        if family == "choice":
            from rattle.judges.choice import LETTERS, extract_choice

            got = extract_choice(row["reply"], list(row["options"]),
                                 question=str(row.get("question", "")))
            return (None if got.index is None else LETTERS[got.index]), got.how
        if family == "verdict":
            from rattle.judges.claims import verdict

            v = verdict(row["reply"])
            return (None if v is None else ("accept" if v else "reject")), "verdict"
        from rattle.judges.ralm import classify_reply

        label = classify_reply(row["reply"], prompt="unans" if family == "abstain" else "conflict",
                               mode="paper" if self.mode == "paper" else "broad")
        return label, f"ralm[{self.mode}]"

    def flow(self, family: str, row: Mapping[str, Any]) -> Generator[ChatRequest, Completion,
                                                                        Resolved]:
        """Resolve one reply; yields a request only when the model is needed."""
        label, how = self.rules(family, row)
        if label is not None and not self.model_first:
            return Resolved(label, f"rules:{how}")
        completion = yield ChatRequest((Message("user", self.prompt(family, row)),), self.params)
        parsed = None
        if completion.ok:
            parsed = (parse_letter(completion.text, len(row["options"])) if family == "choice"
                      else parse_word(completion.text, family))
        says_none = completion.ok and bool(re.fullmatch(r"\s*NONE\W*", completion.text, re.I))
        if parsed is not None or says_none:
            return Resolved(parsed, self.name)
        return Resolved(label, f"rules:{how}")


def model_agreement_for(set_name: str, model: str, half: str = "dev", *, store: Any = None,
                        model_first: bool = False, mode: str = "broad",
                        directory: Path | None = None) -> Any:
    """Agreement of rules + fallback (or the model alone with ``model_first``) on a labelled
    set, computed by the same harness as the rules' (``agreement.Agreement``)."""
    from rattle.judges import agreement
    from rattle.run.executor import run_flows

    rows = agreement.load_labels(set_name, half, directory=directory or agreement.LABELS_DIR)
    judge = ModelFallback(model, model_first=model_first, mode=mode)
    family = family_of(set_name)
    results: dict[int, Resolved] = {}
    run_flows(model, store, [(i, judge.flow(family, r)) for i, r in enumerate(rows)],
              results.__setitem__)
    predicted = [results[i].label for i in range(len(rows))]
    name = judge.name + ("[model-first]" if model_first else "")
    return agreement.agreement_from(set_name, half, name, rows, predicted)
