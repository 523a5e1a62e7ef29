"""Prompt wordings (RCC §3.4 "Prompt Attack", Table 5): the same task, five instructions.

The strings are the paper's published templates as the authors' code sends them (the opening
of the description turn, ending in a double quote that the passage follows; template 0 keeps
its two spaces before "The description"); reference-implementations.md §2.5.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rattle.errors import ConfigError
from rattle.items import Edit, Item, Target
from rattle.perturbations.base import Perturber
from rattle.registry import register

# RCC Table 5, in the order of the authors' prompt_template.json; index 0 is the default prompt.
RCC_TEMPLATES: tuple[str, ...] = (
    (
        "Next, I will ask you a series of questions given a description, and you will have to "
        "choose one of several candidate options that you think is correct.  The description is \""
    ),
    "\"",
    "To answer the following question according the following information \"",
    "Complete the description with an appropriate ending: \"",
    "You must choose the best answer from the following choices marked (A), (B), (C), (D) or (E). \"",
)
RCC_TEMPLATE_NAMES = ("human-made (default)", "blank", "human-made 2", "OPT", "CET examination")


def instruction_of(item: Item) -> str:
    value = item.meta.get("instruction", RCC_TEMPLATES[0])
    return str(value)


@register("perturbation", "prompts.wording")
def wording(*, index: int = 1, text: str | None = None) -> Perturber:
    """Swap the instruction for RCC Table 5 wording `index` (0-4) or a custom `text`."""
    if text is None and not 0 <= index < len(RCC_TEMPLATES):
        raise ConfigError(f"prompts.wording: index must be 0-{len(RCC_TEMPLATES) - 1}, got {index}")
    new = text if text is not None else RCC_TEMPLATES[index]

    def run(item: Item, key: int) -> tuple[Item, Target, tuple[Edit, ...], dict[str, Any]]:
        old = instruction_of(item)
        meta = {**item.meta, "instruction": new}
        edits = (Edit(0, old, new),) if old != new else ()
        return replace(item, meta=meta), "prompt", edits, {}

    return run
