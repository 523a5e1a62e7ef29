"""BM25 and dense retrieval: top-k on a corpus with known answers; indexes reload identically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rattle.errors import DataError
from rattle.retrieval.bm25 import BM25Retriever
from rattle.retrieval.corpus import load_corpus
from rattle.retrieval.dense import DenseRetriever

DOCS = [
    ("Paris", "Paris is the capital and largest city of France."),
    ("Tokyo", "Tokyo is the capital of Japan and its most populous city."),
    ("Mars", "Mars is the fourth planet from the Sun, often called the Red Planet."),
    ("Water", "Water is a chemical substance with the formula H2O."),
    ("Everest", "Mount Everest is the highest mountain above sea level, in the Himalayas."),
    ("Nile", "The Nile is a major river in northeastern Africa flowing into the Mediterranean."),
]
QUERIES = [("capital of Japan", 1), ("red planet fourth from the sun", 2),
           ("highest mountain Himalayas", 4), ("river flowing into the Mediterranean", 5)]


@pytest.fixture()
def corpus_file(tmp_path: Path) -> Path:
    f = tmp_path / "corpus.jsonl"
    f.write_text("".join(json.dumps({"id": f"d{i}", "title": t, "text": x}) + "\n"
                         for i, (t, x) in enumerate(DOCS)))
    return f


@pytest.mark.parametrize("kind", ["bm25", "dense"])
def test_top1_is_the_answer_document_and_reload_is_identical(corpus_file: Path, kind: str) -> None:
    corpus = load_corpus(corpus_file)
    make = BM25Retriever if kind == "bm25" else DenseRetriever
    first = make(corpus)
    assert not first.loaded_from_disk
    hits = first.search([q for q, _ in QUERIES], 3)
    assert [h[0][0] for h in hits] == [gold for _, gold in QUERIES]
    assert all(len(h) <= 3 for h in hits)
    assert all(h[0][1] >= h[-1][1] for h in hits)
    again = make(load_corpus(corpus_file))
    assert again.loaded_from_disk
    assert again.search([q for q, _ in QUERIES], 3) == hits


def test_index_is_rebuilt_when_the_corpus_changes(corpus_file: Path) -> None:
    BM25Retriever(load_corpus(corpus_file))
    corpus_file.write_text(corpus_file.read_text() + json.dumps(
        {"id": "d9", "title": "Moon", "text": "The Moon orbits the Earth."}) + "\n")
    changed = BM25Retriever(load_corpus(corpus_file))
    assert not changed.loaded_from_disk
    assert changed.search(["moon orbits earth"], 1)[0][0][0] == 6


def test_tsv_corpus_and_errors(tmp_path: Path) -> None:
    tsv = tmp_path / "psgs.tsv"
    tsv.write_text("id\ttext\ttitle\n1\tParis is in France.\tParis\n2\tRome is in Italy.\tRome\n")
    corpus = load_corpus(tsv)
    assert [d.title for d in corpus.documents] == ["Paris", "Rome"]
    bad = tmp_path / "bad.tsv"
    bad.write_text("id\ttext\ttitle\n1\tonly two\n")
    with pytest.raises(DataError) as info:
        load_corpus(bad)
    assert "bad.tsv:2" in str(info.value)
