"""Visual noise (RCC §3.3): replace a share of a word's letters by look-alike characters.

Each chosen word (``ceil(rate * eligible)`` of the words, as for chars) gets
``ceil(len(word) * ratio)`` of its positions replaced; letters a–z/A–Z are replaced by one of
the top-20 homoglyphs of that letter, drawn with probability proportional to similarity
(the RCC attacker's VIPER-style sampling, reference-implementations.md §2.5); other characters
stay. Deliberate fix: no '.' is appended to the result (an RCC bug).

The homoglyph table is built from installable sources, not copied: Unicode's own data
(``unicodedata``: a letter with diacritics, similarity 0.9 for one mark and 0.1 less per extra
mark; a compatibility variant such as full-width or mathematical letters, 0.5) plus, when the
``confusable-homoglyphs`` package is installed, the Unicode confusables that map to the letter
(similarity 1.0, e.g. Cyrillic а for a). A VIPER-style JSON map
(``{letter: {"char": [...], "similarity": [...]}}``) can be given with ``table=<path>`` instead.

Randomness is counter-based (``rattle.seeding.splitmix64``): the words are picked by a partial
Fisher-Yates shuffle on draws 1..k of the item's key (as for chars); chosen word i has its own
key, draw ``SUBKEY + i``, whose draws 1..n pick its positions and whose draw ``SUBKEY + p``
picks the glyph at position p (inverse of the cumulative similarities). ``Homoglyphs.many``
computes a batch with arrays (each letter's glyphs and weights a row of a table indexed by
code point) and gives exactly what ``Homoglyphs.one`` gives (tested).
"""

from __future__ import annotations

import bisect
import importlib.util
import json
import math
import string
import sys
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Any

from rattle.errors import ConfigError, DataError
from rattle.items import Edit
from rattle.perturbations.base import TextNoise, check_rate, paused_gc
from rattle.perturbations.words import draws, uniform
from rattle.registry import register
from rattle.seeding import splitmix64

TOP_K = 20  # RCC attacker: top-20 homoglyphs per letter, similarity-weighted
# A chosen word's draws come from its own key, word SUBKEY + (its index) of the item's key (far
# past the word-choosing draws 1..k); a position's glyph is word SUBKEY + (position) of that.
SUBKEY = 1 << 40
_CHUNK = 512  # texts per batch step
COMPAT_SIMILARITY = 0.5  # full-width / mathematical letters: same letter, visibly styled
Table = dict[str, tuple[tuple[str, ...], tuple[float, ...]]]


def _confusables() -> dict[str, set[str]]:
    """Letter -> confusable characters, from confusable-homoglyphs' shipped table (if installed)."""
    spec = importlib.util.find_spec("confusable_homoglyphs")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / "confusables.json"
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    for glyph, entries in data.items():
        for entry in entries:
            target = entry.get("c", "")
            if len(target) == 1 and target in string.ascii_letters and len(glyph) == 1:
                out.setdefault(target, set()).add(glyph)
            if len(glyph) == 1 and glyph in string.ascii_letters and len(target) == 1:
                out.setdefault(glyph, set()).add(target)
    return out


@lru_cache(maxsize=1)
def builtin_table() -> Table:
    scores: dict[str, dict[str, float]] = {c: {} for c in string.ascii_letters}
    for cp in range(0xA0, 0x1FBFF):
        ch = chr(cp)
        if unicodedata.category(ch) not in ("Ll", "Lu", "Lo", "Lm", "So"):
            continue
        nfd = unicodedata.normalize("NFD", ch)
        base = nfd[0]
        if base in scores and len(nfd) > 1 and all(unicodedata.combining(m) for m in nfd[1:]):
            scores[base][ch] = max(scores[base].get(ch, 0), round(0.9 - 0.1 * (len(nfd) - 2), 2))
            continue
        nfkd = unicodedata.normalize("NFKD", ch)
        if len(nfkd) == 1 and nfkd in scores:
            scores[nfkd][ch] = max(scores[nfkd].get(ch, 0), COMPAT_SIMILARITY)
    for letter, glyphs in _confusables().items():
        for g in glyphs:
            # Compatibility forms (mathematical, full-width) stay at their lower score: they
            # look styled, not identical, and would otherwise crowd out Cyrillic/Greek twins.
            if g != letter and g not in string.ascii_letters and (
                unicodedata.normalize("NFKD", g) != letter
            ):
                scores[letter][g] = 1.0
    table: Table = {}
    for letter, cands in scores.items():
        cands.pop(letter.swapcase(), None)
        ranked = sorted(cands.items(), key=lambda kv: (-kv[1], ord(kv[0])))[:TOP_K]
        table[letter] = (tuple(c for c, _ in ranked), tuple(s for _, s in ranked))
    return table


