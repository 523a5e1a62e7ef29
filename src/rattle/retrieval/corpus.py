"""A passage corpus: DPR-style JSONL (``id``, ``title``, ``text``) or TSV (``id  text  title``),
or the documents carried by a dataset's items."""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rattle.datasets.qa import parse_json_line, read_lines
from rattle.errors import DataError
from rattle.items import Document


@dataclass(frozen=True)
class Corpus:
    documents: tuple[Document, ...]
    fingerprint: str
    path: Path | None = None

    def __len__(self) -> int:
        return len(self.documents)

    def index_dir(self, kind: str, settings: str) -> Path | None:
        if self.path is None:
            return None
        return self.path.parent / f"{self.path.name}.rattle-index" / f"{kind}-{settings}-{self.fingerprint[:16]}"


def _fingerprint(docs: Sequence[Document]) -> str:
    h = hashlib.sha256()
    for d in docs:
        h.update(f"{d.id}\x1f{d.title}\x1f{d.text}\x1e".encode())
    return h.hexdigest()


def load_corpus(path: str | Path) -> Corpus:
    p = Path(path)
    if not p.is_file():
        raise DataError("no such corpus file", path=str(p),
                        fix="pass a JSONL (id, title, text) or DPR TSV (id, text, title) file")
    docs: list[Document] = []
    if p.suffix == ".tsv":
        with p.open(encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh, delimiter="\t")
            header = next(reader, None)
            if header is None or "text" not in header:
                raise DataError("TSV corpus needs a header with id, text, title", path=str(p), line=1)
            col = {name: i for i, name in enumerate(header)}
            for lineno, row in enumerate(reader, 2):
                if len(row) != len(header):
                    raise DataError(f"expected {len(header)} columns, got {len(row)}",
                                    path=str(p), line=lineno)
                docs.append(Document(id=row[col.get("id", 0)], text=row[col["text"]],
                                     title=row[col["title"]] if "title" in col else ""))
    else:
        for lineno, line in read_lines(p):
            obj = parse_json_line(p, lineno, line)
            text = obj.get("text") or obj.get("contents")
            if not isinstance(text, str):
                raise DataError("missing 'text'", path=str(p), line=lineno, field="text")
            docs.append(Document(id=str(obj.get("id", obj.get("_id", lineno))), text=text,
                                 title=str(obj.get("title") or "")))
    if not docs:
        raise DataError("the corpus is empty", path=str(p))
    return Corpus(tuple(docs), _fingerprint(docs), p)
