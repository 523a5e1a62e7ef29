"""Many processes open one new store at the same moment and write to it while another reads.

SQLite does not call the busy handler for every lock (switching to WAL while another
connection creates the file, schema creation); the store retries those with backoff. Each
round starts from an empty workspace so every round exercises the first-open race.
"""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from rattle.items import Usage
from rattle.models.base import Completion
from rattle.run.store import Store, StoreBusyError, _retrying

WRITERS = 8
ROUNDS = 20
ROWS = 40


def _writer(ws: str, index: int, barrier: Any, errors: Any) -> None:
    try:
        barrier.wait()
        store = Store(ws)
        rows = [(f"k{index}-{i}", Completion(f"answer {index} {i}", Usage(3, 2)))
                for i in range(ROWS)]
        # Half the rows are shared by every writer (INSERT OR IGNORE keeps one copy).
        rows += [(f"shared-{i}", Completion(f"shared {i}")) for i in range(ROWS)]
        store.start_run(f"run{index}", "quick", {"i": index})
        for start in range(0, len(rows), 10):
            store.put_many("m", rows[start:start + 10])
        store.record_failures("m", [(f"k{index}-x", "boom")])
        got = store.get_many([k for k, _ in rows])
        assert len(got) == len(rows), len(got)
        store.finish_run(f"run{index}", "done", {})
        store.close()
    except BaseException as exc:  # reported to the parent, which fails the test
        errors.put(f"writer {index}: {type(exc).__name__}: {exc}")


def _reader(ws: str, barrier: Any, stop: Any, errors: Any, reads: Any) -> None:
    try:
        barrier.wait()
        store = Store(ws)
        n = 0
        while not stop.is_set():
            store.get_many([f"k{i}-{j}" for i in range(WRITERS) for j in range(0, ROWS, 7)])
            store.stats()
            n += 1
        reads.put(n)
        store.close()
    except BaseException as exc:
        errors.put(f"reader: {type(exc).__name__}: {exc}")


def test_eight_processes_open_a_fresh_store_and_write_at_once(tmp_path: Path) -> None:
    ctx = mp.get_context("fork")
    for round_ in range(ROUNDS):
        ws = str(tmp_path / f"ws{round_}")
        barrier = ctx.Barrier(WRITERS + 1)
        errors, reads, stop = ctx.Queue(), ctx.Queue(), ctx.Event()
        writers = [ctx.Process(target=_writer, args=(ws, i, barrier, errors))
                   for i in range(WRITERS)]
        reader = ctx.Process(target=_reader, args=(ws, barrier, stop, errors, reads))
        for p in [*writers, reader]:
            p.start()
        for p in writers:
            p.join(120)
        stop.set()
        reader.join(120)
        failures = []
        while not errors.empty():
            failures.append(errors.get())
        assert not failures, f"round {round_}: {failures}"
        assert all(p.exitcode == 0 for p in [*writers, reader])
        assert reads.get(timeout=5) >= 1
        stats = Store(ws).stats()
        assert stats.responses == WRITERS * ROWS + ROWS
        assert stats.failures == WRITERS and stats.runs == WRITERS


def test_a_lock_held_past_the_deadline_is_one_clear_error(tmp_path: Path) -> None:
    Store(tmp_path).close()
    holder = sqlite3.connect(tmp_path / "store.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store = Store(tmp_path, deadline_s=0.3)  # opening an existing store only reads
        started = time.monotonic()
        with pytest.raises(StoreBusyError) as info:
            store.start_run("r", "quick", {})
        assert 0.3 <= time.monotonic() - started < 5
        assert "start the run" in str(info.value)
        assert str(tmp_path / "store.sqlite") in str(info.value)
        assert "another --workspace" in str(info.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_retry_gives_up_on_other_errors_at_once(tmp_path: Path) -> None:
    calls = []

    def broken() -> None:
        calls.append(1)
        raise sqlite3.OperationalError("no such table: nowhere")

    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        _retrying(tmp_path, "read", broken, deadline_s=5)
    assert calls == [1]


def test_busy_errors_are_retried_until_they_clear(tmp_path: Path) -> None:
    calls = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 4:
            raise sqlite3.OperationalError("database is locked")
        return "ok"

    assert _retrying(tmp_path, "read", flaky, deadline_s=5) == "ok"
    assert len(calls) == 4
