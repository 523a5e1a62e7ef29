"""A passage corpus: DPR-style JSONL (``id``, ``title``, ``text``) or TSV (``id  text  title``),
plain or gzip-compressed, or the documents carried by a dataset's items.

A corpus file is read once, in a stream, into a *passage store* beside it
(``<corpus>.rattle-index/passages-<hash>/``): every passage's id, title and text as UTF-8 in
one file plus an array of field boundaries. Later loads memory-map the store, so opening a
corpus of millions of passages costs milliseconds and only the passages a run reads are
decoded (``Corpus.documents[i]``). The store and every index are keyed by the SHA-256 of the
corpus file, which is itself remembered per (size, modification time) so it is not re-hashed
on every load. Where the corpus's folder is not writable, the stores go to
``$RATTLE_CACHE/indexes/`` instead.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import hashlib
import io
import json
import mmap
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from rattle.datasets.qa import parse_json_line
from rattle.errors import DataError
from rattle.files import atomic_dir
from rattle.items import Document

STORE_VERSION = 1  # bump when the passage store's layout changes
_HASH_BLOCK = 1 << 20
_UTF8, _SURR = "utf-8", "surrogatepass"  # JSON may carry lone surrogates ("\\ud800")


class Passages(Sequence[Document]):
    """The passages of a stored corpus, decoded on access from a memory-mapped file."""

    def __init__(self, folder: Path) -> None:
        import numpy as np

        self.folder = folder
        self._bounds = np.load(folder / "bounds.npy", mmap_mode="r")
        self._n = (len(self._bounds) - 1) // 3
        blob = folder / "strings.bin"
        self._file = blob.open("rb")
        # mmap cannot map an empty file (a corpus of empty strings).
        self._data: Any = (mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
                           if blob.stat().st_size else b"")

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Document: ...
    @overload
    def __getitem__(self, i: slice) -> list[Document]: ...
    def __getitem__(self, i: int | slice) -> Document | list[Document]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(f"passage {i} out of range ({self._n} passages)")
        a, b, c, d = self._bounds[3 * i: 3 * i + 4].tolist()
        raw = self._data[a:d]
        return Document(id=raw[: b - a].decode(_UTF8, _SURR), title=raw[b - a: c - a].decode(_UTF8, _SURR),
                        text=raw[c - a:].decode(_UTF8, _SURR))

    def __iter__(self) -> Iterator[Document]:
        for start in range(0, self._n, 4096):
            yield from self[start: start + 4096]

    def index_texts(self, start: int, stop: int) -> list[str]:
        """``f"{title} {text}"`` of passages ``start..stop`` (what the indexes read)."""
        bounds = self._bounds[3 * start: 3 * stop + 1].tolist()
        base = bounds[0]
        raw = self._data[base: bounds[-1]].decode(_UTF8, _SURR) if bounds else ""
        if raw.isascii():  # byte offsets are character offsets: slice the one decoded string
            return [raw[bounds[j + 1] - base: bounds[j + 2] - base] + " "
                    + raw[bounds[j + 2] - base: bounds[j + 3] - base]
                    for j in range(0, len(bounds) - 1, 3)]
        data = self._data
        return [data[bounds[j + 1]: bounds[j + 2]].decode(_UTF8, _SURR) + " "
                + data[bounds[j + 2]: bounds[j + 3]].decode(_UTF8, _SURR)
                for j in range(0, len(bounds) - 1, 3)]


@dataclass(frozen=True)
class Corpus:
    """Passages to retrieve from, with a fingerprint that keys every index built on them."""

    documents: Sequence[Document]
    fingerprint: str
    path: Path | None = None
    root: Path | None = None  # where this corpus's stores and indexes live

    def __len__(self) -> int:
        return len(self.documents)

    def index_dir(self, kind: str, settings: str) -> Path | None:
        if self.root is None:
            return None
        return self.root / f"{kind}-{settings}-{self.fingerprint[:16]}"

    def index_texts(self, start: int, stop: int) -> list[str]:
        """``f"{title} {text}"`` of passages ``start..stop``."""
        if isinstance(self.documents, Passages):
            return self.documents.index_texts(start, stop)
        return [f"{d.title} {d.text}" for d in self.documents[start:stop]]


def in_memory(documents: Sequence[Document]) -> Corpus:
    """A corpus of documents already in memory (nothing is persisted)."""
    h = hashlib.sha256()
    for d in documents:
        h.update(f"{d.id}\x1f{d.title}\x1f{d.text}\x1e".encode())
    return Corpus(tuple(documents), h.hexdigest())


def _is_tsv(p: Path) -> bool:
    suffixes = p.suffixes[-2:]
    return suffixes[-1:] == [".tsv"] or suffixes == [".tsv", ".gz"]


def _index_root(p: Path) -> Path:
    """``<corpus>.rattle-index`` beside the corpus, or under the cache when that folder is
    read-only."""
    beside = p.parent / f"{p.name}.rattle-index"
    try:
        beside.mkdir(exist_ok=True)
        if os.access(beside, os.W_OK):
            return beside
    except OSError:
        pass
    base = Path(os.environ.get("RATTLE_CACHE", Path.home() / ".cache" / "rattle"))
    resolved = hashlib.sha256(str(p.resolve()).encode()).hexdigest()[:12]
    fallback = base / "indexes" / f"{p.name}-{resolved}"
    fallback.mkdir(parents=True, exist_ok=True)
    return fallback


def file_fingerprint(p: Path, root: Path) -> str:
    """SHA-256 of the file's bytes, remembered in ``root`` per (size, mtime) of the file."""
    stat = p.stat()
    memo = root / "fingerprint.json"
    stamp = [stat.st_size, stat.st_mtime_ns]
    with contextlib.suppress(OSError, ValueError):
        saved = json.loads(memo.read_text())
        if saved.get("stat") == stamp and isinstance(saved.get("sha256"), str):
            return str(saved["sha256"])
    h = hashlib.sha256()
    with p.open("rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            h.update(block)
    digest = h.hexdigest()
    _atomic_write(memo, json.dumps({"stat": stamp, "sha256": digest}).encode())
    return digest


def _atomic_write(target: Path, data: bytes) -> None:
    with contextlib.suppress(OSError):
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)


