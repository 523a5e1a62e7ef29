"""The test-data manifest: shared copy, cache, or a download checked against its sha256.

A local HTTP server stands in for the pinned source (raw.githubusercontent.com).
"""

from __future__ import annotations

import hashlib
import http.server
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import external_data
from tests.external_data import MANIFEST, ExternalDataError, locate, manifest

ROOT = Path(__file__).resolve().parents[1]
SMALL = ("LLMRiskEval_RCC", "Datasets", "prompt_template.json")
SMALL_REL = "/".join(SMALL)


def _doc() -> dict:  # type: ignore[type-arg]
    return json.loads(MANIFEST.read_text())


@pytest.fixture()
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, str]]:
    """A local server laid out as <repository>/<commit>/<path>; no shared copy, empty cache."""
    root = tmp_path / "server"
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=str(root), **k)  # noqa: E731
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{{repository}}/{{commit}}/{{source_path}}"
    monkeypatch.setenv("RATTLE_SHARED_DIR", str(tmp_path / "no-shared"))
    monkeypatch.setenv("RATTLE_TEST_DATA", str(tmp_path / "cache"))
    monkeypatch.setenv("RATTLE_TEST_DATA_URL", url)
    manifest.cache_clear()
    external_data._checked.clear()
    yield root, url
    server.shutdown()
    manifest.cache_clear()
    external_data._checked.clear()


def _publish(root: Path, rel: str, data: bytes) -> None:
    doc = _doc()
    entry = next(f for f in doc["files"] if f["path"] == rel)
    source = doc["sources"][entry["source"]]
    target = root / source["repository"] / source["commit"] / entry["source_path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def test_manifest_lists_every_file_with_source_commit_sha_and_license() -> None:
    doc = _doc()
    assert len(doc["files"]) == 27
    for f in doc["files"]:
        source = doc["sources"][f["source"]]
        assert len(source["commit"]) == 40 and source["license"] and "/" in source["repository"]
        assert len(f["sha256"]) == 64 and f["path"] == f"{f['source']}/{f['source_path']}"


def test_every_test_reads_external_data_through_the_manifest() -> None:
    # No test reaches shared/ by path: only tests/external_data.py knows where it is.
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
                 if p.name not in ("external_data.py", "test_external_data.py")
                 and ("shared" + "/external" in p.read_text() or "RATTLE_SHARED_DIR" in p.read_text())]
    assert offenders == []


def test_shared_copy_is_found_and_verified() -> None:
    path = locate(*SMALL)
    assert path.is_file()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == manifest()[SMALL_REL].sha256


@pytest.fixture()
def good() -> bytes:
    """The real file's bytes (from wherever the manifest finds it), to serve."""
    return locate(*SMALL).read_bytes()


def test_without_shared_the_file_is_downloaded_verified_and_cached(
        good: bytes, served: tuple[Path, str]) -> None:
    root, _ = served
    _publish(root, SMALL_REL, good)
    path = locate(*SMALL)
    assert path == Path(external_data.cache_dir()) / SMALL_REL
    assert path.read_bytes() == good
    # Served no more: the cached copy is used (and verified).
    (root / "yyy01").rename(root / "gone")
    assert locate(*SMALL).read_bytes() == good


def test_a_download_whose_checksum_differs_is_refused(served: tuple[Path, str]) -> None:
    root, _ = served
    _publish(root, SMALL_REL, b'{"tampered": true}\n')
    with pytest.raises(ExternalDataError, match=r"(?i)hash|sha256"):
        locate(*SMALL)
    assert not (external_data.cache_dir() / SMALL_REL).exists()


def test_a_cached_file_that_differs_is_reported(served: tuple[Path, str]) -> None:
    bad = external_data.cache_dir() / SMALL_REL
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not it")
    with pytest.raises(ExternalDataError, match="differs from the manifest"):
        locate(*SMALL)


def test_offline_without_a_copy_fails_with_one_line_naming_the_fix(
        tmp_path: Path) -> None:
    # A separate pytest run, as a user would see it: the server is not there at all.
    test = tmp_path / "test_needs_data.py"
    test.write_text("from tests.conftest import external\n\n"
                    "def test_reads():\n    external('RGB', 'data', 'en_fact.json')\n")
    env = {"RATTLE_SHARED_DIR": str(tmp_path / "none"), "RATTLE_TEST_DATA": str(tmp_path / "c"),
           "RATTLE_TEST_DATA_URL": "http://127.0.0.1:9/{repository}/{commit}/{source_path}",
           "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT) + ":" + str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), str(test)],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 1
    lines = [x for x in out.stdout.splitlines() if "make test-data" in x]
    assert lines, out.stdout
    assert "tests/external-data.json" in lines[0] and "RGB/data/en_fact.json" in lines[0]
    assert "Traceback" not in out.stdout
