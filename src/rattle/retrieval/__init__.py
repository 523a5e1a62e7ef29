"""Retrieval: a passage corpus, BM25 and dense (sentence-transformers + FAISS) search.

A corpus file is streamed once into a memory-mapped passage store beside it
(``<corpus>.rattle-index/``); indexes (BM25 in bm25s's layout, passage embeddings, HNSW
graphs) live there too, keyed by the corpus file's hash and the retriever's settings, and are
reused when they match (docs/speed.md).
"""

from rattle.retrieval.corpus import Corpus, load_corpus

__all__ = ["Corpus", "load_corpus"]
