"""Batched application gives exactly what one item at a time gives."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattle import registry
from rattle.items import Item, Question
from rattle.perturbations import Perturbation, perturb_text, perturb_texts
from rattle.perturbations import chars, words
from rattle.perturbations.chars import CharNoise
from rattle.perturbations.visual import homoglyph
from rattle.perturbations.words import WordNoise

OPS = [(op, rate, count) for op in ("delete", "repeat", "insert") for count in (None, 1, 3)
       for rate in (0.3, 1.0)]
# Alphabets that exercise each array width: bytes, UTF-16 units, UTF-32 (astral, lone surrogates).
ALPHABETS = {
    "ascii": ["a", "bb", "ccc", " ", "  ", "x y", "", "\x00", "\x01"],
    "latin-1": ["a", "bb", "é", "ÿÿ", " ", "\x00"],
    "bmp": ["a", "ｂｂ", "é", "\uffff", " ", "\ue000", "\x00", "～"],
    "astral": ["a", "\U0001F600", "\U0010ffff", " ", "é"],
    "surrogates": ["a", "\ud800", "\udc00", " ", "bb"],
}


def texts_from(alphabet: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(n)]


@pytest.mark.parametrize("alphabet", ALPHABETS)
def test_many_equals_one_on_every_width(alphabet: str) -> None:
    texts = texts_from(ALPHABETS[alphabet], 300, seed=len(alphabet))
    rng = random.Random(0)
    for op, rate, count in OPS:
        noise = CharNoise(op, rate, count)
        keys = [rng.getrandbits(64) for _ in texts]
        assert noise.many(texts, keys) == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.text(max_size=60), max_size=12), key=st.integers(0, 2**64 - 1),
       op=st.sampled_from(OPS))
def test_many_equals_one_on_arbitrary_unicode(texts: list[str], key: int,
                                              op: tuple[str, float, int | None]) -> None:
    noise = CharNoise(*op)
    keys = [(key + i) % 2**64 for i in range(len(texts))]
    assert noise.many(texts, keys) == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


def test_chunking_does_not_change_results(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [*texts_from(ALPHABETS["ascii"], 50, seed=3), "word " * 400]
    keys = list(range(len(texts)))
    noise = CharNoise("delete", 0.5, None)
    whole = noise.many(texts, keys)
    monkeypatch.setattr(chars, "_CHUNK", 7)
    monkeypatch.setattr(chars, "_POOL_CELLS", 64)  # forces halving around the long text
    assert noise.many(texts, keys) == whole == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


def test_wide_symbol_without_a_free_stand_in_byte() -> None:
    """A byte batch holding every control byte widens instead of standing in for '～'."""
    texts = ["".join(map(chr, range(1, 32))) + " " + "abcdef " * 30]
    keys = list(range(40))
    noise = CharNoise("insert", 1.0, 3)
    out = noise.many(texts * 40, keys)
    assert out == [noise.one(texts[0], k) for k in keys]
    assert any("～" in text for text, _, _ in out)


@pytest.mark.parametrize("name", [e.name for e in registry.entries("perturbation")])
def test_apply_many_equals_apply(name: str) -> None:
    perturbation = Perturbation(name, {})
    items = [Item(id=f"i{n}", questions=(Question("Which one is right?"),),
                  passage=f"Passage {n} says the river floods every spring near the old mill.")
             for n in range(12)]
    assert perturbation.apply_many(items, 4) == [perturbation.apply(it, 4) for it in items]


def test_perturb_texts_equals_perturb_text() -> None:
    texts = ["George Washington died in 1799.", "CDs were invented in 1982, not before."]
    for name in ("chars.insert", "chars.repeat", "words.delete", "words.insert", "words.replace",
                 "visual.homoglyph"):
        got = perturb_texts(name, texts, seed=2, rate=0.5)
        assert got == [perturb_text(name, t, seed=2, key=str(i), rate=0.5) for i, t in enumerate(texts)]


# -- word and visual operations: the array path equals the scalar path -------------------------
WORD_ALPHABET = ["a", "bb", "ccc", " ", "  ", "x y", "", ".", "é", "\U0001F600", "dog", "run",
                 "The", "\ud800", "\uffff", "Zz", "\x00", "\ue000"]
SYNONYMS = {"a": ["x", "yy z"], "bb": ["a"], "dog": ["canine", "domestic dog"], "x": ["q"],
            "canine": ["dog", "eyetooth"], "run": ["\x00 go"]}


def table_synonyms(word: str) -> list[str]:
    return SYNONYMS.get(word, [])


@pytest.mark.parametrize("op", ["delete", "insert", "replace"])
@pytest.mark.parametrize("rate", [0.0, 0.2, 0.5, 1.0])
def test_word_many_equals_one(op: str, rate: float) -> None:
    rng = random.Random(rate)
    noise = WordNoise(op, rate, table_synonyms)
    texts = ["".join(rng.choice(WORD_ALPHABET) for _ in range(rng.randint(0, 40)))
             for _ in range(400)]
    keys = [rng.getrandbits(64) for _ in texts]
    assert noise.many(texts, keys) == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.text(max_size=60), max_size=12), key=st.integers(0, 2**64 - 1),
       op=st.sampled_from(["delete", "insert", "replace"]), rate=st.sampled_from([0.3, 1.0]))
def test_word_many_equals_one_on_arbitrary_unicode(texts: list[str], key: int, op: str,
                                                   rate: float) -> None:
    noise = WordNoise(op, rate, lambda w: [w[::-1], "new word"] if len(w) % 2 else [])
    keys = [(key + i) % 2**64 for i in range(len(texts))]
    assert noise.many(texts, keys) == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


def test_word_many_with_wordnet_and_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Real WordNet synonyms, several chunks sharing one vocabulary."""
    texts = [f"The river {n} floods every spring near the old mill, and people run away."
             for n in range(40)]
    keys = list(range(40))
    monkeypatch.setattr(words, "_CHUNK", 7)
    for op in ("insert", "replace"):
        noise = WordNoise(op, 0.4)
        out = noise.many(texts, keys)
        assert out == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]
        assert any(e.after not in texts[i] for i, (_, edits) in enumerate(out) for e in edits)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.text(max_size=60), max_size=12), key=st.integers(0, 2**64 - 1),
       rate=st.sampled_from([0.3, 1.0]), ratio=st.sampled_from([0.1, 0.5, 1.0]))
