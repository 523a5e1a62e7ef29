"""The array path of the word operations: ``WordNoise.many`` one chunk at a time.

Texts are split once for the whole chunk (one join, one split; token offsets and the set-aside
last characters with numpy), every draw is made for all texts at once with the counter-based
generator, and the insert/replace steps run step by step over all texts still stepping (texts
sorted by their step count, so the texts at step s are a prefix). Words are ids into a chunk
vocabulary; synonyms are looked up once per distinct word. The few texts this path does not
cover (a text whose only word is its last character; a deletion that removes every word)
take ``WordNoise.one``, which gives the same result by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any

from rattle.items import Edit
from rattle.perturbations.chars import _below, _mix, _substrings, decode, encode

if TYPE_CHECKING:
    import numpy as np

    from rattle.perturbations.words import Noise, WordNoise

_FIRST_TRIES = 2  # tries drawn for every text of a step; the rest only where these all fail
_SEPARATORS = ("\x00", "\x1f", "\x1e", "\ue000", "\U0010fffd")


def _uniform(words: np.ndarray) -> np.ndarray:
    import numpy as np

    return (words >> np.uint64(11)).astype(np.float64) * 2.0**-53


def _edits(starts: Any, befores: Sequence[str], afters: Sequence[str] | Any) -> list[Edit]:
    return list(map(tuple.__new__, repeat(Edit), zip(starts, befores, afters, strict=False)))


def _group(items: list[Any], counts: Any) -> list[tuple[Any, ...]]:
    """``items`` cut into consecutive tuples of ``counts[i]`` items."""
    import numpy as np

    ends = np.cumsum(counts).tolist()
    starts = [0, *ends[:-1]]
    return list(map(tuple, map(items.__getitem__, map(slice, starts, ends))))


class _Split:
    """The words of every text of a chunk, flat: strings, owning text, rank, offset."""

    def __init__(self, texts: Sequence[str]) -> None:
        import numpy as np

        n = len(texts)
        self.joined = " ".join(texts)
        raw = self.joined.split(" ")
        counts = np.fromiter((t.count(" ") + 1 for t in texts), np.int64, n)
        tok_len = np.fromiter(map(len, raw), np.int64, len(raw))
        tok_at = np.cumsum(tok_len + 1) - (tok_len + 1)  # offset in the joined texts
        first_tok = np.cumsum(counts) - counts
        text_at = tok_at[first_tok]
        tok_text = np.repeat(np.arange(n), counts)
        filled = np.flatnonzero(tok_len)
        filled_text = tok_text[filled]
        is_last = np.ones(len(filled), bool)
        is_last[:-1] = filled_text[1:] != filled_text[:-1]
        last_tok, with_words = filled[is_last], filled_text[is_last]
        self.sig = [""] * n
        for t, j in zip(with_words.tolist(), last_tok.tolist(), strict=True):
            word = raw[j]
            self.sig[t] = word[-1]
            raw[j] = word[:-1]
        self.end = np.zeros(n, np.int64)
        self.end[with_words] = tok_at[last_tok] + tok_len[last_tok] - 1 - text_at[with_words]
        self.has_tokens = np.zeros(n, bool)
        self.has_tokens[with_words] = True
        tok_len[last_tok] -= 1
        word_tok = np.flatnonzero(tok_len)
        self.word_text = tok_text[word_tok]
        self.n_words = np.bincount(self.word_text, minlength=n)
        self.first = np.cumsum(self.n_words) - self.n_words  # each text's first word
        self.rank = np.arange(len(word_tok)) - self.first[self.word_text]
        self.start = tok_at[word_tok] - text_at[self.word_text]
        self.words: list[str] = (raw if len(word_tok) == len(raw)
                                 else list(map(raw.__getitem__, word_tok.tolist())))


def _texts(pieces: list[str], last: Any, sigs: list[str], avoid: str) -> list[str]:
    """Texts from their word lists laid end to end: piece ``last[r]`` ends text r, which gets
    its set-aside character. One join and one split, on a character absent from ``avoid``
    (every text and word), or one join per text when every candidate occurs."""
    ends = last.tolist()
    if not ends:
        return []
    sep = next((s for s in _SEPARATORS if s not in avoid), None)
    if sep is None:
        starts = [0, *(e + 1 for e in ends[:-1])]
        return [" ".join(pieces[a: b + 1]) + sig for a, b, sig in zip(starts, ends, sigs, strict=True)]
    for i, sig in zip(ends, sigs, strict=True):
        pieces[i] = pieces[i] + sig + sep
    return " ".join(pieces)[:-1].split(sep + " ")


def chunk(noise: WordNoise, texts: Sequence[str], key_list: Sequence[int],
          vocab: Vocab | None = None) -> list[Noise]:
    """``[noise.one(t, k) for t, k in zip(texts, key_list)]``; ``vocab`` may be shared by the
    chunks of one batch (word ids and synonym lists are then looked up once)."""
    import numpy as np

    keys = np.array(key_list, dtype=np.uint64)
    out: list[Noise] = [(t, ()) for t in texts]
    if noise.op == "delete":
        vector, results, scalar = _delete(noise, texts, keys)
    else:
        split = _Split(texts)
        # A text whose only word is its set-aside last character: the scalar path.
        scalar = split.has_tokens & (split.n_words == 0)
        vector, results = _edit(noise, split, keys, vocab or Vocab(noise))
    for t, result in zip(vector.tolist(), results, strict=True):
        out[t] = result
    for t in np.flatnonzero(scalar).tolist():
        out[t] = noise.one(texts[t], key_list[t])
    return out


def _delete(noise: WordNoise, texts: Sequence[str],
            keys: np.ndarray) -> tuple[np.ndarray, list[Noise], np.ndarray]:
    """Deletion on code points: the kept words are gathered with the character after each
    (a space, or the set-aside last character for a text's last kept word), one decode."""
    import numpy as np

    n_texts = len(texts)
    joined = " ".join(texts)
    codes = encode(joined)
    lengths = np.fromiter(map(len, texts), np.int64, n_texts)
    text_at = np.zeros(n_texts, np.int64)
    np.cumsum(lengths[:-1] + 1, out=text_at[1:])
    spaces = np.flatnonzero(codes == 32)
    tok_start = np.concatenate(([0], spaces + 1))
    tok_len = np.concatenate((spaces, [len(codes)])) - tok_start
    counts = np.diff(np.searchsorted(spaces, np.append(text_at, len(codes) + 1)))
    counts[-1] += 1
    tok_text = np.repeat(np.arange(n_texts), counts)
    filled = np.flatnonzero(tok_len)
    filled_text = tok_text[filled]
    is_last = np.ones(len(filled), bool)
    is_last[:-1] = filled_text[1:] != filled_text[:-1]
    last_tok, with_words = filled[is_last], filled_text[is_last]
    sig_at = np.zeros(n_texts, np.int64)
    sig_at[with_words] = tok_start[last_tok] + tok_len[last_tok] - 1
    word_len = tok_len.copy()
    word_len[last_tok] -= 1
    word = np.flatnonzero(word_len)
    wt, start, size = tok_text[word], tok_start[word], word_len[word]
    n_words = np.bincount(wt, minlength=n_texts)
    rank = np.arange(len(word)) - (np.cumsum(n_words) - n_words)[wt]
    keep = _uniform(_mix(keys[wt], rank + 1)) > noise.rate
    kept_n = np.bincount(wt[keep], minlength=n_texts)
    has_tokens = np.zeros(n_texts, bool)
    has_tokens[with_words] = True
    # No word but the last character, or every word deleted: the scalar path.
    scalar = has_tokens & (kept_n == 0)
    vector = np.flatnonzero(kept_n > 0)
    in_vector = (kept_n > 0)[wt]
    k_start, k_size = start[keep], size[keep]
    seg = k_size + 1
    ends = np.cumsum(seg)
    gather = np.repeat(k_start - (ends - seg), seg) + np.arange(int(ends[-1]) if len(ends) else 0)
    out = codes[gather]  # a copy
    out_end = ends[np.cumsum(kept_n[vector]) - 1] if len(vector) else ends[:0]
    out[out_end - 1] = codes[sig_at[vector]]
    new_text = decode(out)
    bounds = [0, *out_end.tolist()]
    texts_out = list(map(new_text.__getitem__, map(slice, bounds[:-1], bounds[1:])))
    gone = ~keep & in_vector
    befores = _substrings(codes, joined, start[gone], size[gone])
    edits = _edits((start[gone] - text_at[wt[gone]]).tolist(), befores, repeat(""))
    grouped = _group(edits, np.bincount(wt[gone], minlength=n_texts)[vector])
    return vector, list(zip(texts_out, grouped, strict=True)), scalar


class Vocab:
    """Word strings and ids for a batch, with each word's synonyms as ids (looked up when the
    word is first picked)."""

    def __init__(self, noise: WordNoise) -> None:
        import numpy as np

        self.noise = noise
        self.strings: list[str] = []
        self.index: dict[str, int] = {}
        self.count = np.full(1024, -1, np.int64)
        self.first = np.zeros(len(self.count), np.int64)
        self.flat_arr = np.zeros(0, np.int64)

    def ids(self, words: list[str]) -> np.ndarray:
        """Ids of ``words``, adding the new ones (in order of first appearance)."""
        import numpy as np

        try:
            return np.fromiter(map(self.index.__getitem__, words), np.int64, len(words))
        except KeyError:
            pass
        index, strings = self.index, self.strings
        for w in dict.fromkeys(words):
            if w not in index:
                index[w] = len(strings)
                strings.append(w)
        self._grow()
        return np.fromiter(map(index.__getitem__, words), np.int64, len(words))

    def _grow(self) -> None:
        import numpy as np

        if len(self.strings) > len(self.count):
            grow = len(self.strings) * 2 - len(self.count)
            self.count = np.concatenate((self.count, np.full(grow, -1, np.int64)))
            self.first = np.concatenate((self.first, np.zeros(grow, np.int64)))

    def ensure(self, ids: np.ndarray) -> None:
        """Look up the synonyms of the words among ``ids`` not looked up yet."""
        import numpy as np

        unknown = ids[self.count[ids] < 0]
        if not len(unknown):
            return
        extra: list[str] = []
        at = len(self.flat_arr)
        synonyms, strings = self.noise.synonyms, self.strings
        for i in np.unique(unknown).tolist():
            cands = synonyms(strings[i])
            self.first[i] = at + len(extra)
            self.count[i] = len(cands)
            extra += cands
        self.flat_arr = np.concatenate((self.flat_arr, self.ids(extra)))


def _edit(noise: WordNoise, split: _Split, keys: np.ndarray,
          vocab: Vocab) -> tuple[np.ndarray, list[Noise]]:
    """insert / replace for every text with at least one word."""
    import numpy as np

    from rattle.perturbations.words import MAX_TRIES, P_PASSAGE_WORD, STRIDE

    insert = noise.op == "insert"
    rows = np.flatnonzero(split.n_words > 0)
    n_words = split.n_words[rows]
    steps = np.round(n_words * noise.rate).astype(np.int64)
    order = np.argsort(-steps, kind="stable")
    rows, n_words, steps = rows[order], n_words[order], steps[order]
    first = split.first[rows]
    rkeys = keys[rows]
    wid = vocab.ids(split.words)
    width = int((n_words + (steps if insert else 0)).max(initial=1))
    cols = np.arange(width)
    valid = cols < n_words[:, None]
    cur = np.zeros((len(rows), width), np.int32)  # int32: half the bytes to shift
    orig = np.full((len(rows), width), -1, np.int32)
    cur[valid] = wid[(first[:, None] + cols)[valid]]
    orig[valid] = np.broadcast_to(cols, valid.shape)[valid]
    replaced = np.zeros((len(rows), width), bool)
    length = n_words.copy()
    slots = np.full((len(rows), int(steps.max(initial=0))), -1, np.int64)  # insert: per step
    active = np.searchsorted(-steps, -np.arange(int(steps.max(initial=0))), "left")

    def tries(who: np.ndarray, base: int, lo: int, hi: int) -> tuple[np.ndarray, ...]:
        """Tries lo..hi-1 of the texts ``who``: for those with a success, the text, its
        first success's choice draw, coin, picked word and that word's synonym count; and
        the texts without one."""
        draws = _mix(rkeys[who, None], base + np.arange(3 * lo, 3 * hi))
        w = cur[who[:, None], _below(draws[:, 0::3], length[who, None])]
        coin = _uniform(draws[:, 1::3]) < P_PASSAGE_WORD
        vocab.ensure(w[~coin])
        count = vocab.count[w]
        ok = coin | (count > 0)
        found = ok.any(1)
        h = np.flatnonzero(found)
        t = ok[h].argmax(1)
        return who[h], draws[h, 3 * t + 2], coin[h, t], w[h, t], count[h, t], who[~found]

    for s, n_active in enumerate(active.tolist()):
        # The first tries of every active text at once, the others only for the texts still
        # without a word (the same draws: each text takes its first success).
        base = 2 + s * STRIDE
        *got, missed = tries(np.arange(n_active), base, 0, _FIRST_TRIES)
        if len(missed):
            *more, _ = tries(missed, base, _FIRST_TRIES, MAX_TRIES)
            got = [np.concatenate(pair) for pair in zip(got, more, strict=True)]
        hit, choice, took, ww, count = got
        new = np.full(n_active, -1, np.int64)
        rows_c = hit[took]
        new[rows_c] = wid[first[rows_c] + _below(choice[took], n_words[rows_c])]
        syn = ~took
        new[hit[syn]] = vocab.flat_arr[vocab.first[ww[syn]] + _below(choice[syn], count[syn])]
        done = np.flatnonzero(new >= 0)
        if not len(done):
            continue
        at = _mix(rkeys[done], 1 + s * STRIDE)
        if insert:  # append to the words in joining order; the slot is resolved at the end
            slots[done, s] = _below(at, length[done] + 1)
            cur[done, length[done]] = new[done]
            length[done] += 1
        else:
            pos = _below(at, length[done])
            cur[done, pos] = new[done]
            replaced[done, pos] = orig[done, pos] >= 0
    if insert:
        cur, orig = _in_place(cur, slots, n_words, length)
    return rows, _assemble(split, rows, first, cur, orig, replaced, length, vocab, insert)


def _in_place(pool: np.ndarray, slots: np.ndarray, n_words: np.ndarray,
              length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The working lists in their final order (word ids, original index or -1), from the words
    in joining order and each step's slot (-1: nothing inserted).

    A word inserted at slot p ends where p is moved by every later insertion at or before it
    (one array step per later step, for all texts at once); the original words keep their
    order and fill the positions left."""
    import numpy as np

    rows, width = pool.shape
    done = slots >= 0
    final_at = slots.copy()
    for t in range(1, slots.shape[1]):
        later = slots[:, t, None]
        final_at[:, :t] += done[:, t, None] & (later <= final_at[:, :t])
    r, s = np.nonzero(done)  # row-major: each row's insertions in step order
    rank = np.cumsum(done, 1)[r, s] - 1
    source = np.full((rows, width), -1, np.int64)  # pool column of each final position
    source[r, final_at[r, s]] = n_words[r] + rank
    free = (np.arange(width) < length[:, None]) & (source < 0)
    first = np.cumsum(n_words) - n_words
    source[free] = np.arange(int(n_words.sum())) - np.repeat(first, n_words)
    valid = source >= 0
    cur = np.zeros_like(pool)
    cur[valid] = np.take_along_axis(pool, np.maximum(source, 0), 1)[valid]
    orig = np.where(valid & (source < n_words[:, None]), source, -1).astype(pool.dtype)
    return cur, orig


def _assemble(split: _Split, rows: np.ndarray, first: np.ndarray, cur: np.ndarray,
              orig: np.ndarray, replaced: np.ndarray, length: np.ndarray, vocab: Vocab,
              insert: bool) -> list[Noise]:
    """Texts and edits of the finished working lists (rows in step order)."""
    import numpy as np

    width = cur.shape[1]
    valid = np.arange(width) < length[:, None]
    strings = vocab.strings
    pieces = list(map(strings.__getitem__, cur[valid].tolist()))
    sigs = [split.sig[r] for r in rows.tolist()]
    texts = _texts(pieces, np.cumsum(length) - 1, sigs, split.joined + "".join(strings))
    if insert:
        fresh = valid & (orig < 0)
        # The original word after each position (``width``: none, the end of the text).
        nxt = np.minimum.accumulate(np.where(valid & (orig >= 0), orig.astype(np.int64), width)
                                    [:, ::-1], 1)[:, ::-1]
        r, c = np.nonzero(fresh)
        nxt_at = nxt[r, c]
        key = r * (width + 1) + nxt_at
        new_group = np.ones(len(key), bool)
        new_group[1:] = key[1:] != key[:-1]
        starts = np.flatnonzero(new_group)
        ends = np.append(starts[1:], len(key))[: len(starts)]
        words = list(map(strings.__getitem__, cur[r, c].tolist()))
        afters = list(map(words.__getitem__, starts.tolist()))  # mostly one word a run
        for g in np.flatnonzero(ends - starts > 1).tolist():
            afters[g] = " ".join(words[starts[g]: ends[g]])
        gr, gn = r[starts], nxt_at[starts]
        inside = gn < width
        at = split.end[rows[gr]]
        at[inside] = split.start[first[gr[inside]] + gn[inside]]
        edits = _edits(at.tolist(), repeat(""), afters)  # type: ignore[arg-type]
        per_row = np.bincount(gr, minlength=len(rows))
    else:
        r, c = np.nonzero(replaced)
        word = first[r] + orig[r, c]
        edits = _edits(split.start[word].tolist(), list(map(split.words.__getitem__, word.tolist())),
                       list(map(strings.__getitem__, cur[r, c].tolist())))
        per_row = np.bincount(r, minlength=len(rows))
    return list(zip(texts, _group(edits, per_row), strict=True))
