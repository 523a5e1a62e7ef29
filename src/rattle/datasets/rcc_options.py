"""Confusion options by answer type (RCC generator, reference-implementations.md §2.4).

- T/F: GroundTruth, ``False`` (the negation), ``Undetermined`` ("Unable to determine").
- Number: GroundTruth plus four ``Answewr Error{i}`` drawn around the answer (integers from
  [-3x, 3x+1], other numbers uniform in [-3x, 3x+2) rounded to 2 places).
- Word: GroundTruth plus four words of the passage with the answer's part of speech that are
  not the answer's singular or plural form (spaCy's English tagger).
- Text: GroundTruth, ``Text Augmentation`` (EDA), ``Formula Error`` (digits altered),
  ``Mask CorrectAnswer`` ("None of other options is correct."), and ``Irrelevant Formula``
  when the answer holds a formula.
- ``Irrelevant Chain``: every question with a text answer also gets the answer of a random
  question of another item (also for datasets that come with options), redrawn while it
  repeats one of the question's options.

Option-type strings keep the authors' spelling ("Answewr Error") so files stay comparable.
Deliberate fixes: 'yes'/'no' answers are T/F with the right truth value (RCC read 'yes' as
False); number distractors are distinct from each other, not only from the answer; the formula
edit has no off-by-one; the display order and all draws come from a seeded generator per item.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from rattle.datasets.rcc import answer_type
from rattle.items import Item, Option
from rattle.seeding import rng_for

GT = "GroundTruth"
UNDETERMINED = "Unable to determine"  # RCC T/F third option
MASK = "None of other options is correct."  # RCC "Mask CorrectAnswer" text
N_DISTRACTORS = 4  # number and word answers: 5 options in all (RCC generator)
FORMULA_CHARS = set("0123456789+-*/%$.= ()\\")
_DIGITS = re.compile(r"\d+")
POS = Callable[[str], list[tuple[str, str, str, bool]]]


def tf_value(answer: str) -> bool:
    return answer.strip().lower() in ("true", "yes")


def tf_options(answer: str) -> tuple[Option, ...]:
    value = tf_value(answer)
    return (Option(str(value), GT), Option(str(not value), "False"),
            Option(UNDETERMINED, "Undetermined"))


def _as_number(text: str) -> float:
    return float(Fraction(text.replace(",", "")))


def number_options(answer: str, rng: random.Random) -> tuple[Option, ...]:
    x = _as_number(answer)
    is_int = x >= 0 and float(x).is_integer() and "." not in answer
    seen = {answer}
    out = [Option(answer, GT)]
    tries = 0
    while len(out) < 1 + N_DISTRACTORS and tries < 1000:
        tries += 1
        if is_int:
            n = int(x)
            value = str(rng.randint(-3 * n, 3 * n + 1))
        else:
            lo, hi = sorted((-3 * x, 3 * x + 2))
            value = str(round(rng.uniform(lo, hi), 2))
        if value in seen:
            continue
        seen.add(value)
        out.append(Option(value, f"Answewr Error{len(out) - 1}"))
    return tuple(out)


def word_options(answer: str, passage: str, pos: POS) -> tuple[Option, ...]:
    """Four passage words with the answer's part of speech and another lemma (RCC generator).

    The answer's tag is read where it occurs in the passage (a lone word is often mis-tagged);
    singular/plural forms of the answer are excluded through the lemma (RCC used TextBlob).
    """
    tagged = pos(passage)
    low = answer.lower()
    in_passage = [(t, lem) for w, t, lem, _ in tagged if w.lower() == low]
    alone = [(t, lem) for w, t, lem, _ in pos(answer)]
    tag, lemma = (in_passage or alone or [("NOUN", low)])[0]
    excluded = {low, lemma}
    used: set[str] = set()
    picks: list[str] = []
    same = [(w.lower(), lem) for w, t, lem, stop in tagged if t == tag and w.isalpha() and not stop]
    other = [(w.lower(), lem) for w, t, lem, stop in tagged if w.isalpha() and not stop]
    for pool in (same, other):
        for w, lem in pool:
            if len(picks) == N_DISTRACTORS:
                break
            if w not in used and w not in excluded and lem not in excluded:
                used.add(w)
                picks.append(w)
    return (Option(answer, GT), *(Option(w, f"Answewr Error{i}") for i, w in enumerate(picks)))


def eda(text: str, rng: random.Random, alpha: float = 0.3,
        synonyms: Callable[[str], list[str]] | None = None) -> str:
    """Easy data augmentation (Wei & Zou 2019): synonym swap, insertion, swap, deletion."""
    words = text.split()
    if not words:
        return text
    n = max(1, round(alpha * len(words)))
    syn = synonyms or (lambda w: [])
    out = list(words)
    for _ in range(n):  # synonym replacement
        i = rng.randrange(len(out))
        cands = syn(out[i].lower())
        if cands:
            out[i] = rng.choice(cands)
    for _ in range(n):  # random insertion of a synonym of a random word
        cands = syn(rng.choice(out).lower())
        if cands:
            out.insert(rng.randint(0, len(out)), rng.choice(cands))
    for _ in range(n):  # random swap
        if len(out) > 1:
            i, j = rng.randrange(len(out)), rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
    kept = [w for w in out if rng.random() > alpha]  # random deletion
    return " ".join(kept or [rng.choice(out)])


def eda_one(text: str, rng: random.Random, synonyms: Callable[[str], list[str]] | None = None,
            *, alpha_ri: float = 0.1, alpha_rs: float = 0.1, p_rd: float = 0.1) -> str:
    """One EDA augmentation as ``eda(..., alpha_sr=0, num_aug=1)`` returns it (Wei & Zou
    2019): the generated sentences are shuffled and the first kept, so one of random insertion,
    random swap or random deletion is applied (n = max(1, int(alpha * words)))."""
    words = text.split()
    if not words:
        return text
    op = rng.choice(("ri", "rs", "rd"))
    out = list(words)
    if op == "ri":
        syn = synonyms or (lambda w: [])
        for _ in range(max(1, int(alpha_ri * len(words)))):
            for _try in range(10):  # EDA's add_word: up to 10 words tried for a synonym
                cands = syn(rng.choice(out).lower())
                if cands:
                    out.insert(rng.randint(0, len(out)), rng.choice(cands))
                    break
    elif op == "rs":
        for _ in range(max(1, int(alpha_rs * len(words)))):
            if len(out) > 1:
                i = rng.randrange(len(out))
                j = rng.choice([k for k in range(len(out)) if k != i])
                out[i], out[j] = out[j], out[i]
    else:
        kept = [w for w in out if rng.random() > p_rd]
        out = kept or [rng.choice(out)]
    return " ".join(out)


def formula_error(text: str, rng: random.Random) -> str | None:
    """Replace each digit run with probability 0.8 by a random number up to 5n+2 (RCC)."""
    if not _DIGITS.search(text):
        return None

    def swap(m: re.Match[str]) -> str:
        n = int(m.group())
        if rng.random() < 0.8:
            return str(rng.randint(0, min(10**9 + 7, 5 * n + 2)))
        return m.group()

    for _ in range(20):
        new = _DIGITS.sub(swap, text)
        if new != text:
            return new
    return None


def _formula_span(text: str) -> tuple[int, int] | None:
    if "=" not in text:
        return None
    eq = text.index("=")
    start = eq
    while start > 0 and text[start - 1] in FORMULA_CHARS:
        start -= 1
    end = eq
    while end < len(text) and text[end] in FORMULA_CHARS:
        end += 1
    return start, end


def irrelevant_formula(text: str, rng: random.Random) -> str | None:
    span = _formula_span(text)
    if span is None:
        return None
    ops = "+-*/"
    terms = [str(rng.randint(0, 500)) for _ in range(rng.randint(2, 4))]
    expr = terms[0]
    for t in terms[1:]:
        expr += f" {rng.choice(ops)} {t}"
    return text[: span[0]] + f" {expr} " + text[span[1]:]


def text_options(answer: str, rng: random.Random,
                 synonyms: Callable[[str], list[str]] | None) -> tuple[Option, ...]:
    out = [Option(answer, GT)]
    aug = answer
    for _ in range(10):  # redrawn while it is contained in the answer (RCC)
        aug = eda(answer, rng, 0.3, synonyms)
        if aug not in answer:
            break
    out.append(Option(aug, "Text Augmentation"))
    out.append(Option(formula_error(answer, rng) or eda(answer, rng, 0.3, synonyms), "Formula Error"))
    out.append(Option(MASK, "Mask CorrectAnswer"))
    irr = irrelevant_formula(answer, rng)
    if irr is not None:
        out.append(Option(irr, "Irrelevant Formula"))
    return tuple(out)


def add_options(
    items: Sequence[Item],
    *,
    seed: int = 0,
    pos: POS | None = None,
    synonyms: Callable[[str], list[str]] | None = None,
    chain: bool = True,
) -> list[Item]:
    """Give every question options (where it has none), an Irrelevant Chain option for text
    answers, and a seeded display order."""
    answers_by_item = [[q.answers[0] for q in i.questions if q.answers] for i in items]
    out = []
    for index, item in enumerate(items):
        rng = rng_for(seed, item.dataset, item.id, "rcc.options")
        questions = []
        for q in item.questions:
            answer = q.answers[0] if q.answers else ""
            kind = answer_type(answer) if q.answer_type == "open" else q.answer_type
            options = q.options
            if not options:
                if kind == "tf":
                    options = tf_options(answer)
                elif kind == "number":
                    options = number_options(answer, rng)
                elif kind == "word":
                    if pos is None:
                        from rattle.nlp.spacy_pos import pos_tags

                        pos = pos_tags
                    options = word_options(answer, item.passage or "", pos)
                else:
                    options = text_options(answer, rng, synonyms)
            if chain and kind == "text" and len(items) > 1:
                shown = {o.text for o in options}
                for _ in range(20):  # redrawn while it repeats an option (the authors' did not)
                    other = rng.randrange(len(items) - 1)
                    other += other >= index
                    pick = rng.choice(answers_by_item[other] or [MASK])
                    if pick not in shown:
                        break
                options = (*options, Option(pick, "Irrelevant Chain"))
            order = list(range(len(options)))
            rng.shuffle(order)
            correct = next((k for k, o in enumerate(options) if o.kind == GT), 0)
            if kind == "tf":
                answer = str(tf_value(answer))
            questions.append(replace(q, answers=(answer,) if answer else q.answers,
                                     options=options, correct=correct, order=tuple(order),
                                     answer_type=kind))
        out.append(replace(item, questions=tuple(questions)))
    return out
