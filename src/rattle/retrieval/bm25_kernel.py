"""Top-k BM25 search over a CSC score matrix (bm25s's layout: one column of per-document
scores per token), compiled once by numba and cached on disk.

Each query adds its tokens' columns into a dense score buffer, remembers the documents it
touched, keeps the k best of those (score descending, then document index ascending, so ties
are deterministic) and clears only what it touched. bm25s's own numba functions scan and
reset all documents per query and are compiled again in every process (about 6-14 s on two
cores); this kernel is compiled once (``cache=True``) and then loads in a fraction of a second.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def top_k(q_ptr: np.ndarray, q_ids: np.ndarray, data: np.ndarray, indices: np.ndarray,
          indptr: np.ndarray, n_docs: int, k: int, out_ids: np.ndarray,
          out_scores: np.ndarray, out_n: np.ndarray) -> None:  # pragma: no cover - compiled
    scores = np.zeros(n_docs, np.float32)
    touched = np.empty(n_docs, np.int64)
    for q in range(len(q_ptr) - 1):
        m = 0
        for t in range(q_ptr[q], q_ptr[q + 1]):
            tok = q_ids[t]
            for j in range(indptr[tok], indptr[tok + 1]):
                d = indices[j]
                if scores[d] == 0.0:  # BM25 (Lucene idf) scores are positive
                    touched[m] = d
                    m += 1
                scores[d] += data[j]
        n = 0
        for i in range(m):
            d = touched[i]
            s = scores[d]
            scores[d] = 0.0
            if n == k and (s < out_scores[q, k - 1]
                           or (s == out_scores[q, k - 1] and d > out_ids[q, k - 1])):
                continue
            pos = n if n < k else k - 1
            while pos > 0 and (out_scores[q, pos - 1] < s
                               or (out_scores[q, pos - 1] == s and out_ids[q, pos - 1] > d)):
                out_scores[q, pos] = out_scores[q, pos - 1]
                out_ids[q, pos] = out_ids[q, pos - 1]
                pos -= 1
            out_scores[q, pos] = s
            out_ids[q, pos] = d
            if n < k:
                n += 1
        out_n[q] = n
