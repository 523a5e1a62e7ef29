"""The short-answer QA judge (``qa.match``): has-answer accuracy with SQuAD EM and F1 beside
it (the matching itself lives in ``rattle.matching``, shared with attacks and retrieval)."""

from __future__ import annotations

from dataclasses import dataclass

from rattle.items import Judgement, Question, Response
from rattle.matching import dpr_tokens, exact_match, f1, has_answer, squad_normalize
from rattle.registry import register


@dataclass(frozen=True)
class QAJudge:
    """Has-answer correctness of a short answer, with SQuAD EM and F1 as labels."""

    name: str = "qa.match@1"

    def __call__(self, question: Question, response: Response) -> Judgement:
        if not response.ok:
            return Judgement(None, None, {"status": "error"}, response.error or "", self.name)
        answers = question.answers
        text = response.text.strip()
        if not answers:
            return Judgement(None, text, {"status": "no gold"}, "", self.name)
        return Judgement(
            has_answer(answers, text),
            text,
            {"em": exact_match(answers, text), "f1": f1(answers, text), "status": "parsed"},
            "",
            self.name,
        )


@register("judge", "qa.match")
def qa_match() -> QAJudge:
    """Short answers: gold alias as a token subsequence (accuracy), plus SQuAD EM and F1."""
    return QAJudge()


__all__ = ["QAJudge", "dpr_tokens", "exact_match", "f1", "has_answer", "qa_match",
           "squad_normalize"]
