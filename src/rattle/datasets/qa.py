"""Short-answer QA in the DPR/FiD retrieval format, one JSON object per line.

``{"question": str, "answers": [str], "ctxs": [{"id"?, "title", "text", "hasanswer"?}]}``
(the lost-in-the-middle NQ-open files add ``isgold``). Gzip files are read transparently.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rattle.errors import DataError
from rattle.items import Document, Item, Question


def read_lines(path: Path) -> Iterator[tuple[int, str]]:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as fh:
            for lineno, raw in enumerate(fh, 1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise DataError(f"not UTF-8 text (byte {exc.start} of the line)",
                                    path=str(path), line=lineno,
                                    fix="re-encode the file as UTF-8") from None
                if line.strip():
                    yield lineno, line
    except OSError as exc:
        raise DataError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None


def parse_json_line(path: Path, lineno: int, line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON at column {exc.colno}: {exc.msg}", path=str(path),
                        line=lineno) from None
    if not isinstance(value, dict):
        raise DataError("each line must be a JSON object", path=str(path), line=lineno)
    return value


def item_from_dpr(row: dict[str, Any], *, dataset: str, index: int, path: Path,
                  lineno: int) -> Item:
    question = row.get("question")
    if not isinstance(question, str) or not question.strip():
        raise DataError("missing or empty question", path=str(path), line=lineno, field="question")
    answers = row.get("answers")
    if isinstance(answers, str):
        answers = [answers]
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise DataError("'answers' must be a list of strings", path=str(path), line=lineno,
                        field="answers")
    ctxs = row.get("ctxs") or []
    if not isinstance(ctxs, list):
        raise DataError("'ctxs' must be a list", path=str(path), line=lineno, field="ctxs")
    docs = []
    for k, ctx in enumerate(ctxs):
        if not isinstance(ctx, dict) or not isinstance(ctx.get("text"), str):
            raise DataError("each ctx needs a 'text' string", path=str(path), line=lineno,
                            field=f"ctxs[{k}].text")
        has = ctx.get("hasanswer")
        docs.append(Document(
            id=str(ctx.get("id", f"{dataset}-{index}-ctx{k}")),
            text=ctx["text"],
            title=str(ctx.get("title") or ""),
            has_answer=bool(has) if has is not None else None,
        ))
    item_id = str(row.get("id", f"{dataset}-{index}"))
    return Item(
        id=item_id,
        questions=(Question(text=question, answers=tuple(answers), answer_type="open"),),
        documents=tuple(docs),
        dataset=dataset,
    )


def read_jsonl_items(path: Path, make: Callable[[dict[str, Any], int], Item], *,
                     skip_invalid: bool = False, skipped: list[str] | None = None) -> Iterator[Item]:
    """``make(row, line number)`` for each JSON line; a line that raises ``DataError`` stops the
    read, or with ``skip_invalid`` is skipped and its error appended to ``skipped``."""
    for lineno, line in read_lines(path):
        try:
            item = make(parse_json_line(path, lineno, line), lineno)
        except DataError as exc:
            if not skip_invalid:
                raise
            if skipped is not None:
                skipped.append(str(exc))
            continue
        yield item


def read_dpr(path: str | Path, *, dataset: str | None = None, skip_invalid: bool = False,
             skipped: list[str] | None = None) -> Iterator[Item]:
    p = Path(path)
    name = dataset or p.name.split(".")[0]
    index = 0

    def make(row: dict[str, Any], lineno: int) -> Item:
        return item_from_dpr(row, dataset=name, index=index, path=p, lineno=lineno)

    for item in read_jsonl_items(p, make, skip_invalid=skip_invalid, skipped=skipped):
        index += 1
        yield item
