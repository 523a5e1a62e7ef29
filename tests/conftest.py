from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# CI lays shared/ beside the checkout; RATTLE_SHARED_DIR points elsewhere when it is not.
SHARED = Path(os.environ.get("RATTLE_SHARED_DIR", ROOT.parent / "shared"))
EXTERNAL = SHARED / "external"

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    return tmp_path / "ws"


def external(*parts: str) -> Path:
    path = EXTERNAL.joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"test data {path} is missing: shared/external must sit beside the repo")
    return path
