"""Word-level noise (RCC §3.3): insert, delete, replace words.

Follows the RCC attacker (reference-implementations.md §2.5): words are the non-empty
``' '``-separated tokens of the text; the last character of the text is set aside and put
back after the edit (keeps the final full stop).

- delete: each word is kept when a uniform draw exceeds ``rate``; when none is kept, one
  random word of the text survives.
- insert / replace: ``round(rate * n)`` steps. Each step makes up to 10 tries: pick a random
  current word ``w``; with probability 0.5 the new word is a random word of the original
  text, otherwise a random WordNet synonym of ``w`` (if it has any). Insert puts the new word
  at a random slot of the current list, replace overwrites a random current position. (Insert
  draws ``w`` by its rank in the order the words joined the list rather than by its place:
  the same uniform choice among the current words, with no list to shift per step.)

Fixed here: synonyms are chosen from a sorted list (not from a set in hash order), and edit
offsets are the words' real positions (texts with several spaces in a row included).

Randomness is counter-based (``rattle.seeding.splitmix64``), every draw a pure function of the
item's key and the draw's index:

    delete            word 0: the surviving word when none is kept; word 1 + i: word i's uniform
    insert / replace  step s uses words 1 + s*31 ...: first the position, then for try t the
                      pick of w (2 + s*31 + 3t), the coin (+1) and the choice (+2)

so ``WordNoise.many`` runs a batch with array operations (every text's step s at once) and
gives exactly what ``WordNoise.one`` gives text by text (tested, including on arbitrary
Unicode). Synonyms come from the precomputed WordNet table (``rattle.nlp.wordnet``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from typing import TYPE_CHECKING

from rattle.errors import ConfigError
from rattle.items import Edit
from rattle.perturbations.base import TextNoise, check_rate, paused_gc
from rattle.registry import register
from rattle.seeding import below, splitmix64

if TYPE_CHECKING:
    pass

Synonyms = Callable[[str], Sequence[str]]
# RCC attacker: a new word is a random word of the passage with probability 0.5, otherwise a
# WordNet synonym (paper §3.3, "Word-level attacks").
P_PASSAGE_WORD = 0.5
MAX_TRIES = 10  # RCC attacker: up to 10 tries to find a candidate word
PUNCT = ".,;:!?\"'()"  # stripped from w before looking up its synonyms
STRIDE = 1 + 3 * MAX_TRIES  # draws per insert/replace step
_CHUNK = 512  # texts per batch step
Noise = tuple[str, tuple[Edit, ...]]


@lru_cache(maxsize=200_000)
def wordnet_synonyms(word: str) -> tuple[str, ...]:
    """WordNet synonyms of an already-normalised word (the precomputed table)."""
    from rattle.nlp.wordnet import synonym_table

    return synonym_table().synonyms(word)


def uniform(word: int) -> float:
    """A draw as a float in [0, 1): its top 53 bits, as ``random.random()`` builds one."""
    return (word >> 11) * 2.0**-53


_NUMPY_FROM = 12  # draws made with one numpy call from this many on (the same values)


def draws(key: int, start: int, count: int) -> list[int]:
    """Words ``start .. start + count - 1`` of the stream keyed by ``key``."""
    if count < _NUMPY_FROM:
        return [splitmix64(key, i) for i in range(start, start + count)]
    import numpy as np

    from rattle.perturbations.chars import _mix

    return list(_mix(np.array([key], np.uint64), np.arange(start, start + count)).tolist())


class _Text:
    """One text split the RCC way: words (last character set aside), offsets, the set-aside
    character and where it stands."""

    __slots__ = ("end", "original", "sig", "starts", "words")

    def __init__(self, text: str) -> None:
        words: list[str] = []
        starts: list[int] = []
        at = 0
        for tok in text.split(" "):
            if tok:
                words.append(tok)
                starts.append(at)
            at += len(tok) + 1
        self.words, self.starts = words, starts
        if not words:
            self.sig, self.end, self.original = "", 0, []
            return
        last = words[-1]
        self.sig = last[-1]
        self.end = starts[-1] + len(last) - 1
        words[-1] = last[:-1]
        if not words[-1]:
            words.pop()
        self.original = list(words) or [self.sig]


class WordNoise(TextNoise):
    """One word operation with its rate, applied to one text or a batch."""

    drawn_param: str | None = None  # many() draws nothing per text (base.apply_many)

    def __init__(self, op: str, rate: float, syn: Synonyms = wordnet_synonyms) -> None:
        if op not in ("insert", "delete", "replace"):
            raise ConfigError(f"unknown word operation {op!r}")
        self.op, self.rate = op, check_rate(f"words.{op}", rate)
        self.syn = syn
        self._syn_memo: dict[str, Sequence[str]] = {}

    def synonyms(self, word: str) -> Sequence[str]:
        got = self._syn_memo.get(word)
        if got is None:
            got = self._syn_memo[word] = self.syn(word.strip(PUNCT).lower())
        return got

    # -- the Perturber protocol ----------------------------------------------------------------
    # -- one text ------------------------------------------------------------------------------
    def one(self, text: str, key: int) -> Noise:
        t = _Text(text)
        if not t.original:
            return text, ()
        if self.op == "delete":
            return self._delete_one(t, key)
        return self._edit_one(t, key)

    def _delete_one(self, t: _Text, key: int) -> Noise:
        rate, words = self.rate, t.words
        keep = [(d >> 11) * 2.0**-53 > rate for d in draws(key, 1, len(words))]
        edits = [Edit(s, w, "") for s, w, k in zip(t.starts, words, keep, strict=False) if not k]
        kept = list(compress(words, keep))
        if not kept:
            survivor = t.original[below(splitmix64(key, 0), len(t.original))]
            return survivor + t.sig, (*edits, Edit(t.end, "", survivor))
        return " ".join(kept) + t.sig, tuple(edits)

    def _edit_one(self, t: _Text, key: int) -> Noise:
        original = t.original
        steps = round(len(original) * self.rate)
        stream = draws(key, 1, steps * STRIDE)  # word 1 + i of the key is stream[i]
        # The working list: (word, index of the original word it is or replaces, or -1 for a
        # new word, whether it was replaced).
        if self.op == "insert":
            # The current words in the order they joined (the text's, then each new one):
            # w is drawn from them, and ``order`` keeps where each one stands.
            pool = list(t.words)
            order = list(range(len(pool)))
            for s in range(steps):
                base = s * STRIDE
                new = self._new_word(pool or original, original, stream, base)
                if new is None:
                    continue
                order.insert(((stream[base] >> 32) * (len(order) + 1)) >> 32, len(pool))
                pool.append(new)
            n = len(t.words)
            work = [(pool[i], i if i < n else -1, False) for i in order]
            return " ".join(pool[i] for i in order) + t.sig, _edits_one(t, work)
        work = [(w, i, False) for i, w in enumerate(t.words)]
        current = list(t.words)  # the working list's words
        for s in range(steps):
            base = s * STRIDE
            new = self._new_word(current or original, original, stream, base)
            if new is None:
                continue
            if work:
                pos = ((stream[base] >> 32) * len(work)) >> 32
                work[pos] = (new, work[pos][1], work[pos][1] >= 0)
                current[pos] = new
        text = " ".join(w for w, _, _ in work) + t.sig
        return text, _edits_one(t, work)

    def _new_word(self, current: list[str], original: list[str], stream: list[int],
                  base: int) -> str | None:
        """Up to MAX_TRIES tries (draws base+1.. of the step): pick, coin, choice."""
        for j in range(base + 1, base + 1 + 3 * MAX_TRIES, 3):
            w = current[((stream[j] >> 32) * len(current)) >> 32]
            if (stream[j + 1] >> 11) * 2.0**-53 < P_PASSAGE_WORD:
                return original[((stream[j + 2] >> 32) * len(original)) >> 32]
            cands = self.synonyms(w)
            if cands:
                return cands[((stream[j + 2] >> 32) * len(cands)) >> 32]
        return None

    # -- a batch -------------------------------------------------------------------------------
    def many(self, texts: Sequence[str], keys: Sequence[int]) -> list[Noise]:
        """``[self.one(t, k) for t, k in zip(texts, keys)]``, computed a chunk at a time."""
        from rattle.perturbations import words_batch

        out: list[Noise] = []
        vocab = words_batch.Vocab(self)
        with paused_gc():
            for start in range(0, len(texts), _CHUNK):
                out += words_batch.chunk(self, texts[start: start + _CHUNK],
                                         keys[start: start + _CHUNK], vocab)
        return out


def _edits_one(t: _Text, work: list[tuple[str, int, bool]]) -> tuple[Edit, ...]:
    """Edits in original coordinates: replaced words, and runs of new words before the
    original word that follows them (or before the set-aside last character)."""
    edits: list[Edit] = []
    pending: list[str] = []
    for w, i, replaced in work:
        if i < 0:
            pending.append(w)
            continue
        if pending:
            edits.append(Edit(t.starts[i], "", " ".join(pending)))
            pending = []
        if replaced:
            edits.append(Edit(t.starts[i], t.words[i], w))
    if pending:
        edits.append(Edit(t.end, "", " ".join(pending)))
    return tuple(edits)


def _factory(op: str, rate: float) -> WordNoise:
    return WordNoise(op, rate)


@register("perturbation", "words.insert", version=2)
def insert(*, rate: float = 0.2) -> WordNoise:
    """Insert round(rate*n) words: a passage word or a WordNet synonym, 50/50 (RCC §3.3)."""
    return _factory("insert", rate)


@register("perturbation", "words.delete", version=2)
def delete(*, rate: float = 0.2) -> WordNoise:
    """Delete each word with probability rate; at least one word survives (RCC §3.3)."""
    return _factory("delete", rate)


@register("perturbation", "words.replace", version=2)
def replace(*, rate: float = 0.2) -> WordNoise:
    """Overwrite round(rate*n) random positions with a passage word or WordNet synonym (RCC §3.3)."""
    return _factory("replace", rate)

