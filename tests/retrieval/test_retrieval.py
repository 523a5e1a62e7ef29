"""BM25 and dense retrieval: top-k on a corpus with known answers; indexes reload identically."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from rattle.errors import DataError
from rattle.items import Document
from rattle.retrieval.bm25 import BM25Retriever, settings_key, tokenize
from rattle.retrieval.corpus import Passages, in_memory, load_corpus
from rattle.retrieval.dense import DenseRetriever, VectorIndex, top_k_exact

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


# -- BM25 at scale: bm25s's scores, numba and numpy paths, persisted index ---------------------
def _zipf_corpus(path: Path, n: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(800)] + ["the", "and", "Été", "naïve", "ΟΔΟΣ"]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            words = rng.choices(vocab, weights, k=rng.randint(0, 30))
            fh.write(json.dumps({"id": f"p{i}", "title": f"T{i % 5}", "text": " ".join(words)}) + "\n")
    return [" ".join(rng.choices(vocab[:600], k=rng.randint(1, 4))) for _ in range(150)]


def test_bm25_scores_equal_bm25s_and_both_search_paths_agree(tmp_path: Path) -> None:
    import bm25s

    f = tmp_path / "c.jsonl"
    queries = [*_zipf_corpus(f, 1500), "the and", "unknownword", ""]
    corpus = load_corpus(f)
    ours = BM25Retriever(corpus)
    ref = bm25s.BM25()
    ref.index(tokenize(corpus.index_texts(0, len(corpus))), show_progress=False)
    known = [[w for w in t if w in ours.vocab] for t in tokenize(queries)]
    asked = [i for i, k in enumerate(known) if k]
    ids, scores = ref.retrieve([known[i] for i in asked], k=10, show_progress=False)
    fast = ours.search(queries, 10)
    assert ours.use_numba
    ours.use_numba = False
    assert ours.search(queries, 10) == fast  # numpy gives what the numba kernel gives
    for i, ref_ids, ref_scores in zip(asked, ids.tolist(), scores.tolist(), strict=True):
        got = fast[i]
        expected = [(d, s) for d, s in zip(ref_ids, ref_scores, strict=True) if s > 0]
        assert [s for _, s in got] == [s for _, s in expected]  # bit for bit
        last = got[-1][1]  # the last tie group may be cut differently
        assert {d for d, s in got if s != last} == {d for d, s in expected if s != last}
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
    assert len(asked) > 140
    assert fast[-1] == [] and fast[-2] == [] and fast[-3] == []  # stop words, unknown, empty


def test_bm25_index_opens_in_bm25s_and_reloads_memory_mapped(tmp_path: Path) -> None:
    import bm25s
    import numpy as np

    f = tmp_path / "c.jsonl"
    queries = _zipf_corpus(f, 400)
    first = BM25Retriever(load_corpus(f))
    folder = first.corpus.index_dir("bm25", settings_key())
    assert folder is not None and (folder / "params.index.json").is_file()
    again = BM25Retriever(load_corpus(f))
    assert again.loaded_from_disk and isinstance(np.load(folder / "data.csc.index.npy",
                                                         mmap_mode="r"), np.memmap)
    assert again.search(queries, 5) == first.search(queries, 5)
    theirs = bm25s.BM25.load(str(folder), mmap=True)
    q = [k for k in ([w for w in t if w in again.vocab] for t in tokenize(queries[:30])) if k]
    ids, _ = theirs.retrieve([[again.vocab[w] for w in t] for t in q], k=1, show_progress=False)
    assert ids[:, 0].tolist() == [again.search([" ".join(t)], 1)[0][0][0] for t in q]


def test_bm25_ties_are_broken_by_passage_order(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text("".join(json.dumps({"id": str(i), "title": "", "text": "alpha beta"}) + "\n"
                         for i in range(30)))
    retriever = BM25Retriever(load_corpus(f))
    for use_numba in (True, False):
        retriever.use_numba = use_numba
        assert [i for i, _ in retriever.search(["alpha"], 7)[0]] == list(range(7))


def test_corpus_streams_gzip_and_tsv_into_a_store(tmp_path: Path) -> None:
    rows = [("a1", "Paris is in France.", "Paris"), ("a2", "Rome \u00e9t\u00e9 \U0001F600.", "Rome")]
    gz = tmp_path / "psgs.jsonl.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as fh:
        for i, text, title in rows:
            fh.write(json.dumps({"id": i, "title": title, "text": text}) + "\n\n")
    tsv = tmp_path / "psgs.tsv.gz"
    with gzip.open(tsv, "wt", encoding="utf-8") as fh:
        fh.write("id\ttext\ttitle\n" + "".join(f"{i}\t{t}\t{h}\n" for i, t, h in rows))
    for path in (gz, tsv):
        corpus = load_corpus(path)
        assert isinstance(corpus.documents, Passages)
        assert [(d.id, d.text, d.title) for d in corpus.documents] == rows
        assert corpus.documents[-1] == corpus.documents[1] and len(corpus) == 2
        assert corpus.index_texts(0, 2) == ["Paris Paris is in France.", "Rome Rome \u00e9t\u00e9 \U0001F600."]
        assert load_corpus(path).fingerprint == corpus.fingerprint
    assert load_corpus(gz).fingerprint != load_corpus(tsv).fingerprint
    assert BM25Retriever(load_corpus(tsv)).search(["rome"], 2)[0][0][0] == 1


def test_fingerprint_is_the_file_hash_remembered_per_size_and_time(tmp_path: Path) -> None:
    import hashlib

    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps({"id": "1", "text": "one"}) + "\n")
    corpus = load_corpus(f)
    assert corpus.fingerprint == hashlib.sha256(f.read_bytes()).hexdigest()
    memo = corpus.root / "fingerprint.json"  # type: ignore[operator]
    assert json.loads(memo.read_text())["sha256"] == corpus.fingerprint


def test_bad_corpus_lines_name_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text(json.dumps({"id": "1", "text": "one"}) + "\n" + json.dumps({"id": "2"}) + "\n")
    with pytest.raises(DataError) as info:
        load_corpus(f)
    assert "c.jsonl:2" in str(info.value) and "text" in str(info.value)
    empty = tmp_path / "e.jsonl"
    empty.write_text("\n")
    with pytest.raises(DataError, match="empty"):
        load_corpus(empty)


def test_in_memory_corpus_is_not_persisted() -> None:
    corpus = in_memory([Document(id="x", text="alpha beta"), Document(id="y", text="gamma")])
    assert corpus.index_dir("bm25", "s") is None
    retriever = BM25Retriever(corpus)
    assert not retriever.loaded_from_disk
    assert retriever.search(["gamma"], 2) == [[(1, retriever.search(["gamma"], 1)[0][0][1])]]


# -- dense: exact and HNSW -----------------------------------------------------------------
def test_vector_index_exact_matches_numpy_and_hnsw_recall(tmp_path: Path) -> None:
    import numpy as np

    rng = np.random.default_rng(0)
    centers = rng.standard_normal((20, 32)).astype(np.float32)
    x = centers[rng.integers(0, 20, 3000)] + 0.3 * rng.standard_normal((3000, 32)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    q = x[:50] + 0.05 * rng.standard_normal((50, 32)).astype(np.float32)
    exact = VectorIndex(x, None)
    scores, ids = exact.search(q, 10)
    ref_scores, ref_ids = top_k_exact(q, x, 10, block=700)  # blocks merge to the same top-k
    assert ids.tolist() == ref_ids.tolist() and np.allclose(scores, ref_scores, atol=1e-5)
    assert exact.kind == "exact" and exact.recall(q) == 1.0
    graph = VectorIndex(x, tmp_path, exact_max=1000)
    assert graph.kind == "hnsw" and graph.build_recall is not None and graph.build_recall >= 0.95
    assert graph.recall(q) >= 0.95
    again = VectorIndex(x, tmp_path, exact_max=1000)  # read back from disk
    assert again.build_recall == graph.build_recall
    (meta,) = tmp_path.glob("hnsw-*.json")
    saved = json.loads(meta.read_text())
    assert saved["ef_search"] == again.index.hnsw.efSearch == graph.index.hnsw.efSearch >= 128
    assert saved["recall_at_10"] == graph.build_recall and saved["queries"] == 200
    assert again.search(q, 10)[1].tolist() == graph.search(q, 10)[1].tolist()


def test_dense_embeddings_cached_memory_mapped_and_hnsw_over_exact_max(corpus_file: Path) -> None:
    import numpy as np

    exact = DenseRetriever(load_corpus(corpus_file))
    graph = DenseRetriever(load_corpus(corpus_file), exact_max=3)
    assert graph.loaded_from_disk and isinstance(graph.matrix, np.memmap)
    assert graph.name.startswith("dense (HNSW, recall@10 ")
    queries = [q for q, _ in QUERIES]
    assert [h[0][0] for h in graph.search(queries, 3)] == [gold for _, gold in QUERIES]
    assert graph.recall(queries, 3) == 1.0
    assert [h[0][0] for h in exact.search(queries, 3)] == [gold for _, gold in QUERIES]
