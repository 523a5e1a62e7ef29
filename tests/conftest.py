from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.external_data import ExternalDataError, locate

ROOT = Path(__file__).resolve().parents[1]

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    return tmp_path / "ws"


def external(*parts: str) -> Path:
    """An external data file from tests/external-data.json (the shared copy, the cache, or
    downloaded and checked); when none can be had, the test fails with one line saying how
    to fetch the data."""
    try:
        return locate(*parts)
    except ExternalDataError as exc:
        pytest.fail(str(exc), pytrace=False)
