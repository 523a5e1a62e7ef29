"""Writing files so that a killed process never leaves a half-written one."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO


def atomic_write(path: Path, write: Callable[[TextIO], object]) -> None:
    """Write ``path`` through ``write(fh)`` into a temporary name, then rename it into place."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        write(fh)
    os.replace(tmp, path)


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write(path, lambda fh: fh.write(text))
