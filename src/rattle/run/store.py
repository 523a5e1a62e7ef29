"""The workspace store: one SQLite file that is both the response cache and the resume point.

WAL journal and a busy timeout let several rattle processes share one store. SQLite does not
call the busy handler for every lock (switching the journal mode, recovering a WAL that
another process is creating, some schema reads), so every statement also goes through
``_retrying``: jittered exponential backoff on ``SQLITE_BUSY``/``SQLITE_LOCKED`` until a
deadline, then one :class:`StoreBusyError` naming the file. Opening is idempotent (the journal
mode is switched only when it is not WAL yet; the schema is ``CREATE ... IF NOT EXISTS`` in one
immediate transaction), so any number of processes can open one new store at the same moment.

Only successful responses are cached; failures are logged in their own table and asked again
next time.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rattle.errors import RattleError
from rattle.items import Usage
from rattle.models.base import Completion

T = TypeVar("T")
BUSY_DEADLINE_S = 120.0  # give up on a lock after two minutes (another process holds it)
_BUSY_WORDS = ("database is locked", "database is busy", "database table is locked",
               "database schema is locked")
_jitter = random.Random()  # jitter only spreads retries apart; it never reaches a result


class StoreBusyError(RattleError):
    """The store stayed locked by other processes past the deadline."""

    def __init__(self, path: Path, what: str, waited: float) -> None:
        super().__init__(
            f"{path}: still locked by another process after {waited:.0f} s ({what}); "
            "fix: wait for the other rattle run to finish, or use another --workspace")


def _busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return any(w in text for w in _BUSY_WORDS)


def _retrying(path: Path, what: str, op: Callable[[], T],
              deadline_s: float = BUSY_DEADLINE_S) -> T:
    """Run ``op``; on a busy/locked database sleep 2-500 ms (doubling, jittered) and retry."""
    start = time.monotonic()
    delay = 0.002
    while True:
        try:
            return op()
        except sqlite3.OperationalError as exc:
            waited = time.monotonic() - start
            if not _busy(exc):
                raise
            if waited >= deadline_s:
                raise StoreBusyError(path, what, waited) from None
            time.sleep(min(delay * _jitter.uniform(0.5, 1.5), max(0.0, deadline_s - waited)))
            delay = min(delay * 2, 0.5)

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
    """What the store holds: responses, failures, runs, by model, and its size."""

    path: str
    responses: int
    failures: int
    runs: int
    by_model: dict[str, int]
    size_bytes: int


class Store:
    """Thread-compatible (one connection per Store; use one Store per process)."""

    def __init__(self, workspace: str | Path, *, deadline_s: float = BUSY_DEADLINE_S) -> None:
        self.dir = Path(workspace)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / STORE_FILE
        self.deadline_s = deadline_s
        self._db = self._retry("open", lambda: sqlite3.connect(
            self.path, timeout=60.0, isolation_level=None, check_same_thread=False))
        # SQLite's own busy handler waits inside one statement; the retry loop bounds the rest.
        self._db.execute(f"PRAGMA busy_timeout = {int(min(60.0, deadline_s) * 1000)}")
        self._retry("switch to WAL", self._ensure_wal)
        self._retry("set synchronous", lambda: self._db.execute("PRAGMA synchronous = NORMAL"))
        tables = {row[0] for row in self._query(
            "read the schema", "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"responses", "failures", "runs"} <= tables:
            # One immediate transaction: concurrent openers create the tables in turn.
            self._write("create the schema", lambda db: [db.execute(statement) for statement
                                                        in SCHEMA.split(";") if statement.strip()])

    def _retry(self, what: str, op: Callable[[], T]) -> T:
        return _retrying(self.path, what, op, self.deadline_s)

    def _ensure_wal(self) -> None:
        mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
        if str(mode).lower() != "wal":
            self._db.execute("PRAGMA journal_mode = WAL")

    def _query(self, what: str, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        return self._retry(what, lambda: self._db.execute(sql, args).fetchall())

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
            rows = self._query(
                "read responses",
                "SELECT key, text, prompt_tokens, completion_tokens, latency, finish, extra "
                f"FROM responses WHERE key IN ({marks})",
                chunk,
            )
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
            self._write("store responses", lambda db: db.executemany(
                "INSERT OR IGNORE INTO responses VALUES (?,?,?,?,?,?,?,?,?)", data))
        return len(data)

    def record_failures(self, model: str, rows: Iterable[tuple[str, str]]) -> None:
        now = time.time()
        data = [(key, model, error, now) for key, error in rows]
        if data:
            self._write("record failures", lambda db: db.executemany(
                "INSERT INTO failures (key, model, error, created) VALUES (?,?,?,?)", data))

    def _write(self, what: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """``body`` in one immediate transaction, retried whole while the store is busy."""
        db = self._db

        def attempt() -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                out = body(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return out

        return self._retry(what, attempt)

    # -- runs --------------------------------------------------------------------------------
    def start_run(self, run_id: str, suite: str, config: dict[str, Any]) -> None:
        row = (run_id, suite, json.dumps(config, sort_keys=True), time.time(), "running")
        self._write("start the run", lambda db: db.execute(
            "INSERT OR REPLACE INTO runs (id, suite, config, started, status) VALUES (?,?,?,?,?)",
            row))

    def finish_run(self, run_id: str, status: str, counts: dict[str, Any]) -> None:
        row = (time.time(), status, json.dumps(counts), run_id)
        self._write("finish the run", lambda db: db.execute(
            "UPDATE runs SET finished=?, status=?, counts=? WHERE id=?", row))

    # -- maintenance -------------------------------------------------------------------------
    def stats(self) -> StoreStats:
        def count(table: str) -> int:
            return int(self._query("count", f"SELECT COUNT(*) FROM {table}")[0][0])

        by_model = dict(self._query("count", "SELECT model, COUNT(*) FROM responses GROUP BY model"))
        size = sum(p.stat().st_size for p in self.dir.glob(STORE_FILE + "*") if p.is_file())
        return StoreStats(str(self.path), count("responses"), count("failures"), count("runs"),
                          by_model, size)

    def clear(self, model: str | None = None) -> int:
        def delete(db: sqlite3.Connection) -> int:
            if model is None:
                n = db.execute("DELETE FROM responses").rowcount
                db.execute("DELETE FROM failures")
            else:
                n = db.execute("DELETE FROM responses WHERE model=?", (model,)).rowcount
                db.execute("DELETE FROM failures WHERE model=?", (model,))
            return int(n)

        n = self._write("clear", delete)
        self._retry("vacuum", lambda: self._db.execute("VACUUM"))
        return n