def test_visual_many_equals_one_on_arbitrary_unicode(texts: list[str], key: int, rate: float,
                                                     ratio: float) -> None:
    noise = homoglyph(rate=rate, ratio=ratio)
    keys = [(key + i) % 2**64 for i in range(len(texts))]
    assert noise.many(texts, keys) == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


@pytest.mark.parametrize("alphabet", ALPHABETS)
def test_visual_many_equals_one_on_every_width(alphabet: str) -> None:
    texts = texts_from([*ALPHABETS[alphabet], "Word", "ab"], 300, seed=len(alphabet))
    rng = random.Random(1)
    for rate, ratio in ((0.3, 0.5), (1.0, 1.0)):
        noise = homoglyph(rate=rate, ratio=ratio)
        keys = [rng.getrandbits(64) for _ in texts]
        assert noise.many(texts, keys) == [noise.one(t, k) for t, k in zip(texts, keys, strict=True)]


def test_apply_many_variants_equal_constructed_ones() -> None:
    """The batch path builds Variants field by field; they equal the constructor's, carry
    their own label dict and share the parameters of equal draws."""
    perturbation = Perturbation("chars.delete", {"rate": 0.5})
    items = [Item(id=f"i{n}", questions=(Question("q"),), passage="alpha beta gamma delta")
             for n in range(30)]
    many = perturbation.apply_many(items, 2)
    assert many == [perturbation.apply(it, 2) for it in items]
    assert many[0].label == {} and many[0].label is not many[1].label
    same = [v for v in many if v.params["count"] == many[0].params["count"]]
    assert len(same) > 1 and all(v.params is same[0].params for v in same)
    assert many[0].provenance["params"] == {"rate": 0.5, "count": many[0].params["count"]}
