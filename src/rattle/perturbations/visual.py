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
"""

from __future__ import annotations

import bisect
import importlib.util
import json
import math
import random
import string
import sys
import unicodedata
from functools import lru_cache
from collections.abc import Callable
from itertools import accumulate, compress
from pathlib import Path
from typing import Any

from rattle.errors import ConfigError, DataError
from rattle.items import Edit
from rattle.perturbations.base import Perturber, check_rate, on_text
from rattle.registry import register

TOP_K = 20  # RCC attacker: top-20 homoglyphs per letter, similarity-weighted
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
        table[letter] = (tuple(str(c) for c, _ in pairs), tuple(float(s) for _, s in pairs))
    return table


def eligible_words(words: list[str]) -> list[int]:
    """Indices of words longer than one character (RCC attacker)."""
    return list(compress(range(len(words)), map((1).__lt__, map(len, words))))


def choose(pool: list[int], k: int, rnd: Callable[[], float]) -> list[int]:
    """``k`` distinct entries of ``pool`` (partial Fisher-Yates), in ascending order."""
    pool = list(pool)
    m = len(pool)
    for j in range(k):
        r = j + int(rnd() * (m - j))
        pool[j], pool[r] = pool[r], pool[j]
    return sorted(pool[:k])


class _Sampler:
    def __init__(self, table: Table) -> None:
        self.chars = {k: v[0] for k, v in table.items() if v[0]}
        self.cum = {k: list(accumulate(v[1])) for k, v in table.items() if v[0]}

    def __call__(self, ch: str, rng: random.Random) -> str:
        cum = self.cum.get(ch)
        if not cum:
            return ch
        x = rng.random() * cum[-1]
        return self.chars[ch][min(bisect.bisect_right(cum, x), len(cum) - 1)]


def homoglyph_noise(text: str, rate: float, ratio: float, rng: random.Random,
                    sampler: _Sampler) -> tuple[str, tuple[Edit, ...]]:
    words = text.split(" ")
    eligible = eligible_words(words)
    k = math.ceil(len(eligible) * rate)
    if k == 0:
        return text, ()
    rnd = rng.random
    chosen = choose(eligible, k, rnd)
    cum = list(accumulate(map(len, words), initial=0))
    edits = []
    for i in chosen:
        word = words[i]
        n = min(len(word), math.ceil(len(word) * ratio))
        chars = list(word)
        for p in choose(list(range(len(word))), n, rnd):
            chars[p] = sampler(chars[p], rng)
        new = "".join(chars)
        if new != word:
            words[i] = new
            edits.append(Edit(cum[i] + i, word, new))
    return " ".join(words), tuple(edits)


@register("perturbation", "visual.homoglyph")
def homoglyph(*, ratio: float = 0.5, rate: float = 0.5, table: str | None = None) -> Perturber:
    """Replace ceil(ratio*len) letters of each chosen word by similarity-weighted homoglyphs."""
    check_rate("visual.homoglyph", rate)
    if not 0.0 < ratio <= 1.0:
        raise ConfigError(f"visual.homoglyph: ratio must be in (0, 1], got {ratio}")
    sampler = _Sampler(load_table(table) if table else builtin_table())

    def run(text: str, rng: random.Random) -> tuple[str, tuple[Edit, ...], dict[str, Any]]:
        new, edits = homoglyph_noise(text, rate, ratio, rng, sampler)
        return new, edits, {}

    return on_text(run)


if __name__ == "__main__":  # pragma: no cover - inspect the built table
    for letter, (chars, sims) in builtin_table().items():
        sys.stdout.write(f"{letter}: {' '.join(chars)} {sims[:3]}\n")
