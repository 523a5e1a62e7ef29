"""Whether a RALM reply has any content of its own (``ralm.has_content``): not an empty reply,
punctuation only, an echo of the prompt's scaffolding (Park & Lee, TACL 2024, Table 9: "Question:
… Answer:", the prompt's own instructions, cut off or not), a structured reply left empty, or
(round 7) only the question restated ("What is the chemical symbol for gold?" twice); a reply
that answers before the exercises it goes on to write ("8\n\nQuestion: …\nAnswer:") has content;
``placeholder_only``: an answer slot left as a template ("ans: [[doc2]]").
"""

from __future__ import annotations

import re

from rattle.judges.reply import json_answer, prepare

__all__ = ["has_content", "placeholder_only"]

# The sentences of the Table 9 prompts: a reply that only repeats them has no content.
_INSTRUCTIONS = ("use the above documents to answer the subsequent question",
                 "please provide the answer as a single word or term",
                 "if the answer cannot be found, write 'unanswerable'",
                 "if multiple documents present different answers, please respond with 'conflict'")
_ECHO = re.compile(r"\b(?:" + "|".join(r"\s+".join(map(re.escape, i.split())) for i in _INSTRUCTIONS)
                   + r")[^.\n]*[.\n]?|(?m:^|(?<=\s))question\s*:\s*(?:what|who|whom|whose|when|where|"
                   r"which|why|how|in\s+(?:what|which)|is|are|was|were|do|does|did|can|could|name)\b"
                   r"[^?\n]*(?:\?|$)", re.I)
_INSTRUCTION_WORDS = tuple(" ".join(re.findall(r"[\w']+", i)) for i in _INSTRUCTIONS)


def has_content(text: str) -> bool:
    """False for an empty reply, punctuation only, or an echo of the prompt's scaffolding
    ("Question: …\\nAnswer:" with nothing after it, "Answer: Answer:", the prompt's own
    instructions, cut off or not: "Use the above documents to answer … Answer: If multiple")."""
    body = prepare(text or "")
    rest = re.sub(r"\b(?:question|documents?|context|answer)\s*:", " ", _ECHO.sub(" ", body),
                  flags=re.I)
    words = " ".join(re.findall(r"[\w']+", rest.lower()))
    asked = [" ".join(re.findall(r"[\w']+", m.group(1).lower()))  # the question it repeated
             for m in re.finditer(r"\bquestion\s*:\s*([^?\n]*)", body, re.I)]
    if not words or (len(words.split()) >= 2 and any(i.startswith(words) for i in (
            *_INSTRUCTION_WORDS, *asked))):
        return False  # "… Question: Who won the 2023 Nobel Prize? Answer: Who won the 2023 Nobel"
    if body.startswith("{") and json_answer(body) is not None and not re.search(r"\w", re.sub(
            r"\"[\w ]+\"\s*:|\bnull\b", " ", body)):
        return False  # {"answer": ""}, {"answer": null}: a structured reply left empty
    if _only_questions(body):
        return False  # "What is the chemical symbol for gold?\nWhat is the chemical symbol for gold?"
    m = re.search(r"\bAnswer:\s*$", body)
    scaffold = re.search(r"(?:^|\n)\s*(?:Question|Documents):", body)
    if m and scaffold and re.search(r"\w", _ECHO.sub(" ", body[:scaffold.start()])):
        return True  # "8\n\nQuestion: How many legs does an insect have?\nAnswer: …": it answered first
    return not (m and scaffold)


# A question restated (a wh-word or an auxiliary opening three or more words), not an answer
# with a question mark ("Paris?").
_QUESTION = re.compile(r"\W*(?:what|who|whom|whose|when|where|which|why|how|in\s+(?:what|which)|is|are|was|were|do|"
                       r"does|did|can|could|name)\b(?:\s+\S+){2,}", re.I)


def _only_questions(body: str) -> bool:
    """The reply only restates a question, once or in a loop that may stop mid-copy ("What is
    the freezing point of water in Celsius? What is the freezing point … What is the")."""
    asked = [s.strip() for s in re.findall(r"[^?\n]+\?", body)]
    rest = re.sub(r"[^?\n]+\?", " ", body).strip()
    return bool(asked) and all(_QUESTION.match(q) for q in asked) and (
        not rest or any(q.lower().startswith(rest.lower()) for q in asked))


# An answer label followed only by a template placeholder ("ans: [[doc2]]", "Answer: {{answer}}",
# "Answer: <your answer>", "Answer: [insert answer]", "Answer: ___").
_PLACEHOLDER = re.compile(r"\b(?:ans(?:wer)?|final\s+answer|response)\s*[:=]\s*(?:\[\[[^\]]*\]\]|\{\{[^}]*\}\}|"
                          r"\[(?:insert|your|answer|fill)[^\]]*\]|<(?:your|answer|insert)[^>]*>|_{3,})\W*$", re.I)


def placeholder_only(body: str) -> bool:
    """The reply's answer label holds only a template placeholder (round 7, broad mode)."""
    return bool(_PLACEHOLDER.search(body))
