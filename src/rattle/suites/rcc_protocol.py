"""How RCC asks a multiple-choice item (paper §3.2, reference-implementations.md §2.6).

Multi-turn: a description turn (instruction + passage), then one turn per sub-question with
its options as ``(A)text`` lines in display order. The strings match the authors' code byte for
byte so numbers stay comparable. Single-turn: the description and one question in one message.
"""

from __future__ import annotations

from rattle.items import Item, Question
from rattle.perturbations.prompts import instruction_of

FIRST = 'The first question is "'
NEXT = 'The next question is "'
SINGLE = 'The question is "'


def description_turn(item: Item) -> str:
    return instruction_of(item) + (item.passage or "") + '"\n'


def options_block(question: Question) -> str:
    return "".join(f"({chr(65 + j)}){o.text}\n" for j, o in enumerate(question.displayed))


def question_turn(question: Question, opening: str) -> str:
    return opening + question.text + '":\n' + options_block(question)


def multi_turn(item: Item) -> tuple[str, ...]:
    turns = [description_turn(item)]
    for j, q in enumerate(item.questions):
        turns.append(question_turn(q, FIRST if j == 0 else NEXT))
    return tuple(turns)


def single_turn(item: Item, j: int) -> str:
    return description_turn(item) + question_turn(item.questions[j], SINGLE)
