"""Dataset formats, registered (kind ``dataset_format``): each reads a file into Items.

``load_dataset`` recognises a file's format from its content, or takes it from a
``<format>:<path>`` prefix; another package registers its own format the same way
(``@register("dataset_format", "myformat")`` on a reader with the signature below).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rattle.items import Item
from rattle.registry import register


@register("dataset_format", "rcc", sniffed=True)
def rcc(path: Path, *, dataset: str | None = None, skip_invalid: bool = False,
        skipped: list[str] | None = None, limit: int | None = None) -> Iterable[Item]:
    """RCC data primitive JSON ({id: {passage, sub-qa}}), read losslessly."""
    from rattle.datasets.rcc import read_primitive

    return read_primitive(path, dataset=dataset)


@register("dataset_format", "dpr", sniffed=True)
def dpr(path: Path, *, dataset: str | None = None, skip_invalid: bool = False,
        skipped: list[str] | None = None, limit: int | None = None) -> Iterable[Item]:
    """DPR/FiD JSONL (question, answers, ctxs), gzip too."""
    from rattle.datasets.qa import read_dpr

    return read_dpr(path, dataset=dataset, skip_invalid=skip_invalid, skipped=skipped)


@register("dataset_format", "claims", sniffed=True)
def claims(path: Path, *, dataset: str | None = None, skip_invalid: bool = False,
           skipped: list[str] | None = None, limit: int | None = None) -> Iterable[Item]:
    """JSONL of true sentences ({"claim": ...}) for the factoid suites."""
    from rattle.datasets.claims import read_claims

    return read_claims(path, dataset=dataset, skip_invalid=skip_invalid, skipped=skipped)


@register("dataset_format", "rgb", sniffed=True)
def rgb(path: Path, *, dataset: str | None = None, skip_invalid: bool = False,
        skipped: list[str] | None = None, limit: int | None = None) -> Iterable[Item]:
    """RGB benchmark JSONL (query, answer, positive/negative passages, fact-swapped ones)."""
    from rattle.datasets.rag import read_rgb

    return read_rgb(path, dataset=dataset)


@register("dataset_format", "poisonedrag", sniffed=True)
def poisonedrag(path: Path, *, dataset: str | None = None, skip_invalid: bool = False,
                skipped: list[str] | None = None, limit: int | None = None) -> Iterable[Item]:
    """PoisonedRAG results JSON (questions, incorrect answers, adversarial passages)."""
    from rattle.datasets.rag import read_poisonedrag

    return read_poisonedrag(path, dataset=dataset)


def _rcc_native(fmt: str) -> None:
    def read(path: Path, *, dataset: str | None = None, skip_invalid: bool = False,
             skipped: list[str] | None = None, limit: int | None = None) -> Iterable[Item]:
        from rattle.datasets.rcc_convert import convert

        return convert(fmt, str(path), limit=limit)

    read.__doc__ = f"{fmt}: the RCC dataset's native file (or hf:<id>), converted as the authors did"
    register("dataset_format", fmt, native=True)(read)


# The twelve RCC datasets in their native formats (reference-implementations.md §2.3).
RCC_NATIVE = ("aqua", "creak", "strategyqa", "ecqa", "qasc", "senmaking", "esnli", "qed",
              "gsm8k", "babi15", "babi16", "noahqa")
for _fmt in RCC_NATIVE:
    _rcc_native(_fmt)
