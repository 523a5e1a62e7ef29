"""BM25 retrieval with ``bm25s`` (Lucene-style BM25, k1=1.5, b=0.75), persisted and reused."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from rattle.errors import MissingExtraError
from rattle.retrieval.corpus import Corpus

log = logging.getLogger(__name__)
K1, B = 1.5, 0.75  # bm25s defaults (Lucene BM25)


def _bm25s() -> Any:
    try:
        import bm25s
    except ImportError:
        raise MissingExtraError("bm25s", "retrieval", "BM25 retrieval") from None
    return bm25s


def tokenize(texts: Sequence[str]) -> list[list[str]]:
    bm25s = _bm25s()
    out = bm25s.tokenize(list(texts), stopwords="en", return_ids=False, show_progress=False)
    return [list(t) for t in out]


class BM25Retriever:
    name = "bm25"

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        bm25s = _bm25s()
        folder = corpus.index_dir("bm25", f"k1={K1}-b={B}")
        self.loaded_from_disk = False
        if folder is not None and (folder / "params.index.json").is_file():
            self.index = bm25s.BM25.load(str(folder), show_progress=False)
            self.loaded_from_disk = True
        else:
            self.index = bm25s.BM25(k1=K1, b=B)
            self.index.index(tokenize([f"{d.title} {d.text}" for d in corpus.documents]),
                             show_progress=False)
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
                self.index.save(str(folder), show_progress=False)

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        k = min(k, len(self.corpus))
        tokens = tokenize(queries)
        out: list[list[tuple[int, float]]] = []
        for start in range(0, len(tokens), 256):
            chunk = tokens[start : start + 256]
            # An empty query (all stop words) matches nothing; keep its slot.
            safe = [t or ["\u2063"] for t in chunk]
            ids, scores = self.index.retrieve(safe, k=k, show_progress=False, n_threads=1)
            for row_ids, row_scores, t in zip(ids, scores, chunk, strict=True):
                out.append([] if not t else [(int(i), float(s)) for i, s in
                                             zip(row_ids, row_scores, strict=True) if s > 0])
        return out
