"""Retrieval throughput: rattle's BM25 (bm25s) and dense search beside rank-bm25, one corpus.

A generated corpus of passages (Zipf-distributed vocabulary, 30-80 words) and five-word
queries; index build time and top-10 queries/second for each, measured in this process.
Ratios are rattle / rank-bm25. Dense search encodes with all-MiniLM-L6-v2 (1 thread).

Usage: python bench/retrieval.py [--passages 20000] [--queries 200] [--dense-passages 500]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from rattle.retrieval.bm25 import BM25Retriever, tokenize
from rattle.retrieval.corpus import load_corpus


def make_corpus(n: int, path: Path, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(30_000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    with path.open("w") as fh:
        for i in range(n):
            words = rng.choices(vocab, weights, k=rng.randint(30, 80))
            fh.write(json.dumps({"id": str(i), "title": "", "text": " ".join(words)}) + "\n")
    return [" ".join(rng.choices(vocab[100:5000], k=5)) for _ in range(1000)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--dense-passages", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "corpus.jsonl"
        queries = make_corpus(args.passages, path)[: args.queries]
        corpus = load_corpus(path)

        start = time.perf_counter()
        ours = BM25Retriever(corpus)
        build_ours = time.perf_counter() - start
        start = time.perf_counter()
        ours.search(queries, 10)
        qps_ours = len(queries) / (time.perf_counter() - start)
        start = time.perf_counter()
        BM25Retriever(load_corpus(path))
        reload_s = time.perf_counter() - start

        from rank_bm25 import BM25Okapi

        start = time.perf_counter()
        ref = BM25Okapi(tokenize([doc.text for doc in corpus.documents]))
        build_ref = time.perf_counter() - start
        sample = queries[: max(10, args.queries // 10)]
        start = time.perf_counter()
        for q in tokenize(sample):
            scores = ref.get_scores(q)
            sorted(range(len(scores)), key=lambda i: -scores[i])[:10]
        qps_ref = len(sample) / (time.perf_counter() - start)

        print(f"BM25 on {args.passages} passages")
        print(f"  index build: rattle (bm25s) {build_ours:.2f} s, rank-bm25 {build_ref:.2f} s; "
              f"reload from disk {reload_s:.2f} s")
        print(f"  top-10 queries/s: rattle {qps_ours:.0f}, rank-bm25 {qps_ref:.1f}, "
              f"ratio {qps_ours / qps_ref:.0f}x")
        print(f"RATIO bm25_queries {qps_ours / qps_ref:.0f}x rank-bm25 ({qps_ours:.0f} vs "
              f"{qps_ref:.1f} q/s, {args.passages} passages)")

        import torch

        torch.set_num_threads(1)
        from rattle.retrieval.dense import DenseRetriever

        small = Path(d) / "small.jsonl"
        small.write_text("".join(path.read_text().splitlines(keepends=True)[: args.dense_passages]))
        start = time.perf_counter()
        dense = DenseRetriever(load_corpus(small))
        encode_s = time.perf_counter() - start
        start = time.perf_counter()
        dense.search(queries, 10)
        qps_dense = len(queries) / (time.perf_counter() - start)
        print(f"Dense (all-MiniLM-L6-v2, 1 thread) on {args.dense_passages} passages")
        print(f"  encode corpus {encode_s:.1f} s ({args.dense_passages / encode_s:.0f} passages/s); "
              f"top-10 queries/s {qps_dense:.0f} (query encoding included)")


if __name__ == "__main__":
    main()
