"""The http system against a user's service on 127.0.0.1; keys never reach outputs."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rattle.cli import app
from rattle.systems.http import get_path, render

CANARY = "sk-canary-0123456789abcdef"


class Service:
    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        owner = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                return None

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.bodies.append(body)
                owner.headers.append(dict(self.headers))
                docs = body.get("docs") or []
                answer = docs[0]["text"].split(" is ")[0] if docs else "I do not know"
                data = json.dumps({"result": {"text": answer},
                                   "sources": [d["id"] for d in docs]}).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/ask"

    def stop(self) -> None:
        self.server.shutdown()


def test_get_path_and_render() -> None:
    data = {"a": {"b": [{"c": "x"}]}}
    assert get_path(data, "$.a.b.0.c") == "x" and get_path(data, "a.z") is None
    out = render({"q": "Q: {question}", "d": "{documents}"}, {"question": "why"}, {"documents": [1]})
    assert out == {"q": "Q: why", "d": [1]}


def test_qa_suite_against_a_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERVICE_KEY", CANARY)
    service = Service()
    try:
        result = CliRunner().invoke(app, [
            "run", "qa.context", "--system", "http", "--url", service.url,
            "--template", '{"query": "{question}", "docs": "{documents}"}',
            "--answer-path", "result.text", "--citations-path", "sources",
            "--header", "Authorization: Bearer ${SERVICE_KEY}",
            "--out", str(tmp_path / "run"), "--workspace", str(tmp_path / "ws"),
        ])
    finally:
        service.stop()
    assert result.exit_code == 0, result.output
    assert service.headers[0]["Authorization"] == f"Bearer {CANARY}"
    assert "What is the capital of France?" in {b["query"] for b in service.bodies}
    records = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    gold = [r for r in records if r["group"]["condition"] == "gold"]
    assert gold[0]["citations"] == ["mini-qa-0-gold"] and gold[0]["response"] == "Paris"
    closed = [r for r in records if r["group"]["condition"] == "closed_book"]
    assert all(r["correct"] is False for r in closed)
    # The key never reaches the store, results, metrics or report.
    for path in [*(tmp_path / "run").iterdir(), *(tmp_path / "ws").iterdir()]:
        assert CANARY.encode() not in path.read_bytes(), path


class Redirector:
    """A service that answers 307 to another host, and that other host, which records hits."""

    def __init__(self) -> None:
        self.hits: list[dict[str, str]] = []
        owner = self

        class Other(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                return None

            def do_POST(self) -> None:
                owner.hits.append(dict(self.headers))
                self.send_response(200)
                self.end_headers()

        self.other = ThreadingHTTPServer(("127.0.0.2", 0), Other)
        threading.Thread(target=self.other.serve_forever, daemon=True).start()
        target = f"http://127.0.0.2:{self.other.server_address[1]}/steal"

        class Redirect(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                return None

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                self.send_response(307)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/ask"

    def stop(self) -> None:
        self.server.shutdown()
        self.other.shutdown()


def test_credentials_never_follow_a_redirect_to_another_host(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SERVICE_KEY", CANARY)
    r = Redirector()
    try:
        result = CliRunner().invoke(app, [
            "run", "qa.context", "--system", "http", "--url", r.url, "--limit", "2",
            "--header", "Authorization: Bearer ${SERVICE_KEY}", "--max-unmeasured", "1",
            "--out", str(tmp_path / "run"), "--workspace", str(tmp_path / "ws")])
    finally:
        r.stop()
    assert result.exit_code == 0, result.output
    assert r.hits == []  # nothing, credentials included, reached the other host
    records = [json.loads(x) for x in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert all(r["correct"] is None and "redirect not followed" in r["error"] for r in records)
