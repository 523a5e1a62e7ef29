"""The retrieval step suites share: open a corpus, build the registered retriever, return
each query's top-k documents (and a line saying what retrieved them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rattle import registry
from rattle.items import Document


@dataclass(frozen=True)
class Retrieved:
    """Each query's documents, best first, and what produced them."""

    documents: list[tuple[Document, ...]]
    description: str


def make_retriever(kind: str, corpus: Any, model_path: str | None = None) -> Any:
    """The registered retriever ``kind`` over ``corpus`` (``rattle list retriever``)."""
    return registry.create("retriever", kind, {"model_path": model_path}, args=(corpus,),
                           where=f"retriever {kind}", lenient=("model_path",))


def top_k(corpus_path: str, kind: str, queries: Sequence[str], k: int, *,
          model_path: str | None = None) -> Retrieved:
    """The top ``k`` documents of ``corpus_path`` for every query."""
    from rattle.retrieval.corpus import load_corpus

    corpus = load_corpus(corpus_path)
    retriever = make_retriever(kind, corpus, model_path)
    rows = retriever.search(list(queries), k)
    docs = [tuple(corpus.documents[i] for i, _score in row) for row in rows]
    return Retrieved(docs, f"{retriever.name} over {corpus_path} ({len(corpus)} passages), top {k}")
