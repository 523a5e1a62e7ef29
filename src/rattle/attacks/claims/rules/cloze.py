"""The cloze test (paper Table 3, Appendix D.2): the first time or number of the sentence is
blanked and asked for; never one inside a name ("Apollo 11")."""

from __future__ import annotations

import random
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.claims.rules.common import as_sentence
from rattle.attacks.claims.rules.numerical import NUMBER_WORDS, numbers
from rattle.attacks.claims.rules.temporal import time_expressions
from rattle.attacks.documents.base import Dropped


def cloze(claim: str, doc: Any, rng: random.Random) -> Outcome:
    """Blank the first year, date or number of the sentence and ask for it."""
    options: list[tuple[int, int, str, tuple[str, ...]]] = []
    for t in time_expressions(claim, doc):
        if t.kind in ("year", "date", "month"):
            text = claim[t.start:t.end]
            blank = "<which year>" if t.kind == "year" else "<which date>"
            options.append((t.start, t.end, blank, tuple(dict.fromkeys((text, str(t.year))))))
    for n in numbers(claim, doc):
        alias = [n.text, n.text.lstrip("$£€")]
        if n.word:
            alias.append(str(int(n.value)))
        elif n.value == int(n.value) and int(n.value) in NUMBER_WORDS:
            alias.append(NUMBER_WORDS[int(n.value)])
        if n.commas:
            alias.append(n.text.replace(",", "").lstrip("$£€"))
        options.append((n.start, n.end, "<how many>" if n.decimals == 0 else "<what number>",
                        tuple(dict.fromkeys(alias))))
    if not options:
        return Dropped("cloze", "no time or number to blank")
    start, end, blank, answers = sorted(options)[0]
    sentence = claim[:start] + blank + claim[end:]
    question = f'What should replace {blank} in this sentence: "{sentence}"?'
    return ClaimAttack("cloze", None, question, claim[start:end], blank, start, None,
                       as_sentence(claim), answers, {"blank": blank, "sentence": sentence})
