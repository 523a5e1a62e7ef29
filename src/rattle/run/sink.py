"""The streaming sink: judged records go to ``results.jsonl`` in case order as they complete.

Cases finish out of order (concurrency); a reorder buffer holds the early ones until the cases
before them are done, so the file is identical whatever the timing. For metrics the sink feeds
the suite's stream, or keeps only the fields the suite's metrics read, as compact rows.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rattle.records import Record
from rattle.run.outputs import RECORD_JSON, Columns
from rattle.suites.base import MetricStream


class Row:
    """A record reduced to the fields metrics read: a tuple of values (repeated values
    shared) plus one field index shared by every row of a run."""

    __slots__ = ("_index", "_values")

    def __init__(self, index: dict[str, int], values: tuple[Any, ...]) -> None:
        self._index = index
        self._values = values

    def __getitem__(self, key: str) -> Any:
        return self._values[self._index[key]]

    def get(self, key: str, default: Any = None) -> Any:
        i = self._index.get(key)
        return default if i is None else self._values[i]

    def __contains__(self, key: str) -> bool:
        return key in self._index


class Interner:
    """Shares equal strings and small mappings between rows (dataset names, attack names,
    item ids and group labels repeat across a million cases)."""

    def __init__(self) -> None:
        self._cache: dict[Any, Any] = {}

    def __call__(self, value: Any) -> Any:
        if isinstance(value, str):
            return sys.intern(value)
        if isinstance(value, dict):
            try:
                key = ("dict", tuple(value.items()))
                hash(key)
            except TypeError:
                return value
            return self._cache.setdefault(key, value)
        return value


class ResultSink:
    """Writes judged records to ``path`` in case order; keeps what the metrics need."""

    def __init__(self, path: Path, fields: Sequence[str] | None, *, enabled: bool = True,
                 stream: MetricStream | None = None,
                 watchers: Sequence[MetricStream] = ()) -> None:
        self.path = path
        self.stream = stream
        self.watchers = tuple(watchers)  # see every record too (parse rates)
        self.fields = tuple(fields) if fields else None
        self.enabled = enabled
        self._fh: Any = path.open("w", encoding="utf-8") if enabled else None
        self._pending: dict[int, list[Record]] = {}
        self._intern = Interner()
        self._index = {k: i for i, k in enumerate(self.fields or ())}
        self._next = 0
        self.kept: list[Any] = []  # full records, or Rows when the suite names its fields
        self.columns = Columns()  # the Parquet export's columns, without re-reading the file
        self.count = 0
        self.unmeasured = 0

    def put(self, index: int, records: list[Record]) -> None:
        self._pending[index] = records
        while self._next in self._pending:
            for r in self._pending.pop(self._next):
                self._fh.write(RECORD_JSON(r) + "\n")
                self.count += 1
                self.columns.add(r)
                self.unmeasured += r["correct"] is None
                for watcher in self.watchers:
                    watcher.add(r)
                if self.stream is not None:
                    self.stream.add(r)
                elif self.fields is None:
                    self.kept.append(r)
                else:
                    self.kept.append(Row(self._index, tuple(self._intern(r.get(k))
                                                            for k in self.fields)))
            self._next += 1

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
