"""Retrieval throughput: rattle's BM25 beside bm25s (numba backend, driven directly) and
rank-bm25, and rattle's dense index (FAISS) beside exact search with numpy, in one process.

BM25: a generated corpus of 100,000 passages (Zipf-distributed vocabulary of 30,000 words,
30-80 words each) and 2,000 five-word queries. Index build (rattle: streaming the file into
its passage store, tokenising, scoring, saving; bm25s: its tokenizer and ``index``; rank-bm25:
``BM25Okapi``), reload from disk (rattle: opening the store and the memory-mapped index in a
fresh ``load_corpus``; bm25s: ``BM25.load(mmap=True)``), and top-10 queries/second with the
same number of threads for rattle and bm25s (bm25s's numba compilation is timed apart: it
happens in every process). Peak RSS of the process is reported after each part.

Dense: unit vectors of dimension 384 (MiniLM's), 100,000 and 1,000,000 of them, generated,
not embedded (embedding 1M passages with MiniLM on two cores takes hours; the product embeds
once, in batches, and caches the matrix): clusters in a 64-dimensional latent space mapped to
384 dimensions plus noise (``embeddings_like``). Queries are new points of the same law.
rattle's ``VectorIndex`` HNSW graph (its default above 200,000 vectors; exact numpy search
below) against exact search with numpy and with FAISS's flat index: queries/second, recall@10
against the exact top 10, memory. The graphs are built once and kept in
``$RATTLE_CACHE/bench`` (the build time printed is the build's when it was built, else the
read's).

Memory: a BM25 index of 1,000,000 such passages is built in a fresh process (peak RSS, index
size, reload, q/s); the 1M HNSW graph's peak RSS is printed with it (target: both within 8 GB).

Usage: python bench/retrieval.py [--passages 100000] [--queries 2000] [--dense 100000,1000000]
                                 [--bm25-memory 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from itertools import accumulate
from pathlib import Path
from typing import Any

from rattle.retrieval.bm25 import BM25Retriever, tokenize
from rattle.retrieval.corpus import load_corpus

DIM = 384


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_corpus(n: int, path: Path, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(30_000)]
    cum = list(accumulate(1 / (i + 1) for i in range(len(vocab))))
    with path.open("w") as fh:
        for i in range(n):
            words = rng.choices(vocab, cum_weights=cum, k=rng.randint(30, 80))
            fh.write(json.dumps({"id": str(i), "title": "", "text": " ".join(words)}) + "\n")
    return [" ".join(rng.choices(vocab[100:5000], k=5)) for _ in range(10_000)]


def bm25(args: argparse.Namespace, folder: Path) -> None:
    path = folder / "corpus.jsonl"
    queries = make_corpus(args.passages, path)[: args.queries]
    threads = max(1, len(os.sched_getaffinity(0)))

    start = time.perf_counter()
    ours = BM25Retriever(load_corpus(path))
    build_ours = time.perf_counter() - start
    start = time.perf_counter()
    ours = BM25Retriever(load_corpus(path))
    reload_ours = time.perf_counter() - start
    assert ours.loaded_from_disk
    start = time.perf_counter()
    ours.search(queries[:10], 10)
    warm_ours = time.perf_counter() - start
    start = time.perf_counter()
    hits_ours = ours.search(queries, 10)
    qps_ours = len(queries) / (time.perf_counter() - start)
    ours.threads = 1
    start = time.perf_counter()
    ours.search(queries, 10)
    qps_ours_1 = len(queries) / (time.perf_counter() - start)
    print(f"BM25 on {args.passages} passages, {len(queries)} queries, top 10, {threads} threads")
    print(f"  rattle:    build {build_ours:.1f} s (store + index), reload {reload_ours:.2f} s, "
          f"first search {warm_ours:.2f} s (numba kernel from its cache), "
          f"{qps_ours:,.0f} q/s ({qps_ours_1:,.0f} q/s on 1 thread); peak RSS {rss_mb():.0f} MB")

    import bm25s

    texts = [json.loads(line)["text"] for line in path.read_text().splitlines()]
    start = time.perf_counter()
    tokens = bm25s.tokenize(texts, stopwords="en", show_progress=False)
    ref = bm25s.BM25(backend="numba")
    ref.index(tokens, show_progress=False)
    build_ref = time.perf_counter() - start
    ref.save(str(folder / "bm25s"), show_progress=False)
    start = time.perf_counter()
    ref = bm25s.BM25.load(str(folder / "bm25s"), mmap=True)
    reload_ref = time.perf_counter() - start
    query_tokens = bm25s.tokenize(queries, stopwords="en", show_progress=False, return_ids=False)
    start = time.perf_counter()
    ref.retrieve(query_tokens[:10], k=10, show_progress=False, n_threads=threads)
    jit_ref = time.perf_counter() - start
    start = time.perf_counter()
    ids, scores = ref.retrieve(query_tokens, k=10, show_progress=False, n_threads=threads)
    qps_ref = len(queries) / (time.perf_counter() - start)
    same_scores = same_ids = 0
    for h, r, s in zip(hits_ours, ids.tolist(), scores.tolist(), strict=True):
        same_scores += [x for _, x in h] == [x for x in s if x > 0]
        last = h[-1][1] if h else None  # passages tied at the 10th score may differ
        same_ids += {i for i, x in h if x != last} == {i for i, x in zip(r, s, strict=True)
                                                       if x > 0 and x != last}
    print(f"  bm25s-numba: build {build_ref:.1f} s (tokenize + index), reload {reload_ref:.2f} s, "
          f"numba compilation {jit_ref:.1f} s, {qps_ref:,.0f} q/s; identical top-10 scores for "
          f"{same_scores / len(queries):.1%} of queries, same passages above the 10th score "
          f"for {same_ids / len(queries):.1%}")

    from rank_bm25 import BM25Okapi

    start = time.perf_counter()
    okapi = BM25Okapi(tokenize(texts))
    build_okapi = time.perf_counter() - start
    del texts
    sample = tokenize(queries[:40])
    start = time.perf_counter()
    for q in sample:
        scores = okapi.get_scores(q)
        sorted(range(len(scores)), key=lambda i: -scores[i])[:10]
    qps_okapi = len(sample) / (time.perf_counter() - start)
    print(f"  rank-bm25: build {build_okapi:.1f} s, {qps_okapi:.1f} q/s")
    print(f"RATIO bm25_vs_bm25s {qps_ours / qps_ref:.2f}x bm25s-numba top-10 q/s ({qps_ours:,.0f} vs "
          f"{qps_ref:,.0f}, {args.passages} passages; target >= 0.5x and >= 2,000 q/s)")
    print(f"RATIO bm25_vs_rank_bm25 {qps_ours / qps_okapi:,.0f}x rank-bm25 top-10 q/s "
          f"(build {build_ours:.1f} s vs {build_okapi:.1f} s)")
    print(f"RATIO bm25_reload {reload_ours:.2f} s rattle, {reload_ref:.2f} s bm25s (target < 1 s)")


def bm25_memory(n: int) -> None:
    """Build a BM25 index of ``n`` passages in this (fresh) process: time, peak RSS, size."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "corpus.jsonl"
        queries = make_corpus(n, path)[:2000]
        base = rss_mb()
        start = time.perf_counter()
        retriever = BM25Retriever(load_corpus(path))
        build = time.perf_counter() - start
        built = rss_mb()
        start = time.perf_counter()
        retriever = BM25Retriever(load_corpus(path))
        reload = time.perf_counter() - start
        retriever.search(queries[:10], 10)
        start = time.perf_counter()
        retriever.search(queries, 10)
        qps = len(queries) / (time.perf_counter() - start)
        size = sum(f.stat().st_size for f in Path(d).rglob("*.npy")) / 2**20
        print(f"BM25 on {n:,} passages: build {build:.0f} s, peak RSS {built:,.0f} MB "
              f"({base:,.0f} MB before), index files {size:,.0f} MB, reload {reload:.2f} s, "
              f"{qps:,.0f} top-10 q/s")
        print(f"RATIO bm25_{n // 1000}k_memory {built / 1024:.2f} GB peak RSS building "
              f"(target <= 8 GB), {qps:,.0f} q/s")


