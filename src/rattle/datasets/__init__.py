"""Dataset loading: local files in their native formats and the built-in mini sets.

``load_dataset(spec)`` accepts a built-in name (``mini-mc``, ``mini-qa``), a path whose format
is recognised from the content (an RCC primitive JSON object, or DPR-style JSONL), or
``<format>:<path or hf:id>`` for one of the RCC datasets' native formats (``aqua:AQuA.jsonl``,
``gsm8k:hf:openai/gsm8k:socratic:test``), RGB and PoisonedRAG files, or ``<name>:hub`` for
NQ-open, TriviaQA, WebQuestions and PopQA from the Hugging Face hub (network access needed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import islice
from pathlib import Path

from rattle.errors import DataError
from rattle.items import Item

DATA_DIR = Path(__file__).parent / "data"
BUILTIN = {
    "mini-mc": DATA_DIR / "mini_mc.json",
    "mini-qa": DATA_DIR / "mini_qa.jsonl",
    "factoid-claims": DATA_DIR / "factoid_claims.jsonl",
}


def _sniff(path: Path) -> str:
    name = path.name.lower()
    if name.endswith((".jsonl", ".jsonl.gz")):
        return "claims" if _first_row_has(path, ("claim", "sentence")) else "dpr"
    try:
        with path.open("rb") as fh:
            head = fh.read(4096).decode("utf-8", "ignore").lstrip()
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    if head.startswith("{"):
        # One object per line (JSONL) or one big object (RCC primitive, PoisonedRAG)?
        first = head.split("\n", 1)[0]
        try:
            row = json.loads(first)
        except ValueError:
            row = None
        if isinstance(row, dict):
            if "query" in row and ("positive" in row or "negative" in row):
                return "rgb"
            if any(isinstance(v, dict) and "sub-qa" in v for v in row.values()):
                return "rcc"
            return "dpr"
        try:
            whole = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            whole = None
        if isinstance(whole, dict) and whole:
            sample = next(iter(whole.values()))
            if isinstance(sample, dict) and "adv_texts" in sample:
                return "poisonedrag"
        return "rcc"
    raise DataError("unknown dataset format", path=str(path),
                    fix="use an RCC primitive .json or a JSONL file with question/answers/ctxs")


def _first_row_has(path: Path, keys: tuple[str, ...]) -> bool:
    from rattle.datasets.qa import read_lines

    for _, line in read_lines(path):
        try:
            row = json.loads(line)
        except ValueError:
            return False
        return isinstance(row, dict) and any(k in row for k in keys) and "question" not in row
    return False


def _prefixed(spec: str) -> tuple[str, str] | None:
    """``<format>:<path>`` with a registered format (``aqua:AQuA.jsonl``), else None."""
    from rattle import registry

    fmt, sep, rest = spec.partition(":")
    name = fmt.lower().replace("-", "").replace("_", "")
    if not sep or not rest or len(fmt) < 2:  # "C:\\..." and plain paths are not prefixes
        return None
    known = {e.name for e in registry.entries("dataset_format")}
    return (name, rest) if name in known else None


def load_dataset(spec: str, *, limit: int | None = None, skip_invalid: bool = False,
                 skipped: list[str] | None = None) -> list[Item]:
    """Items of a built-in set, a file in a recognised format, ``<format>:<path>`` or
    ``<name>:hub``; ``skipped`` collects the lines ``skip_invalid`` skipped."""
    from rattle import registry

    fmt, sep, rest = spec.partition(":")
    if sep and rest == "hub":
        from rattle.datasets.rag import read_hub_qa

        return list(read_hub_qa(fmt, limit=limit))
    prefixed = _prefixed(spec)
    if prefixed is not None:
        name, source = prefixed
        reader = registry.get("dataset_format", name).factory
        items = list(reader(Path(source), limit=limit, skip_invalid=skip_invalid,
                            skipped=skipped))
        return items
    path = BUILTIN.get(spec, Path(spec))
    if not path.exists():
        raise DataError(f"no such dataset file or built-in set {spec!r}",
                        fix="pass a path, or one of: " + ", ".join(sorted(BUILTIN)))
    kind = _sniff(path)
    dataset = spec if spec in BUILTIN else None
    reader = registry.get("dataset_format", kind).factory
    found: Iterable[Item] = reader(path, dataset=dataset, skip_invalid=skip_invalid,
                                   skipped=skipped, limit=limit)
    out = list(islice(found, limit) if limit is not None else found)
    if not out:
        raise DataError("the dataset has no items", path=str(path))
    return out
