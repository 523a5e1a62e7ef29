"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (no extra
packages): open a page at a given viewport, evaluate expressions, dispatch events.

Chromium reads commands from fd 3 and writes replies to fd 4, each a JSON text ending in NUL.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import subprocess
import time
from pathlib import Path
from types import TracebackType
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe"]


class Browser:
    """Headless Chromium driven through the DevTools pipe; one page per instance."""

    def __init__(self, executable: str, profile: Path, *, timeout: float = 60.0) -> None:
        self.timeout = timeout
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def child_fds() -> None:  # in the child: commands on fd 3, replies on fd 4
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)  # either may be 3 or 4 already
            os.dup2(a, 3, inheritable=True)
            os.dup2(b, 4, inheritable=True)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=child_fds, close_fds=False)  # fds 3 and 4 survive the exec
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session = ""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target,
                                                           "flatten": True})["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, TimeoutError, OSError):  # may be gone already
            self.call("Browser.close", session=False)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)

    def _read(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from_chrome], [], [], left)[0]:
                raise TimeoutError(f"no reply from chromium in {self.timeout:g} s")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe: "
                                   + (self.proc.stderr.read().decode()[-2000:]
                                      if self.proc.stderr else ""))
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)  # type: ignore[no-any-return]

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             session: bool = True) -> dict[str, Any]:
        self._next_id += 1
        msg: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})  # type: ignore[no-any-return]
            self.events.append(reply)

    def wait_event(self, method: str) -> dict[str, Any]:
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read()
            if e.get("method") == method:
                return e
            self.events.append(e)

    def open(self, url: str, *, width: int = 1280, height: int = 900) -> None:
        """Load ``url`` in a ``width`` × ``height`` CSS-pixel viewport and wait for load."""
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": False})
        if self.eval("location.href") != "about:blank":  # a new document, even for a #hash
            self.events.clear()
            self.call("Page.navigate", {"url": "about:blank"})
            self.wait_event("Page.loadEventFired")
        self.events.clear()
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def console_errors(self) -> list[str]:
        """Exceptions thrown and errors logged by the page (CSP refusals included)."""
        out = []
        for e in self.events:
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(json.dumps(e["params"]["exceptionDetails"])[:500])
            elif e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error":
                out.append(json.dumps(e["params"]["args"])[:500])
        return out

    def screenshot(self, path: Path, *, full: bool = True) -> None:
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full}
        data = self.call("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))
