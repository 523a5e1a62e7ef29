"""Option orders (RCC §3.4 "Options Attack"): show the same options in another order.

``mode="cyclic"`` rotates the display order by ``k`` (over k = 0..n-1 every option is shown
once in every position, which isolates position bias); ``mode="random"`` draws a seeded
permutation different from the current one (``k`` numbers the draw). The semantics of the item do not change; the display
order is recorded in each question's ``order``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Literal

from rattle.errors import ConfigError
from rattle.items import Edit, Item, Target
from rattle.perturbations.base import Perturber
from rattle.registry import register


@register("perturbation", "options.order")
def order(*, k: int = 1, mode: Literal["cyclic", "random"] = "random") -> Perturber:
    """Reorder the displayed options: cyclic shift by k, or the k-th seeded random order."""
    if mode not in ("cyclic", "random"):
        raise ConfigError(f"options.order: mode must be 'cyclic' or 'random', got {mode!r}")

    def run(item: Item, key: int) -> tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]:
        rng = random.Random(key)
        questions = []
        edits = []
        for q in item.questions:
            n = len(q.options)
            if n < 2:
                questions.append(q)
                continue
            base = list(q.order or range(n))
            if mode == "cyclic":
                shift = k % n
                new = base[shift:] + base[:shift]
            else:
                new = list(base)
                while new == base:  # an order attack must change the order
                    rng.shuffle(new)
            questions.append(replace(q, order=tuple(new)))
            if new != base:
                edits.append(Edit(0, ",".join(map(str, base)), ",".join(map(str, new))))
        return replace(item, questions=tuple(questions)), "options", tuple(edits), {}

    return run