def embeddings_like(n: int, rng: Any, latent: Any, lift: Any) -> Any:
    """Unit vectors like sentence embeddings: Gaussian clusters in a 64-dimensional latent
    space, mapped linearly to 384 dimensions, plus a little isotropic noise (a query's nearest
    passage has cosine about 0.66; two random vectors about 0)."""
    import numpy as np

    out = np.empty((n, DIM), np.float32)
    for a in range(0, n, 100_000):
        b = min(n, a + 100_000)
        z = latent[rng.integers(0, len(latent), b - a)] + rng.standard_normal(
            (b - a, latent.shape[1]), dtype=np.float32)
        x = z @ lift + 0.02 * rng.standard_normal((b - a, DIM), dtype=np.float32)
        out[a:b] = x / np.linalg.norm(x, axis=1, keepdims=True)
    return out


def dense(n: int, cache: Path) -> None:
    import numpy as np

    from rattle.retrieval.dense import VectorIndex, top_k_exact

    rng = np.random.default_rng(n)
    latent = rng.standard_normal((max(2000, n // 200), 64), dtype=np.float32)
    lift = rng.standard_normal((64, DIM), dtype=np.float32) / 8
    matrix = embeddings_like(n, rng, latent, lift)
    queries = embeddings_like(500, rng, latent, lift)  # new points, not corpus vectors
    n_exact = 100 if n > 200_000 else 300
    start = time.perf_counter()
    _, truth = top_k_exact(queries[:n_exact], matrix, 10)
    qps_numpy = n_exact / (time.perf_counter() - start)
    import faiss

    flat = faiss.IndexFlatIP(DIM)
    flat.add(matrix)
    start = time.perf_counter()
    flat.search(queries[:n_exact], 10)
    qps_flat = n_exact / (time.perf_counter() - start)
    del flat
    folder = cache / f"dense-v2-{n}"
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    index = VectorIndex(matrix, folder, exact_max=0)  # the graph (rattle's default above 200k)
    build = time.perf_counter() - start
    index.search(queries[:10], 10)
    start = time.perf_counter()
    _, got = index.search(queries, 10)
    qps = len(queries) / (time.perf_counter() - start)
    recall = float(np.mean([len(set(a) & set(b)) / 10 for a, b in
                            zip(got[:n_exact].tolist(), truth.tolist(), strict=True)]))
    size = sum(f.stat().st_size for f in folder.glob("*.faiss")) / 2**20
    ef = index.index.hnsw.efSearch
    print(f"Dense, {n:,} embedding-like unit vectors (d={DIM}): exact search numpy {qps_numpy:,.1f} "
          f"q/s, FAISS flat {qps_flat:,.1f} q/s; rattle HNSW (M 16, efSearch {ef}) ready in "
          f"{build:.1f} s (built now, or read from {folder}), {qps:,.0f} q/s, recall@10 "
          f"{recall:.3f} on new queries (sampled passages at build: {index.build_recall:.3f}); "
          f"vectors {matrix.nbytes / 2**20:,.0f} MB, graph file {size:,.0f} MB; "
          f"peak RSS {rss_mb():,.0f} MB")
    print(f"RATIO dense_{n // 1000}k HNSW {qps / qps_numpy:,.1f}x numpy exact q/s ({qps:,.0f} vs "
          f"{qps_numpy:,.1f}), recall@10 {recall:.3f} (target at 1M: >= 10x, >= 0.95); "
          f"FAISS flat {qps_flat / qps_numpy:.2f}x numpy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--dense", default="100000,1000000")
    parser.add_argument("--skip-bm25", action="store_true")
    parser.add_argument("--bm25-memory", type=int, default=1_000_000,
                        help="passages of the BM25 memory check, in its own process (0: skip)")
    parser.add_argument("--only-bm25-memory", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only_bm25_memory:
        bm25_memory(args.bm25_memory)
        return
    cache = Path(os.environ.get("RATTLE_CACHE", Path.home() / ".cache" / "rattle")) / "bench"
    if not args.skip_bm25:
        with tempfile.TemporaryDirectory() as d:
            bm25(args, Path(d))
    if args.bm25_memory:
        subprocess.run([sys.executable, __file__, "--only-bm25-memory", "--bm25-memory",
                        str(args.bm25_memory)], check=True)
    for n in (int(x) for x in args.dense.split(",") if x):
        dense(n, cache)


if __name__ == "__main__":
    main()
