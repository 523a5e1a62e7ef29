"""The precomputed WordNet synonym table gives exactly what NLTK's reader gives."""

from __future__ import annotations

import random

from rattle.nlp import wordnet
from rattle.nlp.wordnet import SynonymTable, synonym_table, synonyms

# Inflected and irregular forms (morphy's rules and exception lists), multi-word names,
# words with no synonyms, digits, and the RCC quirks ('a' -> 'ampere', 'it' -> 'information
# technology').
FIXED = ["The", "quick", "brown", "foxes", "jumped", "over", "lazy", "dogs", "running", "geese", "better", "saw", "ran", "axes", "was", "is", "a", "it", "in", "1799", "1982", "weren't", "information", "technology", "atomic_number_53", "United_States", "GEORGE", "Washington", "studies", "bigger", "biggest", "ceasing"]


def test_table_equals_nltk_on_sampled_words() -> None:
    table = synonym_table()
    rng = random.Random(0)
    lemmas = table.words[: len(table.ranges)]
    exceptions = sorted({w for forms in table.exceptions.values() for w in forms})
    words = [*FIXED, *rng.sample(lemmas, 600), *rng.sample(exceptions, 200)]
    words += [w + end for w, end in zip(rng.sample(lemmas, 300), ["s", "es", "ed", "ing", "er", "est"] * 50,
                                        strict=True)]
    for word in words:
        assert list(table.synonyms(word)) == wordnet._lookup(word), word


def test_known_synonyms_and_quirks() -> None:
    assert "ampere" in synonyms("a")
    assert "information technology" in synonyms("it")
    assert "domestic dog" in synonyms("dogs")  # the noun rule s -> ""
    assert "see" in synonyms("saw") and "goose" in synonyms("geese")  # exception lists
    assert synonyms("weren't") == [] and synonyms("1982") == []
    assert synonyms("dog") == sorted(synonyms("dog")) and "dog" not in synonyms("dog")


def test_table_is_cached_and_reloads_identically() -> None:
    first = synonym_table()
    synonym_table.cache_clear()
    again = synonym_table()
    assert again is not first and isinstance(again, SynonymTable)
    assert again.words == first.words
    assert again.synonyms("run") == first.synonyms("run")
