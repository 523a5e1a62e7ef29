"""What the search suites attack: one text of one item, asked the way its suite asks it.

Each task names the attacked text, builds the query for any version of it, and reads the
replies into a goal's :class:`~rattle.attacks.search.goals.Answer`:

- :class:`ChoiceTask`: one question of a multiple-choice item, asked with the RCC single-turn
  prompt (``suites.rcc_protocol``), by option log-likelihood (``loglik``: each "(X)option"
  scored after the prompt) or by the option letters' probabilities as the reply's first token
  (``letter``, the MMLU-style protocol: one decoding step per query); the answer is the chosen
  option (``judges.choice``); the passage or the question is attacked.
- :class:`ShortAnswerTask`: short-answer QA with the RALM prompts (``suites.qa``); the
  question or one retrieved passage (the first that holds the answer) is attacked.
- :class:`ClaimTask`: a factual claim asked for a yes/no verdict (``suites.factoid``).
- :class:`TemplateTask`: the instruction template of a whole dataset (promptbench); the
  answer is the dataset accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rattle.attacks.search.goals import Answer
from rattle.attacks.search.text import split_words
from rattle.items import Item, Query, Question, Response
from rattle.judges.choice import ChoiceJudge
from rattle.judges.qa import QAJudge
from rattle.matching import squad_normalize
from rattle.suites.rcc_protocol import single_turn

ChoiceTarget = Literal["passage", "question"]
ProtocolName = Literal["single", "loglik", "letter"]


def words_of(texts: Sequence[str]) -> frozenset[str]:
    """Lower-cased words of ``texts`` (protected: answer and option words)."""
    return frozenset(w.text.lower() for t in texts for w in split_words(t))


def _with_question(item: Item, sub: int, text: str) -> Item:
    questions = list(item.questions)
    questions[sub] = replace(questions[sub], text=text)
    return replace(item, questions=tuple(questions))


def choice_query(item: Item, sub: int, protocol: ProtocolName) -> Query:
    """The RCC single-turn query for question ``sub``, with the continuations to score:
    each "(X)option" (``loglik``) or each option letter (``letter``)."""
    q = item.questions[sub]
    choices: tuple[str, ...] = ()
    if protocol == "loglik":
        choices = tuple(f"({chr(65 + k)}){o.text}" for k, o in enumerate(q.displayed))
    elif protocol == "letter":
        choices = tuple(chr(65 + k) for k in range(len(q.displayed)))
    return Query((single_turn(item, sub),), question=q.text, choices=choices)


def read_choice(question: Question, response: Response, judge: ChoiceJudge) -> Answer:
    """The option a reply chose (index into ``options``), with option probabilities when
    the reply came from log-likelihood scoring."""
    judgement = judge(question, response)
    probs: dict[int, float] = {}
    if response.logprobs:
        top = max(response.logprobs)
        weights = [math.exp(x - top) for x in response.logprobs]
        total = sum(weights)
        order = question.order or tuple(range(len(question.options)))
        probs = {order[k]: w / total for k, w in enumerate(weights)}
    return Answer(judgement.labels.get("option"), judgement.correct, response.text, probs,
                  gold=question.correct, error=response.error)


@dataclass
class ChoiceTask:
    """Question ``sub`` of a multiple-choice item; the passage or that question attacked."""

    item: Item
    sub: int
    target: ChoiceTarget
    protocol: ProtocolName
    judge: ChoiceJudge = field(default_factory=ChoiceJudge)

    def __post_init__(self) -> None:
        q = self.item.questions[self.sub]
        self.text = (self.item.passage or "") if self.target == "passage" else q.text
        self.protected_terms = words_of([o.text for o in q.options] + list(q.answers))

    def queries(self, text: str) -> list[Query]:
        shown = (replace(self.item, passage=text) if self.target == "passage"
                 else _with_question(self.item, self.sub, text))
        return [choice_query(shown, self.sub, self.protocol)]

    def read(self, text: str, responses: list[tuple[Response, ...]]) -> Answer:
        return read_choice(self.item.questions[self.sub], responses[0][0], self.judge)


QATarget = Literal["question", "documents"]


@dataclass
class ShortAnswerTask:
    """A short-answer question; the question or its first answer-bearing passage attacked."""

    item: Item
    target: QATarget
    k: int
    judge: QAJudge = field(default_factory=QAJudge)

    def __post_init__(self) -> None:
        self.docs = self.item.documents[: self.k]
        self.doc_index = next((i for i, d in enumerate(self.docs) if d.has_answer), 0)
        self.text = (self.docs[self.doc_index].text if self.target == "documents"
                     else self.item.question)
        self.protected_terms = words_of(self.item.answers)

    @property
    def attacked_document(self) -> str | None:
        return self.docs[self.doc_index].id if self.target == "documents" else None

    def queries(self, text: str) -> list[Query]:
        from rattle.suites.qa import render

        docs = list(self.docs)
        question = self.item.question
        if self.target == "documents":
            docs[self.doc_index] = replace(docs[self.doc_index], text=text)
        else:
            question = text
        return [Query((render(question, docs),), question=question, documents=tuple(docs))]

    def read(self, text: str, responses: list[tuple[Response, ...]]) -> Answer:
        response = responses[0][0]
        judgement = self.judge(self.item.questions[0], response)
        reply = response.text.strip()
        value = squad_normalize(reply) if response.ok and reply else None
        return Answer(value or None, judgement.correct, response.text, error=response.error)


@dataclass
class ClaimTask:
    """A true factual claim asked for a yes/no verdict (the factoid verification prompt)."""

    item: Item

    def __post_init__(self) -> None:
        self.text = self.item.claim or self.item.question
        self.protected_terms: frozenset[str] = frozenset()

    def queries(self, text: str) -> list[Query]:
        from rattle.suites.factoid import VERIFY

        return [Query((VERIFY.format(claim=text),), question=text)]

    def read(self, text: str, responses: list[tuple[Response, ...]]) -> Answer:
        from rattle.judges.claims import verdict

        response = responses[0][0]
        said = verdict(response.text) if response.ok else None
        return Answer(said, None if said is None else said is True, response.text,
                      verdict=said, error=response.error)


# promptbench protects the label words of each task (LabelConstraint); for RCC's prompts the
# labels are the option letters.
LETTERS = tuple("ABCDEFGHI")


@dataclass
class TemplateTask:
    """The instruction template shared by every question of a dataset (promptbench): one
    query per question; the answer is the accuracy over the measured questions."""

    units: Sequence[tuple[Item, int]]
    template: str
    protocol: ProtocolName
    judge: ChoiceJudge = field(default_factory=ChoiceJudge)
    qa_judge: QAJudge = field(default_factory=QAJudge)

    def __post_init__(self) -> None:
        self.text = self.template
        self.protected_terms = frozenset(x.lower() for x in LETTERS)

    def queries(self, text: str) -> list[Query]:
        out = []
        for item, sub in self.units:
            if item.questions[sub].options:
                shown = replace(item, meta={**item.meta, "instruction": text})
                out.append(choice_query(shown, sub, self.protocol))
            else:
                prompt = f"{text}\nQ: {item.questions[sub].text}\nA:"
                out.append(Query((prompt,), question=item.questions[sub].text))
        return out

    def read(self, text: str, responses: list[tuple[Response, ...]]) -> Answer:
        parts = []
        for (item, sub), replies in zip(self.units, responses, strict=True):
            q = item.questions[sub]
            if q.options:
                a = read_choice(q, replies[0], self.judge)
                parts.append((a.value, a.correct, replies[0].text))
            else:
                j = self.qa_judge(q, replies[0])
                parts.append((j.parsed, j.correct, replies[0].text))
        measured = [c for _, c, _ in parts if c is not None]
        accuracy = sum(measured) / len(measured) if measured else None
        return Answer(accuracy, None, parts=tuple(parts))
