"""``example.shout``: upper-case the passage (or question), one edit per changed word."""

from __future__ import annotations

import random
from typing import Annotated, Any

from rattle.items import Edit
from rattle.perturbations.base import Perturber, on_text
from rattle.registry import register


@register("perturbation", "example.shout", version=3)
def shout(*, suffix: Annotated[str, "text appended to the passage"] = "!") -> Perturber:
    """Upper-case every word and append a suffix."""

    def op(text: str, rng: random.Random) -> tuple[str, tuple[Edit, ...], dict[str, Any]]:
        edits, start = [], 0
        for word in text.split(" "):
            if word != word.upper():
                edits.append(Edit(start, word, word.upper()))
            start += len(word) + 1
        return text.upper() + suffix, tuple(edits), {}

    return on_text(op)
