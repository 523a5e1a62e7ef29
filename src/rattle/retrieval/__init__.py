"""Retrieval: a passage corpus, BM25 (bm25s) and dense (sentence-transformers) search.

Indexes are persisted next to the corpus file (``<corpus>.rattle-index/``), keyed by the
corpus content and the retriever's settings, and reused when they match.
"""

from rattle.retrieval.corpus import Corpus, load_corpus

__all__ = ["Corpus", "load_corpus"]
