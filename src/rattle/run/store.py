"""The workspace store: one SQLite file that is both the response cache and the resume point.

WAL journal and a busy timeout let several rattle processes share one store. Only successful
responses are cached; failures are logged in their own table and asked again next time.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattle.items import Usage
from rattle.models.base import Completion

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    text TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    latency REAL NOT NULL DEFAULT 0,
    finish TEXT NOT NULL DEFAULT '',
    extra TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    model TEXT NOT NULL,
    error TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    suite TEXT NOT NULL,
    config TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    status TEXT NOT NULL,
    counts TEXT NOT NULL DEFAULT '{}'
);
"""

STORE_FILE = "store.sqlite"


@dataclass(frozen=True)
class StoreStats:
    path: str
    responses: int
    failures: int
    runs: int
    by_model: dict[str, int]
    size_bytes: int


class Store:
    """Thread-compatible (one connection per Store; use one Store per process)."""

    def __init__(self, workspace: str | Path) -> None:
        self.dir = Path(workspace)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / STORE_FILE
        self._db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA busy_timeout = 60000")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- responses ---------------------------------------------------------------------------
    def get_many(self, keys: Sequence[str]) -> dict[str, Completion]:
        found: dict[str, Completion] = {}
        for start in range(0, len(keys), 500):
            chunk = list(keys[start : start + 500])
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                "SELECT key, text, prompt_tokens, completion_tokens, latency, finish, extra "
                f"FROM responses WHERE key IN ({marks})",
                chunk,
            ).fetchall()
            for key, text, pt, ct, lat, finish, extra in rows:
                found[key] = Completion(text, Usage(pt, ct), lat, None, finish, json.loads(extra))
        return found

    def put_many(self, model: str, rows: Iterable[tuple[str, Completion]]) -> int:
        """Store successful completions (errors are refused here by design)."""
        now = time.time()
        data = [
            (key, model, c.text, c.usage.prompt_tokens, c.usage.completion_tokens, c.latency_s,
             c.finish_reason, json.dumps(c.extra, ensure_ascii=False), now)
            for key, c in rows
            if c.ok
        ]
        if data:
            with self._transaction():
                self._db.executemany(
                    "INSERT OR IGNORE INTO responses VALUES (?,?,?,?,?,?,?,?,?)", data
                )
        return len(data)

    def record_failures(self, model: str, rows: Iterable[tuple[str, str]]) -> None:
        now = time.time()
        data = [(key, model, error, now) for key, error in rows]
        if data:
            with self._transaction():
                self._db.executemany(
                    "INSERT INTO failures (key, model, error, created) VALUES (?,?,?,?)", data
                )

    def _transaction(self) -> Any:
        db = self._db

        class _Tx:
            def __enter__(self) -> None:
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self, exc_type: object, *rest: object) -> None:
                db.execute("ROLLBACK" if exc_type else "COMMIT")

        return _Tx()

    # -- runs --------------------------------------------------------------------------------
    def start_run(self, run_id: str, suite: str, config: dict[str, Any]) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO runs (id, suite, config, started, status) "
                "VALUES (?,?,?,?,?)",
                (run_id, suite, json.dumps(config, sort_keys=True), time.time(), "running"),
            )

    def finish_run(self, run_id: str, status: str, counts: dict[str, Any]) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE runs SET finished=?, status=?, counts=? WHERE id=?",
                (time.time(), status, json.dumps(counts), run_id),
            )

    # -- maintenance -------------------------------------------------------------------------
    def stats(self) -> StoreStats:
        one = self._db.execute
        by_model = dict(one("SELECT model, COUNT(*) FROM responses GROUP BY model").fetchall())
        size = sum(p.stat().st_size for p in self.dir.glob(STORE_FILE + "*") if p.is_file())
        return StoreStats(
            str(self.path),
            one("SELECT COUNT(*) FROM responses").fetchone()[0],
            one("SELECT COUNT(*) FROM failures").fetchone()[0],
            one("SELECT COUNT(*) FROM runs").fetchone()[0],
            by_model,
            size,
        )

    def clear(self, model: str | None = None) -> int:
        with self._transaction():
            if model is None:
                n = self._db.execute("DELETE FROM responses").rowcount
                self._db.execute("DELETE FROM failures")
            else:
                n = self._db.execute("DELETE FROM responses WHERE model=?", (model,)).rowcount
                self._db.execute("DELETE FROM failures WHERE model=?", (model,))
        self._db.execute("VACUUM")
        return int(n)
