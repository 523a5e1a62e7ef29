"""Writing files so that a killed process never leaves a half-written one; reading JSONL
objects with errors that name the file and line."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from rattle.errors import DataError


def atomic_write(path: Path, write: Callable[[TextIO], object]) -> None:
    """Write ``path`` through ``write(fh)`` into a temporary name, then rename it into place."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        write(fh)
    os.replace(tmp, path)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda fh: fh.write(text))


@contextmanager
def atomic_dir(folder: Path, done: str) -> Iterator[Path]:
    """A temporary folder beside ``folder`` to fill; renamed to ``folder`` when the block
    ends, removed if it raises. When another process renamed its own copy into place first
    (its ``done`` file, written last, exists), that copy is kept and this one dropped."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".tmp-{folder.name}-"))
    try:
        yield tmp
        try:
            tmp.rename(folder)
        except OSError:
            if not (folder / done).is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def jsonl_objects(path: Path, what: str = "") -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSONL file; a line that is not
    a JSON object, or a file that cannot be read (``what`` names it: "the knowledge corpus"),
    is one :class:`DataError` naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DataError(f"cannot read {what or 'the file'}: {exc.strerror or exc}",
                        path=str(path)) from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            raise DataError("not valid JSON", path=str(path), line=n) from None
        if not isinstance(row, dict):
            raise DataError("not a JSON object", path=str(path), line=n)
        yield n, row
