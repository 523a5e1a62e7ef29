"""BM25 retrieval (Lucene BM25, k1=1.5, b=0.75, bm25s's defaults), built in a stream,
persisted in bm25s's index layout beside the corpus, memory-mapped on reload.

Tokens are the lower-cased runs of two or more word characters (bm25s's default pattern
``\\b\\w\\w+\\b``) minus bm25s's English stop words, no stemming. The index is a CSC matrix of
per-(document, token) scores computed with numpy exactly as bm25s computes them (tested bit
for bit), saved as bm25s saves it (``bm25s.BM25.load`` opens it) and keyed by the corpus
file's hash and these settings. Search runs in a numba kernel compiled once and cached on
disk (``bm25_kernel``) when numba is installed, otherwise in numpy; both give the same
results, ties broken by passage order.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import math
import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from rattle.errors import MissingExtraError
from rattle.files import atomic_dir
from rattle.registry import register
from rattle.retrieval.corpus import Corpus

log = logging.getLogger(__name__)
K1, B = 1.5, 0.75  # bm25s defaults (Lucene BM25; Kamphuis et al., ECIR 2020)
TOKEN = re.compile(r"\w\w+")  # same matches as bm25s's r"(?u)\b\w\w+\b", at twice the speed
INDEX_VERSION = 1  # bump when the index files or the tokeniser change
_BUILD_CHUNK = 8192  # passages tokenised per step while building
_THREAD_MIN = 256  # queries per search thread (below that one thread is faster)


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    try:
        from bm25s.stopwords import STOPWORDS_EN
    except ImportError:
        raise MissingExtraError("bm25s", "retrieval", "BM25 retrieval") from None
    return frozenset(STOPWORDS_EN)


def settings_key() -> str:
    """What the index depends on besides the corpus: format, BM25 parameters, tokeniser."""
    return f"v{INDEX_VERSION}-k1={K1}-b={B}-w2-lower-stop-bm25s-en"


def tokenize(texts: Sequence[str]) -> list[list[str]]:
    """The tokens BM25 indexes for each text."""
    stop = stopwords()
    return [[t for t in TOKEN.findall(text.lower()) if t not in stop] for text in texts]


def numba_available() -> bool:
    """Whether numba is installed and enabled (imported only when a search runs)."""
    if importlib.util.find_spec("numba") is None:
        return False
    return os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


def build_scores(token_ids: Any, lengths: Any, n_vocab: int) -> tuple[Any, Any, Any]:
    """The CSC matrix (data, indices, indptr) of BM25 scores, shape (documents, vocabulary).

    ``token_ids`` holds every document's token ids back to back, ``lengths`` each document's
    token count. The arithmetic follows bm25s: float32 idf (Lucene), float64 term-frequency
    component, float32 product.
    """
    import numpy as np

    n_docs = len(lengths)
    docs = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    pairs, tf = np.unique(token_ids.astype(np.int64) * n_docs + docs, return_counts=True)
    column = pairs // n_docs
    row = (pairs - column * n_docs).astype(np.int32)
    df = np.bincount(column, minlength=n_vocab)
    # math.log per distinct document frequency, as bm25s computes it (numpy's log may differ
    # in the last bit).
    values, where = np.unique(df, return_inverse=True)
    idf = np.array([math.log(1 + (n_docs - v + 0.5) / (v + 0.5)) for v in values.tolist()],
                   dtype=np.float32)[where]
    doc_len = lengths.astype(np.float64)[row]
    avg = np.asarray(lengths).mean()
    tf64 = tf.astype(np.float32).astype(np.float64)
    tfc = tf64 / (K1 * ((1 - B) + B * doc_len / avg) + tf64)
    data = (idf[column].astype(np.float64) * tfc).astype(np.float32)
    indptr = np.zeros(n_vocab + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    return data, row, indptr


class _Ids(dict[str, int]):
    """Token -> id, numbering new tokens as they come; stop words are -1."""

    def __init__(self, stop: frozenset[str]) -> None:
        super().__init__(dict.fromkeys(stop, -1))
        self.next = 0

    def __missing__(self, token: str) -> int:
        self[token] = self.next
        self.next += 1
        return self.next - 1


class BM25Retriever:
    """BM25 over a corpus; ``search(queries, k)`` gives each query's (passage index, score)."""

    name = "bm25"

    def __init__(self, corpus: Corpus, *, threads: int | None = None) -> None:
        import numpy as np

        self.corpus = corpus
        self.threads = threads or max(1, len(os.sched_getaffinity(0)))
        self.use_numba = numba_available()
        self._stop = frozenset[str]()
        folder = corpus.index_dir("bm25", settings_key())
        self.loaded_from_disk = folder is not None and (folder / "params.index.json").is_file()
        if folder is not None and not self.loaded_from_disk:
            self._build_to(folder)
        if folder is not None:
            self._open(folder)
        else:
            self.vocab, self.data, self.indices, self.indptr = self._build()
        self.n_docs = len(corpus)
        self._np = np

    # -- building ------------------------------------------------------------------------------
    def _build(self) -> tuple[dict[str, int], Any, Any, Any]:
        import numpy as np

        self._stop = stopwords()
        vocab = _Ids(self._stop)
        ids, lengths = [], []
        get = vocab.__getitem__
        for start in range(0, len(self.corpus), _BUILD_CHUNK):
            texts = self.corpus.index_texts(start, min(start + _BUILD_CHUNK, len(self.corpus)))
            per_text = [list(map(get, TOKEN.findall(text.lower()))) for text in texts]
            counts = np.fromiter(map(len, per_text), np.int64, len(per_text))
            flat = np.fromiter((i for t in per_text for i in t), np.int64, int(counts.sum()))
            kept = flat >= 0  # stop words map to -1
            owner = np.repeat(np.arange(len(texts)), counts)
            ids.append(flat[kept].astype(np.int32))
            lengths.append(np.bincount(owner[kept], minlength=len(texts)))
        token_ids = np.concatenate(ids) if ids else np.zeros(0, np.int32)
        terms = {t: i for t, i in vocab.items() if i >= 0}
        data, indices, indptr = build_scores(token_ids, np.concatenate(lengths), len(terms))
        return terms, data, indices, indptr

    def _build_to(self, folder: Path) -> None:
        """Build and save in bm25s's layout (a temporary folder renamed into place)."""
        import numpy as np

        vocab, data, indices, indptr = self._build()
        with atomic_dir(folder, "params.index.json") as tmp:
            np.save(tmp / "data.csc.index.npy", data)
            np.save(tmp / "indices.csc.index.npy", indices)
            np.save(tmp / "indptr.csc.index.npy", indptr)
            (tmp / "vocab.index.json").write_text(json.dumps(vocab, ensure_ascii=False),
                                                  encoding="utf-8")
            params = {"k1": K1, "b": B, "delta": 0.5, "method": "lucene", "idf_method": "lucene",
                      "dtype": "float32", "int_dtype": "int32", "num_docs": len(self.corpus),
                      "backend": "numba"}
            (tmp / "params.index.json").write_text(json.dumps(params, indent=2))
            # The stop words travel with the index: searching needs no bm25s import.
            (tmp / "rattle.json").write_text(json.dumps(
                {"settings": settings_key(), "stopwords": sorted(self._stop)}))

    def _open(self, folder: Path) -> None:
        import numpy as np

        self.data = np.asarray(np.load(folder / "data.csc.index.npy", mmap_mode="r"))
        self.indices = np.asarray(np.load(folder / "indices.csc.index.npy", mmap_mode="r"))
        self.indptr = np.asarray(np.load(folder / "indptr.csc.index.npy", mmap_mode="r"))
        self.vocab = json.loads((folder / "vocab.index.json").read_text(encoding="utf-8"))
        self._stop = frozenset(json.loads((folder / "rattle.json").read_text())["stopwords"])

    # -- searching -----------------------------------------------------------------------------
    def query_ids(self, queries: Sequence[str]) -> list[list[int]]:
        """Each query's token ids (tokens absent from the corpus dropped)."""
        get, stop = self.vocab.get, self._stop
        out = []
        for q in queries:
            ids = [get(t) for t in TOKEN.findall(q.lower()) if t not in stop]
            out.append([i for i in ids if i is not None])
        return out

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        """The top ``k`` passages of each query with a positive score, best first (ties by
        passage index)."""
        k = min(k, self.n_docs)
        if k <= 0 or not queries:
            return [[] for _ in queries]
        ids = self.query_ids(queries)
        if not self.use_numba:
            return [self._search_numpy(q, k) for q in ids]
        return self._search_numba(ids, k)

    def _search_numba(self, ids: list[list[int]], k: int) -> list[list[tuple[int, float]]]:
        np = self._np
        from rattle.retrieval.bm25_kernel import top_k

        n = len(ids)
        ptr = np.zeros(n + 1, np.int64)
        np.cumsum([len(q) for q in ids], out=ptr[1:])
        flat = np.fromiter((t for q in ids for t in q), np.int64, int(ptr[-1]))
        out_ids = np.zeros((n, k), np.int64)
        out_scores = np.zeros((n, k), np.float32)
        out_n = np.zeros(n, np.int64)

        def run(a: int, b: int) -> None:
            top_k(ptr[a: b + 1] - ptr[a], flat[ptr[a]: ptr[b]], self.data, self.indices,
                  self.indptr, self.n_docs, k, out_ids[a:b], out_scores[a:b], out_n[a:b])

        parts = min(self.threads, max(1, n // _THREAD_MIN))
        if parts == 1:
            run(0, n)
        else:
            bounds = [n * i // parts for i in range(parts + 1)]
            with ThreadPoolExecutor(parts) as pool:
                list(pool.map(run, bounds[:-1], bounds[1:]))
        rows_ids, rows_scores, counts = out_ids.tolist(), out_scores.tolist(), out_n.tolist()
        return [list(zip(r[:c], s[:c], strict=True))
                for r, s, c in zip(rows_ids, rows_scores, counts, strict=True)]

    def _search_numpy(self, tokens: list[int], k: int) -> list[tuple[int, float]]:
        np = self._np
        if not tokens:
            return []
        spans = [(int(self.indptr[t]), int(self.indptr[t + 1])) for t in tokens]
        docs = np.concatenate([self.indices[a:b] for a, b in spans])
        vals = np.concatenate([self.data[a:b] for a, b in spans])
        unique, where = np.unique(docs, return_inverse=True)
        acc = np.zeros(len(unique), np.float32)
        np.add.at(acc, where, vals)  # in query-token order, as the kernel adds
        best = np.lexsort((unique, -acc))[:k]
        return list(zip(unique[best].tolist(), acc[best].tolist(), strict=True))


@register("retriever", "bm25")
def bm25(corpus: Corpus, *,
         threads: Annotated[int | None, "search threads (default: the CPUs this process may use)"]
         = None) -> BM25Retriever:
    """BM25 (bm25s's scoring, Lucene variant), the index memory-mapped beside the corpus."""
    return BM25Retriever(corpus, threads=threads)
