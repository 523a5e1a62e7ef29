"""The array path of ``visual.homoglyph``: ``Homoglyphs.many`` one chunk at a time.

The chunk's texts are joined and read as code points (``chars.encode``); words are picked for
every text at once (``chars._fisher_yates`` on the items' keys), then positions for every
chosen word at once (the same shuffle on the words' own keys), then each position's glyph by
comparing its draw with the letter's cumulative weights (a row of the glyph table). A glyph
replaces one code point, so every text keeps its offsets and one decode gives all texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import TYPE_CHECKING

from rattle.items import Edit
from rattle.perturbations.chars import _fisher_yates, _mix, _substrings, decode, encode
from rattle.perturbations.words_batch import _uniform

if TYPE_CHECKING:
    from rattle.perturbations.visual import Homoglyphs


def chunk(noise: Homoglyphs, texts: Sequence[str],
          key_list: Sequence[int]) -> list[tuple[str, tuple[Edit, ...]]]:
    import numpy as np

    from rattle.perturbations.visual import SUBKEY

    n_texts = len(texts)
    joined = " ".join(texts)
    codes = encode(joined)
    lengths = np.fromiter(map(len, texts), np.int64, n_texts)
    text_at = np.zeros(n_texts, np.int64)
    np.cumsum(lengths[:-1] + 1, out=text_at[1:])
    spaces = np.flatnonzero(codes == 32)
    tok_start = np.concatenate(([0], spaces + 1))
    tok_len = np.concatenate((spaces, [len(codes)])) - tok_start
    inner = np.diff(np.searchsorted(spaces, np.append(text_at, len(codes) + 1))) - 1
    inner[-1] += 1
    counts = inner + 1
    tok_text = np.repeat(np.arange(n_texts), counts)
    tok_rank = np.arange(len(tok_start)) - (np.cumsum(counts) - counts)[tok_text]
    eligible = np.flatnonzero(tok_len > 1)
    m = np.bincount(tok_text[eligible], minlength=n_texts)
    k = np.ceil(m * noise.rate).astype(np.int64)
    keys = np.array(key_list, dtype=np.uint64)
    picked = _fisher_yates(keys, m, k)
    first_el = np.cumsum(m) - m
    chosen = np.sort(eligible[first_el[picked[0]] + picked[1]])  # token ids, text order
    row = tok_text[chosen]
    word_at, word_len = tok_start[chosen], tok_len[chosen]
    sub = _mix(keys[row], SUBKEY + tok_rank[chosen])
    n_pos = np.minimum(word_len, np.ceil(word_len * noise.ratio).astype(np.int64))
    word_of, pos = _fisher_yates(sub, word_len, n_pos)
    pos = pos.astype(np.int64)
    at = word_at[word_of] + pos
    table = noise.table
    letter = np.searchsorted(table.letters, codes[at])
    letter = np.minimum(letter, max(len(table.letters) - 1, 0))
    hit = (table.letters[letter] == codes[at]) if len(table.letters) else np.zeros(len(at), bool)
    at, letter, word_of, pos = at[hit], letter[hit], word_of[hit], pos[hit]
    x = _uniform(_mix(sub[word_of], SUBKEY + pos)) * table.total[letter]
    which = np.minimum((table.cum_arr[letter] <= x[:, None]).sum(1), table.size[letter] - 1)
    out = codes.astype(np.uint32)
    out[at] = table.glyph_arr[letter, which]
    new_text = decode(out)
    befores = _substrings(codes, joined, word_at, word_len)
    afters = _substrings(out, new_text, word_at, word_len)
    changed = [b != a for b, a in zip(befores, afters, strict=True)]
    keep = np.flatnonzero(changed)
    starts = (word_at - text_at[row])[keep].tolist()
    edits = list(map(tuple.__new__, repeat(Edit),
                     zip(starts, [befores[i] for i in keep.tolist()],
                         [afters[i] for i in keep.tolist()], strict=True)))
    per_text = np.bincount(row[keep], minlength=n_texts)
    ends = np.cumsum(per_text).tolist()
    begins = [0, *ends[:-1]]
    results = []
    for t, (a, b, s, n) in enumerate(zip(begins, ends, text_at.tolist(), lengths.tolist(), strict=True)):
        results.append((new_text[s: s + n] if a < b else texts[t], tuple(edits[a:b])))
    return results
