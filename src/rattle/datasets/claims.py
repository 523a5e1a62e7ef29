"""Factual claims, one JSON object per line: ``{"claim": str, "id"?, "source"?, "domain"?}``
(``sentence`` or ``text`` also name the claim). The built-in ``factoid-claims`` holds 45 true
sentences across literature, history, sports, arts, science and places, with their sources.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rattle.datasets.qa import read_jsonl_items
from rattle.errors import DataError
from rattle.items import Item

FIELDS = ("claim", "sentence", "text")


def read_claims(path: str | Path, *, dataset: str | None = None, skip_invalid: bool = False,
                skipped: list[str] | None = None) -> Iterator[Item]:
    p = Path(path)
    name = dataset or p.name.split(".")[0]
    seen: set[str] = set()

    def make(row: dict[str, Any], lineno: int) -> Item:
        claim = next((row[f] for f in FIELDS if isinstance(row.get(f), str)), None)
        if claim is None or not claim.strip():
            raise DataError("missing or empty claim", path=str(p), line=lineno, field="claim",
                            fix='give each line a "claim" string (or "sentence")')
        item_id = str(row.get("id") or f"{name}-{lineno}")
        if item_id in seen:
            raise DataError(f"duplicate id {item_id!r}", path=str(p), line=lineno, field="id")
        seen.add(item_id)
        meta = {k: v for k, v in row.items() if k not in (*FIELDS, "id")}
        return Item(id=item_id, questions=(), claim=claim.strip(), dataset=name, meta=meta)

    return read_jsonl_items(p, make, skip_invalid=skip_invalid, skipped=skipped)
