"""Character-level noise (RCC §3.3, Appendix B Table 18): repeat, delete, insert.

Words are the ``' '``-separated tokens of the text; a word is eligible when it has more than one
character, and ``ceil(rate * eligible)`` eligible words are picked (reference-implementations.md
§2.5). The count ``c`` of characters affected is drawn once per variant from {1, 2, 3} with
probabilities (0.4, 0.4, 0.2) (Table 18) unless given.

Randomness is counter-based (``rattle.seeding.splitmix64``): every draw is a pure function of
the item's key and the draw's index, laid out as

    word 0                 the count c (Table 18)
    words 1 .. k           the partial Fisher-Yates picks of the k words
    words k+1 + e*d ...    the d draws of the e-th chosen word (ascending word order):
                           delete/repeat d = 1 (where); insert d = 2c (where, which symbol)

so ``CharNoise.many`` computes a whole batch with array operations and gives exactly the texts
and edits that ``CharNoise.one`` gives item by item (tested on arbitrary Unicode).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import accumulate, repeat
from typing import TYPE_CHECKING, Any

from rattle.errors import ConfigError
from rattle.items import Edit
from rattle.perturbations.base import TextNoise, check_rate, paused_gc
from rattle.registry import register
from rattle.seeding import GAMMA, MASK64, MIX1, MIX2, below, splitmix64

if TYPE_CHECKING:
    import numpy as np

# Table 18: number of deletions / repetitions c in {1, 2, 3} with probability [0.4, 0.4, 0.2].
COUNTS = (1, 2, 3)
COUNT_WEIGHTS = (0.4, 0.4, 0.2)
# The same as thresholds on the top 32 bits of draw 0: c = 1 below 0.4 * 2**32, 2 below 0.8.
_COUNT_CUTS = (int(0.4 * 2**32), int(0.8 * 2**32))
# The symbols the RCC authors' attacker inserts (reference-implementations.md §2.5), including
# the full-width tilde U+FF5E.
INSERT_SYMBOLS = ("#", "@", "\uff5e", "$", "%", "^", "&", "*", "-", "+", "=", "}", "{", "<", ">")
# Largest (rows x widest row) Fisher-Yates table one batch step holds (16 MiB of int32).
_POOL_CELLS = 1 << 22
_CHUNK = 512  # texts per batch step (arrays stay in cache)

Noise = tuple[str, tuple[Edit, ...], int]


def drawn_count(word: int) -> int:
    top = word >> 32
    return 1 if top < _COUNT_CUTS[0] else 2 if top < _COUNT_CUTS[1] else 3


def _insert_word(word: str, key: int, at: int, count: int) -> str:
    """Insert ``count`` symbols, each in a gap 1..len(word) of the original word (never first)."""
    n = len(word)
    picks = sorted(
        (1 + below(splitmix64(key, at + 2 * r), n), r,
         INSERT_SYMBOLS[below(splitmix64(key, at + 2 * r + 1), len(INSERT_SYMBOLS))])
        for r in range(count))
    out: list[str] = []
    last = 0
    for gap, _, symbol in picks:
        out += (word[last:gap], symbol)
        last = gap
    out.append(word[last:])
    return "".join(out)


class CharNoise(TextNoise):
    """One character operation with its rate and count, applied to one text or a batch."""

    drawn_param = "count"  # many() gives (text, edits, count): base.apply_many reads it

    def __init__(self, op: str, rate: float, count: int | None) -> None:
        check_rate(f"chars.{op}", rate)
        if count is not None and count not in COUNTS:
            raise ConfigError(f"chars.{op}: count must be 1, 2 or 3, got {count}")
        self.op, self.rate = op, rate
        self.count = 1 if op == "insert" and count is None else count

    # -- the Perturber protocol: Perturbation passes the item's 64-bit key --------------------
    def details(self, drawn: tuple[Any, ...]) -> dict[str, Any]:
        return {"count": drawn[0]}  # the characters per word drawn for this text

    # -- one text ------------------------------------------------------------------------------
    def one(self, text: str, key: int) -> Noise:
        c = self.count or drawn_count(splitmix64(key, 0))
        words = text.split(" ")
        eligible = [i for i, w in enumerate(words) if len(w) > 1]
        m = len(eligible)
        k = math.ceil(m * self.rate)
        if k == 0:
            return text, (), c
        for j in range(k):
            r = j + below(splitmix64(key, 1 + j), m - j)
            eligible[j], eligible[r] = eligible[r], eligible[j]
        chosen = sorted(eligible[:k])
        starts = list(accumulate(map(len, words), initial=0))
        per_word = 2 * c if self.op == "insert" else 1
        edits = []
        for e, i in enumerate(chosen):
            word, at = words[i], 1 + k + e * per_word
            if self.op == "delete":
                if c >= len(word):
                    continue
                s = below(splitmix64(key, at), len(word) - c + 1)
                new = word[:s] + word[s + c:]
            elif self.op == "repeat":
                s = below(splitmix64(key, at), len(word))
                new = word[:s] + word[s] * (c + 1) + word[s + 1:]
            else:
                new = _insert_word(word, key, at, c)
            words[i] = new
            edits.append(Edit(starts[i] + i, word, new))
        return " ".join(words), tuple(edits), c

    # -- a batch, with array operations ------------------------------------------------------
    def many(self, texts: Sequence[str], keys: Sequence[int]) -> list[Noise]:
        """``[self.one(t, k) for t, k in zip(texts, keys)]``, computed a chunk at a time."""
        out: list[Noise] = []
        with paused_gc():
            for start in range(0, len(texts), _CHUNK):
                out += self._bounded(texts[start:start + _CHUNK], keys[start:start + _CHUNK])
        return out

    def _bounded(self, texts: Sequence[str], keys: Sequence[int]) -> list[Noise]:
        """Halve the chunk until its Fisher-Yates table fits (a word that can be picked takes
        at least three characters of the text, its space included)."""
        widest = max(map(len, texts)) // 3 + 1
        if len(texts) > 1 and len(texts) * widest > _POOL_CELLS:
            half = len(texts) // 2
            return self._bounded(texts[:half], keys[:half]) + self._bounded(texts[half:], keys[half:])
        return self._chunk(texts, keys)

    def _chunk(self, texts: Sequence[str], key_list: Sequence[int]) -> list[Noise]:
        import numpy as np

        n_texts = len(texts)
        joined = " ".join(texts)  # the texts' tokens, in order, are joined.split(" ")
        codes = encode(joined)
        lengths = np.fromiter(map(len, texts), np.int64, n_texts)
        text_at = np.zeros(n_texts, np.int64)
        np.cumsum(lengths[:-1] + 1, out=text_at[1:])
        spaces = np.flatnonzero(codes == 32)
        tok_start = np.concatenate(([0], spaces + 1))
        tok_len = np.concatenate((spaces, [len(codes)])) - tok_start
        # Text t owns its spaces plus one token; the joining spaces sit at text_at[1:] - 1.
        inner = np.diff(np.searchsorted(spaces, np.append(text_at, len(codes) + 1))) - 1
        inner[-1] += 1
        tok_text = np.repeat(np.arange(n_texts), inner + 1)
        eligible = np.flatnonzero(tok_len > 1)
        m = np.bincount(tok_text[eligible], minlength=n_texts)
        k = np.ceil(m * self.rate).astype(np.int64)
        keys = np.array(key_list, dtype=np.uint64)
        stand_ins: dict[str, str] | None = None
        if self.count:
            c = np.full(n_texts, self.count, np.int64)
        else:
            top = _mix(keys, 0) >> np.uint64(32)
            c = 1 + (top >= _COUNT_CUTS[0]).astype(np.int64) + (top >= _COUNT_CUTS[1])
        picked = _fisher_yates(keys, m, k)  # (text, ordinal among its eligible words)
        first_el = np.cumsum(m) - m
        chosen = np.sort(eligible[first_el[picked[0]] + picked[1]])  # token ids, text order
        row = tok_text[chosen]
        rank = np.arange(len(chosen)) - (np.cumsum(k) - k)[row]
        word_at, word_len, cr = tok_start[chosen], tok_len[chosen], c[row]
        draw_at = 1 + k[row] + rank * (2 * cr if self.op == "insert" else 1)
        if self.op == "delete":
            keep = cr < word_len
            word_at, word_len, cr, row, draw_at = (a[keep] for a in (word_at, word_len, cr, row, draw_at))
            s = _below(_mix(keys[row], draw_at), word_len - cr + 1)
            gone = np.repeat(word_at + s - np.cumsum(cr) + cr, cr) + np.arange(int(cr.sum()))
            mask = np.ones(len(codes), bool)
            mask[gone] = False
            new_codes, delta = codes[mask], -cr
        elif self.op == "repeat":
            s = _below(_mix(keys[row], draw_at), word_len)
            at = np.repeat(word_at + s, cr)
            new_codes, delta = np.insert(codes, at, codes[at]), cr
        else:
            n_ins = int(self.count or 1)
            at = draw_at[:, None] + 2 * np.arange(n_ins)  # every chosen word inserts n_ins
            gap = 1 + _below(_mix(keys[row][:, None], at), word_len[:, None])
            which = _below(_mix(keys[row][:, None], at + 1), len(INSERT_SYMBOLS))
            if n_ins > 1:
                order = np.argsort(gap, axis=1, kind="stable")  # equal gaps keep draw order
                gap = np.take_along_axis(gap, order, 1)
                which = np.take_along_axis(which, order, 1)
            symbol, stand_ins = _symbols(codes, which.ravel())
            if stand_ins is None:
                codes = codes.astype(np.uint16)
            new_codes = np.insert(codes, (word_at[:, None] + gap).ravel(), symbol.astype(codes.dtype))
            delta = np.full(len(row), n_ins, np.int64)
        new_text = decode(new_codes, stand_ins)
        shift = np.cumsum(delta) - delta  # characters added before each edit, all texts
        shift_text = np.zeros(n_texts, np.int64)
        np.add.at(shift_text, row, delta)
        new_at = text_at + np.cumsum(shift_text) - shift_text
        new_len = lengths + shift_text
        after_at = word_at + shift
        befores = _substrings(codes, joined, word_at, word_len)
        afters = _substrings(new_codes, new_text, after_at, word_len + delta, stand_ins)
        edit_list = list(map(tuple.__new__, repeat(Edit),
                             zip((word_at - text_at[row]).tolist(), befores, afters, strict=False)))
        edit_end = np.cumsum(np.bincount(row, minlength=n_texts))
        edit_start = np.concatenate(([0], edit_end[:-1]))
        new_texts = map(new_text.__getitem__, map(slice, new_at.tolist(), (new_at + new_len).tolist()))
        edits = map(tuple, map(edit_list.__getitem__, map(slice, edit_start.tolist(), edit_end.tolist())))
        return list(zip(new_texts, edits, c.tolist(), strict=False))


def encode(text: str) -> np.ndarray:
    """The code points of ``text`` in the narrowest array that holds them: bytes for ASCII,
    UTF-16 units when every character is in the Basic Multilingual Plane (and no lone
    surrogate), else UTF-32 (lone surrogates passed through)."""
    import numpy as np

    if text.isascii():
        return np.frombuffer(text.encode("ascii"), np.uint8)
    try:
        units = text.encode("utf-16-le")
    except UnicodeEncodeError:
        units = b""
    if len(units) == 2 * len(text):
        return np.frombuffer(units, np.uint16)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def decode(codes: np.ndarray, stand_ins: dict[str, str] | None = None) -> str:
    """The text of ``codes`` (as ``encode`` made them); ``stand_ins`` maps bytes that stood in
    for wider characters back to them."""
    import numpy as np

    if codes.dtype == np.uint8:
        text = codes.tobytes().decode("latin-1")
        for byte, char in (stand_ins or {}).items():
            text = text.replace(byte, char)
        return text
    if codes.dtype == np.uint16:
        return codes.tobytes().decode("utf-16-le")
    return codes.tobytes().decode("utf-32-le", "surrogatepass")


# Code points that separate gathered words before one decode + split; the first one absent from
# the batch and representable in its array is used (texts are arbitrary Unicode).
_SEPARATORS = (0, 0xFF, 0xFFFF, 0xE000, 0x10FFFF)


def _symbols(codes: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, dict[str, str] | None]:
    """The code points of INSERT_SYMBOLS[which]. A byte array keeps its width: a symbol wider
    than a byte (the full-width tilde) gets a control byte absent from the batch, mapped back
    after decoding; None when the array must widen instead (no such byte is free)."""
    import numpy as np

    symbols = np.array([ord(ch) for ch in INSERT_SYMBOLS], np.uint32)
    if codes.dtype != np.uint8 or symbols[which].max(initial=0) < 256:
        return symbols[which], {}
    wide = sorted(int(ch) for ch in set(symbols[which].tolist()) if ch >= 256)
    free = [b for b in range(1, 32) if not (codes == b).any()][: len(wide)]
    if len(free) < len(wide):
        return symbols[which], None
    for code, byte in zip(wide, free, strict=True):
        symbols[symbols == code] = byte
    return symbols[which], {chr(b): chr(c) for c, b in zip(wide, free, strict=True)}


def _substrings(codes: np.ndarray, text: str, at: np.ndarray, length: np.ndarray,
                stand_ins: dict[str, str] | None = None) -> list[str]:
    """``[text[a:a + n] for a, n in zip(at, length)]``: one gather, one decode, one split."""
    import numpy as np

    top = np.iinfo(codes.dtype).max
    sep = next((c for c in _SEPARATORS if c <= top and not (codes == c).any()), None)
    if sep is None or not len(at):
        return list(map(text.__getitem__, map(slice, at.tolist(), (at + length).tolist())))
    size = length + 1
    ends = np.cumsum(size)
    index = np.repeat(at - (ends - size), size) + np.arange(int(ends[-1]))
    gathered = codes[np.minimum(index, len(codes) - 1)]
    gathered[ends - 1] = sep
    return decode(gathered[:-1], stand_ins).split(chr(sep))


def _mix(keys: np.ndarray, index: np.ndarray | int) -> np.ndarray:
    """``splitmix64(key, index)`` elementwise (uint64 arithmetic wraps, as the & MASK64 does)."""
    import numpy as np

    if isinstance(index, int):
        z = keys + np.uint64(((index + 1) * GAMMA) & MASK64)
    else:
        z = keys + (index.astype(np.uint64) + np.uint64(1)) * np.uint64(GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return z ^ (z >> np.uint64(31))


def _below(words: np.ndarray, n: np.ndarray | int) -> np.ndarray:
    import numpy as np

    return (((words >> np.uint64(32)) * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)).astype(np.int64)


def _fisher_yates(keys: np.ndarray, m: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first k[t] entries of a partial Fisher-Yates shuffle of range(m[t]) for every text t,
    as (text, ordinal) pairs (grouped by text, texts in no particular order). All draws are made at once; rows sorted by k
    (descending) make the texts still picking at step j a prefix, so each step is two swaps."""
    import numpy as np

    rows = np.flatnonzero(k > 0)
    if not len(rows):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    rows = rows[np.argsort(-k[rows], kind="stable")]
    kr, mr = k[rows], m[rows]
    steps = int(kr[0])
    j = np.arange(steps)
    span = np.maximum(mr[:, None] - j, 1)  # rows past their k draw but never use the result
    swap = j + _below(_mix(keys[rows][:, None], j + 1), span)
    pool = np.broadcast_to(np.arange(int(mr.max()), dtype=np.int32), (len(rows), int(mr.max()))).copy()
    live = np.searchsorted(-kr, -j, "left")  # rows with k > j: kr sorted descending
    live_rows = np.arange(len(rows))
    for step in range(steps):
        n = int(live[step])
        at, other = live_rows[:n], swap[:n, step]
        held = pool[:n, step].copy()
        pool[:n, step] = pool[at, other]
        pool[at, other] = held
    take = np.arange(pool.shape[1]) < kr[:, None]
    return np.repeat(rows, kr), pool[take]


@register("perturbation", "chars.repeat", version=2)
def repeat_chars(*, rate: float = 0.5, count: int | None = None) -> CharNoise:
    """Repeat one character of each chosen word c more times (RCC Table 18)."""
    return CharNoise("repeat", rate, count)


@register("perturbation", "chars.delete", version=2)
def delete(*, rate: float = 0.5, count: int | None = None) -> CharNoise:
    """Delete a run of c characters from each chosen word (RCC Table 18)."""
    return CharNoise("delete", rate, count)


@register("perturbation", "chars.insert", version=2)
def insert(*, rate: float = 0.5, count: int | None = 1) -> CharNoise:
    """Insert one symbol (#, @, ～, $, ...) into each chosen word, never first (RCC Table 18)."""
    return CharNoise("insert", rate, count)
