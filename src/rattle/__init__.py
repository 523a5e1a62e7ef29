"""rattle: stress-test LLMs and RAG systems and report robustness metrics with CIs.

Importing this package is cheap: no torch, spaCy or llama.cpp is loaded until a component
that needs it is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from rattle.report.load import LoadedRun


def load_run(path: str) -> LoadedRun:
    """Open a finished run folder for analysis (``.cases``, ``.metrics``)."""
    from rattle.report.load import load_run as _load

    return _load(path)

