"""External test data, found or fetched through one manifest (``tests/external-data.json``).

Every external file a test reads is listed there with its source repository, pinned commit,
path, sha256 and license. A file is taken from the first place that has it:

1. ``../shared/external`` beside the checkout (``$RATTLE_SHARED_DIR/external``): what CI lays out;
2. the test-data cache, ``$RATTLE_TEST_DATA`` (default ``~/.cache/rattle/test-data``);
3. a download from the pinned commit (``pooch``), checked against the sha256 before use.

Offline with no copy, the test that needs the file fails with one line naming the manifest
and the command that fetches everything: ``make test-data`` (``python -m tests.external_data``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "tests" / "external-data.json"
FETCH = "make test-data"


class ExternalDataError(Exception):
    """A manifest file that is neither present nor obtainable (message is one line)."""


@dataclass(frozen=True)
class DataFile:
    path: str  # relative to shared/external
    url: str
    sha256: str
    license: str


def shared_dir() -> Path:
    return Path(os.environ.get("RATTLE_SHARED_DIR", ROOT.parent / "shared")) / "external"


def cache_dir() -> Path:
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "rattle" / "test-data"
    return Path(os.environ.get("RATTLE_TEST_DATA", default))


@cache
def manifest() -> dict[str, DataFile]:
    doc = json.loads(MANIFEST.read_text(encoding="utf-8"))
    template = os.environ.get("RATTLE_TEST_DATA_URL", doc["url"])
    out = {}
    for f in doc["files"]:
        source = doc["sources"][f["source"]]
        url = template.format(repository=source["repository"], commit=source["commit"],
                              source_path=f["source_path"])
        out[f["path"]] = DataFile(f["path"], url, f["sha256"], source["license"])
    return out


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


_checked: dict[Path, str] = {}


def _verified(path: Path, entry: DataFile) -> Path:
    digest = _checked.get(path) or _checked.setdefault(path, _sha256(path))
    if digest != entry.sha256:
        raise ExternalDataError(
            f"{path}: sha256 {digest[:16]}… differs from the manifest's {entry.sha256[:16]}… "
            f"({MANIFEST.relative_to(ROOT)}); delete it and run `{FETCH}`")
    return path


def _download(entry: DataFile, target: Path) -> Path:
    import pooch

    try:
        got = pooch.retrieve(entry.url, known_hash=f"sha256:{entry.sha256}",
                             fname=target.name, path=target.parent, progressbar=False)
    except ValueError as exc:  # pooch: the downloaded bytes do not match the sha256
        raise ExternalDataError(f"{entry.url}: {str(exc).splitlines()[0]} (manifest "
                                f"{MANIFEST.relative_to(ROOT)})") from None
    except Exception as exc:  # no network, HTTP error: one line, the fix
        raise ExternalDataError(
            f"test data {entry.path} is not available: not in {shared_dir()} nor {cache_dir()}, "
            f"and the download failed ({type(exc).__name__}); fetch it once with `{FETCH}` "
            f"(manifest {MANIFEST.relative_to(ROOT)})") from None
    return Path(got)


def locate(*parts: str) -> Path:
    """The verified local path of a manifest file, downloading it into the cache if needed."""
    rel = "/".join(parts)
    entry = manifest().get(rel)
    if entry is None:
        raise ExternalDataError(f"{rel} is not in {MANIFEST.relative_to(ROOT)}: add it with its "
                                "source, commit, sha256 and license before a test reads it")
    for base in (shared_dir(), cache_dir()):
        path = base / rel
        if path.is_file():
            return _verified(path, entry)
    return _download(entry, cache_dir() / rel)


def fetch_all() -> list[Path]:
    return [locate(*rel.split("/")) for rel in manifest()]


if __name__ == "__main__":
    try:
        for p in fetch_all():
            print(p)
    except ExternalDataError as exc:
        sys.exit(str(exc))
