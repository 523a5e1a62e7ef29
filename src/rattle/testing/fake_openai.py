"""A local OpenAI-compatible chat-completions server for tests and benchmarks (127.0.0.1 only).

Replies are produced by ``reply(messages) -> str`` (default: echo the last user message).
Faults are injected by ``faults``: a callable ``(request_number, body) -> action`` or a list of
actions consumed in order, where an action is one of ``ok``, ``429`` (with ``Retry-After``),
``500``, ``503``, ``timeout`` (sleep past the client's timeout), ``reset`` (close the
connection), ``malformed`` (invalid JSON), ``truncated`` (cut JSON), ``empty`` (no choices),
``redirect`` (307 to another host). Every request is logged in ``requests``.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Action = str
FaultPlan = Callable[[int, dict[str, Any]], Action] | Sequence[Action]


def echo_reply(messages: list[dict[str, Any]]) -> str:
    users = [m for m in messages if m.get("role") == "user"]
    return str(users[-1]["content"]) if users else ""


class FakeOpenAIServer:
    """A local OpenAI-compatible server for tests: injected faults, latency, a request log."""

    def __init__(
        self,
        reply: Callable[[list[dict[str, Any]]], str] = echo_reply,
        faults: FaultPlan | None = None,
        *,
        latency_s: float = 0.0,
        retry_after: float = 0.05,
        timeout_sleep_s: float = 2.0,
        log_path: str | None = None,
        max_active: int | None = None,
    ) -> None:
        self.reply = reply
        self.faults = faults
        self.latency_s = latency_s
        self.retry_after = retry_after
        self.timeout_sleep_s = timeout_sleep_s
        self.log_path = log_path
        self.max_active = max_active
        self.active = 0
        self.peak_active = 0
        self.requests: list[dict[str, Any]] = []
        self.actions: list[Action] = []
        self.headers_seen: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1" if isinstance(host, str) else f"http://127.0.0.1:{port}/v1"

    def _action(self, number: int, body: dict[str, Any]) -> Action:
        if self.faults is None:
            return "ok"
        if callable(self.faults):
            return self.faults(number, body)
        return self.faults[number] if number < len(self.faults) else "ok"

    def start(self) -> FakeOpenAIServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            """Request handler of the fake server."""

            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                # Headers and body go out in separate writes: without TCP_NODELAY, Nagle's
                # algorithm and delayed ACKs add about 40 ms to every response.
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:
                return None

            def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    self._send(400, b'{"error": "bad json"}')
                    return
                with owner._lock:
                    number = len(owner.requests)
                    owner.requests.append(body)
                    owner.headers_seen.append(dict(self.headers))
                    action = owner._action(number, body)
                    owner.active += 1
                    owner.peak_active = max(owner.peak_active, owner.active)
                    if owner.max_active is not None and owner.active > owner.max_active:
                        action = "429"  # more in flight than this server accepts
                    owner.actions.append(action)
                try:
                    self._answer(owner, number, body, action)
                finally:
                    with owner._lock:
                        owner.active -= 1

            def _answer(self, owner: FakeOpenAIServer, number: int, body: dict[str, Any],
                        action: str) -> None:
                if owner.latency_s:
                    time.sleep(owner.latency_s)
                if action == "429":
                    self._send(429, b'{"error": "rate limited"}',
                               {"Retry-After": str(owner.retry_after)})
                    return
                if action in ("500", "503"):
                    self._send(int(action), b'{"error": "server error"}')
                    return
                if action == "timeout":
                    time.sleep(owner.timeout_sleep_s)
                if action == "reset":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.connection.close()
                    return
                if action == "redirect":
                    self._send(307, b"{}", {"Location": "http://127.0.0.2:9/v1/chat/completions"})
                    return
                if action == "malformed":
                    self._send(200, b"this is not json")
                    return
                text = owner.reply(body.get("messages", []))
                payload = {
                    "id": f"fake-{number}",
                    "object": "chat.completion",
                    "model": body.get("model", ""),
                    "choices": [] if action == "empty" else [
                        {"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": sum(len(str(m.get("content", "")).split())
                                                   for m in body.get("messages", [])),
                              "completion_tokens": len(text.split())},
                }
                data = json.dumps(payload).encode()
                if action == "truncated":
                    data = data[: len(data) // 2]
                self._send(200, data)
                if owner.log_path and action in ("ok", "timeout"):
                    with owner._lock, open(owner.log_path, "a", encoding="utf-8") as fh:
                        fh.write(json.dumps(body.get("messages", []), sort_keys=True) + "\n")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:  # pragma: no cover - used by resume tests as a subprocess
    import argparse

    parser = argparse.ArgumentParser(description="Run a fake OpenAI-compatible server.")
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--log", default=None)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--max-active", type=int, default=None)
    args = parser.parse_args()
    server = FakeOpenAIServer(latency_s=args.latency, log_path=args.log,
                              max_active=args.max_active).start()
    with open(args.port_file + ".tmp", "w") as fh:
        fh.write(server.base_url)
    import os

    os.replace(args.port_file + ".tmp", args.port_file)
    while True:
        time.sleep(3600)


if __name__ == "__main__":  # pragma: no cover
    main()