@lru_cache(maxsize=8)
def load_table(path: str) -> Table:
    try:
        raw: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read homoglyph table: {exc}", path=path) from None
    table: Table = {}
    for letter, entry in raw.items():
        if not isinstance(entry, dict) or "char" not in entry or "similarity" not in entry:
            raise DataError("each letter needs 'char' and 'similarity'", path=path, field=letter)
        pairs = sorted(zip(entry["char"], entry["similarity"], strict=False),
                       key=lambda p: -float(p[1]))[:TOP_K]
        if any(not isinstance(c, str) or len(c) != 1 for c, _ in pairs):
            raise DataError("every 'char' entry must be one character", path=path, field=letter)
        table[letter] = (tuple(str(c) for c, _ in pairs), tuple(float(s) for _, s in pairs))
    return table


class GlyphTable:
    """Each letter's homoglyphs with cumulative similarity weights, as lists (one text) and as
    arrays indexed by the letter's rank (a batch)."""

    def __init__(self, table: Table) -> None:
        import numpy as np

        rows = sorted((k, v) for k, v in table.items() if len(k) == 1 and v[0])
        self.chars = {k: v[0] for k, v in rows}
        self.cum = {k: list(accumulate(v[1])) for k, v in rows}
        width = max((len(v[0]) for _, v in rows), default=1)
        self.letters = np.array([ord(k) for k, _ in rows], np.int64)
        self.cum_arr = np.full((len(rows), width), np.inf)
        self.glyph_arr = np.zeros((len(rows), width), np.int64)
        self.size = np.array([len(v[0]) for _, v in rows], np.int64)
        for r, (k, (chars, _)) in enumerate(rows):
            self.cum_arr[r, : len(chars)] = self.cum[k]
            self.glyph_arr[r, : len(chars)] = [ord(c) for c in chars]
        self.total = np.array([self.cum[k][-1] for k, _ in rows], np.float64)

    def one(self, ch: str, u: float) -> str:
        """The homoglyph of ``ch`` for the uniform draw ``u`` (``ch`` when it has none)."""
        cum = self.cum.get(ch)
        if not cum:
            return ch
        return self.chars[ch][min(bisect.bisect_right(cum, u * cum[-1]), len(cum) - 1)]


class Homoglyphs(TextNoise):
    """The homoglyph attack with its rates, applied to one text or a batch."""

    drawn_param: str | None = None  # many() draws nothing per text (base.apply_many)

    def __init__(self, rate: float, ratio: float, table: GlyphTable) -> None:
        self.rate, self.ratio, self.table = rate, ratio, table

    def one(self, text: str, key: int) -> tuple[str, tuple[Edit, ...]]:
        words = text.split(" ")
        eligible = [i for i, w in enumerate(words) if len(w) > 1]
        m = len(eligible)
        k = math.ceil(m * self.rate)
        if k == 0:
            return text, ()
        chosen = sorted(_pick(eligible, k, draws(key, 1, k)))
        starts = list(accumulate(map(len, words), initial=0))
        subs = [splitmix64(key, SUBKEY + i) for i in chosen]
        edits = []
        for i, sub in zip(chosen, subs, strict=True):
            word = words[i]
            n = min(len(word), math.ceil(len(word) * self.ratio))
            chars = list(word)
            glyph_draws = draws(sub, SUBKEY, len(word))
            for p in _pick(list(range(len(word))), n, draws(sub, 1, n)):
                chars[p] = self.table.one(chars[p], uniform(glyph_draws[p]))
            new = "".join(chars)
            if new != word:
                words[i] = new
                edits.append(Edit(starts[i] + i, word, new))
        return " ".join(words), tuple(edits)

    def many(self, texts: Sequence[str], keys: Sequence[int]) -> list[tuple[str, tuple[Edit, ...]]]:
        """``[self.one(t, k) for t, k in zip(texts, keys)]``, a chunk at a time with arrays."""
        from rattle.perturbations.visual_batch import chunk

        out: list[tuple[str, tuple[Edit, ...]]] = []
        with paused_gc():
            for start in range(0, len(texts), _CHUNK):
                out += chunk(self, texts[start: start + _CHUNK], keys[start: start + _CHUNK])
        return out


def _pick(pool: list[int], k: int, stream: list[int]) -> list[int]:
    """``k`` entries of ``pool`` by a partial Fisher-Yates shuffle; ``stream`` holds draws
    1..k of the key."""
    m = len(pool)
    for j in range(k):
        r = j + (((stream[j] >> 32) * (m - j)) >> 32)
        pool[j], pool[r] = pool[r], pool[j]
    return pool[:k]


@register("perturbation", "visual.homoglyph", version=2)
def homoglyph(*, ratio: float = 0.5, rate: float = 0.5, table: str | None = None) -> Homoglyphs:
    """Replace ceil(ratio*len) letters of each chosen word by similarity-weighted homoglyphs."""
    check_rate("visual.homoglyph", rate)
    if not 0.0 < ratio <= 1.0:
        raise ConfigError(f"visual.homoglyph: ratio must be in (0, 1], got {ratio}")
    return Homoglyphs(rate, ratio, glyph_table(table))


@lru_cache(maxsize=8)
def glyph_table(path: str | None) -> GlyphTable:
    return GlyphTable(load_table(path) if path else builtin_table())


if __name__ == "__main__":  # pragma: no cover - inspect the built table
    for letter, (chars, sims) in builtin_table().items():
        sys.stdout.write(f"{letter}: {' '.join(chars)} {sims[:3]}\n")