def _rows(p: Path) -> Iterator[tuple[int, str, str, str]]:
    """(line, id, title, text) of every passage, streamed (gzip decompressed on the fly)."""
    opener: Any = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rb") as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as fh:
        try:
            if _is_tsv(p):
                yield from _tsv_rows(p, fh)
            else:
                yield from _jsonl_rows(p, fh)
        except UnicodeDecodeError as exc:
            raise DataError(f"not UTF-8 text (byte {exc.start} of a block)", path=str(p),
                            fix="re-encode the file as UTF-8") from None
        except csv.Error as exc:
            raise DataError(f"bad TSV: {exc}", path=str(p)) from None
        except (OSError, EOFError) as exc:
            raise DataError(f"cannot read: {exc}", path=str(p)) from None


def _tsv_rows(p: Path, fh: io.TextIOWrapper) -> Iterator[tuple[int, str, str, str]]:
    reader = csv.reader(fh, delimiter="\t")
    header = next(reader, None)
    if header is None or "text" not in header:
        raise DataError("TSV corpus needs a header with id, text, title", path=str(p), line=1)
    col = {name: i for i, name in enumerate(header)}
    id_col, text_col, title_col = col.get("id", 0), col["text"], col.get("title")
    width = len(header)
    for row in reader:
        if len(row) != width:
            raise DataError(f"expected {width} columns, got {len(row)}", path=str(p),
                            line=reader.line_num)
        yield (reader.line_num, row[id_col], row[title_col] if title_col is not None else "",
               row[text_col])


def _jsonl_rows(p: Path, fh: io.TextIOWrapper) -> Iterator[tuple[int, str, str, str]]:
    for lineno, line in enumerate(fh, 1):
        if not line.strip():
            continue
        obj = parse_json_line(p, lineno, line)
        text = obj.get("text")
        if text is None:
            text = obj.get("contents")
        if not isinstance(text, str):
            raise DataError("missing 'text'", path=str(p), line=lineno, field="text")
        ident = obj.get("id", obj.get("_id", lineno))
        yield lineno, str(ident), str(obj.get("title") or ""), text


def _build_store(p: Path, folder: Path) -> None:
    """Stream the corpus file into ``folder`` (written to a temporary folder, then renamed)."""
    import numpy as np

    with atomic_dir(folder, "bounds.npy") as tmp:
        bounds = [0]
        at = 0
        with (tmp / "strings.bin").open("wb") as out:
            for _, ident, title, text in _rows(p):
                for field in (ident, title, text):
                    data = field.encode(_UTF8, _SURR)
                    out.write(data)
                    at += len(data)
                    bounds.append(at)
        if len(bounds) == 1:
            raise DataError("the corpus is empty", path=str(p))
        np.save(tmp / "bounds.npy", np.asarray(bounds, dtype=np.int64))


def load_corpus(path: str | Path) -> Corpus:
    """Open a corpus file; the first load stores its passages (one streaming pass)."""
    p = Path(path)
    if not p.is_file():
        raise DataError("no such corpus file", path=str(p),
                        fix="pass a JSONL (id, title, text) or DPR TSV (id, text, title) file, "
                            "optionally .gz")
    root = _index_root(p)
    fingerprint = file_fingerprint(p, root)
    folder = root / f"passages-v{STORE_VERSION}-{fingerprint[:16]}"
    if not (folder / "bounds.npy").is_file():
        _build_store(p, folder)
    return Corpus(Passages(folder), fingerprint, p, root)
