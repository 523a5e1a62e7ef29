"""The registered parts of a search attack: transformations, constraints, goals."""

from __future__ import annotations

import math

import pytest

from rattle import registry
from rattle.attacks.search.analysis import WordInfo, analyse
from rattle.attacks.search.build import make_attack, parse_parts
from rattle.attacks.search.constraints import Context
from rattle.attacks.search.goals import Answer
from rattle.attacks.search.text import Change, Word, build, split_words
from rattle.errors import ConfigError
from rattle.perturbations.chars import CharNoise
from rattle.perturbations.visual import builtin_table
from rattle.seeding import derive_seed


def make(kind: str, spec: str) -> object:
    ((name, options),) = parse_parts(spec)
    return registry.create(kind, name, options)  # type: ignore[arg-type]


# -- transformations -----------------------------------------------------------------------------
def test_character_edits_are_the_char_perturbations_on_one_word() -> None:
    word = Word(0, 8, "merchant")
    for op in ("delete", "insert", "repeat"):
        t = make("transformation", f"chars.{op}?samples=3")
        got = t.candidates(word, WordInfo(), 7)  # type: ignore[attr-defined]
        expected = [CharNoise(op, 1.0, 1).one("merchant", derive_seed(7, j))[0] for j in range(3)]
        assert got == list(dict.fromkeys(expected))
        assert all(len(g) == 8 + {"delete": -1, "insert": 1, "repeat": 1}[op] for g in got)


def test_a_homoglyph_swaps_one_letter_of_a_short_word() -> None:
    t = make("transformation", "visual.homoglyph")
    (new,) = t.candidates(Word(0, 6, "sailor"), WordInfo(), 3)  # type: ignore[attr-defined]
    diff = [(a, b) for a, b in zip("sailor", new, strict=True) if a != b]
    assert len(new) == 6 and len(diff) == 1
    letter, glyph = diff[0]
    assert glyph in builtin_table()[letter][0]


def test_synonyms_follow_the_part_of_speech_and_the_case() -> None:
    t = make("transformation", "words.synonym?max_candidates=20")
    quick = t.candidates(Word(0, 5, "Quick"), WordInfo(pos="ADJ", lemma="quick"), 1)  # type: ignore[attr-defined]
    assert quick == ["Agile", "Fast", "Flying", "Immediate", "Nimble", "Prompt", "Ready",
                     "Speedy", "Spry", "Straightaway", "Warm"]
    sold = t.candidates(Word(0, 4, "sold"), WordInfo(pos="VERB", lemma="sell"), 1)  # type: ignore[attr-defined]
    assert sold == ["betray", "deal", "trade"]  # "sell" is the word's own lemma
    few = make("transformation", "words.synonym?max_candidates=3")
    picked = few.candidates(Word(0, 5, "quick"), WordInfo(pos="ADJ", lemma="quick"), 1)  # type: ignore[attr-defined]
    assert len(picked) == 3 and set(picked) < {q.lower() for q in quick}
    assert make("transformation", "words.delete").candidates(Word(0, 2, "ab"), WordInfo(), 0) == [""]  # type: ignore[attr-defined]


def test_bad_part_options_name_the_valid_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown option 'size'.*count \(int\?\), samples \(int\)"):
        make_attack(method="greedy", goal="flip", budget=5, transformations="chars.delete?size=2",
                    constraints="")
    with pytest.raises(ConfigError, match="unknown search_method 'best'"):
        make_attack(method="best", goal="flip", budget=5, transformations="chars.delete",
                    constraints="")
    with pytest.raises(ConfigError, match="at least 1 query"):
        make_attack(method="greedy", goal="flip", budget=0, transformations="chars.delete",
                    constraints="")


# -- constraints ---------------------------------------------------------------------------------
TEXT = "Alice sold the bread in Paris on Monday."


def context(text: str = TEXT, terms: frozenset[str] = frozenset({"bread"})) -> Context:
    words = split_words(text)
    return Context(text, words, analyse([text], [words])[0], terms)


def test_protected_words() -> None:
    ctx = context()
    allowed = lambda spec: [w.text for i, w in enumerate(ctx.words)  # noqa: E731
                            if make("constraint", spec).word(ctx, i)]  # type: ignore[attr-defined]
    assert allowed("protected") == ["sold"]  # entities, stop words and the answer word protected
    assert allowed("protected?entities=false") == ["Alice", "sold", "Paris", "Monday"]
    assert allowed("protected?answers=false&words=sold") == ["bread"]
    assert allowed("protected?stop_words=false&entities=false&answers=false") == [
        "Alice", "sold", "the", "bread", "in", "Paris", "on", "Monday"]


def test_max_words_share_and_count() -> None:
    ctx = context("one two three four five six seven eight nine ten eleven twelve")
    share = make("constraint", "max_words")
    assert [share.count(ctx, n) for n in (1, 2, 3)] == [True, True, False]  # type: ignore[attr-defined]
    capped = make("constraint", "max_words?max_share=1&max_count=1")
    assert [capped.count(ctx, n) for n in (1, 2)] == [True, False]  # type: ignore[attr-defined]


def test_same_pos_rejects_a_swap_that_changes_the_tag() -> None:
    ctx = context()
    swaps = [build(TEXT, ctx.words, {1: Change(1, after, "words.synonym")}) for after in ("traded", "table")]
    keep = make("constraint", "same_pos").texts(ctx, swaps, [1, 1])  # type: ignore[attr-defined]
    assert keep == [True, False]
    # Edits that are not word swaps are not checked.
    assert make("constraint", "same_pos").texts(ctx, swaps, [None, None]) == [True, True]  # type: ignore[attr-defined]


def test_similarity_is_angular_minilm_with_promptbench_threshold() -> None:
    from rattle.retrieval.dense import EmbeddingSimilarity

    ctx = context()
    near = build(TEXT, ctx.words, {1: Change(1, "traded", "words.synonym")})
    far = build(TEXT, ctx.words, {0: Change(0, "Volcanoes", "x"), 1: Change(1, "erupt", "x"),
                                  3: Change(3, "lava", "x")})
    c = make("constraint", "similarity")
    assert c.options["threshold"] == 0.840845057  # type: ignore[attr-defined]
    cos = EmbeddingSimilarity().many(TEXT, [near.text, far.text])
    got = c.measure(TEXT, [near.text, far.text])  # type: ignore[attr-defined]
    assert got == pytest.approx([1 - math.acos(x) / math.pi for x in cos], abs=1e-9)
    assert c.texts(ctx, [near, far], [None, None]) == [got[0] >= 0.840845057, got[1] >= 0.840845057]  # type: ignore[attr-defined]
    assert got[0] > 0.840845057 > got[1]
    # A typo in a short sentence moves MiniLM a lot: "sld" for "sold" falls below the threshold.
    typo = build(TEXT, ctx.words, {1: Change(1, "sld", "chars.delete")})
    assert c.texts(ctx, [typo], [None]) == [False]  # type: ignore[attr-defined]


# -- goals ---------------------------------------------------------------------------------------
def goal(name: str) -> object:
    return registry.create("goal", name)


def test_flip_wrong_and_verdict_flip() -> None:
    flip, wrong, verdict = goal("flip"), goal("wrong"), goal("verdict_flip")
    a0 = Answer(0, True, "(A)", probs={0: 0.7, 1: 0.3}, gold=0)
    assert flip.judge(a0, Answer(1, False, "(B)")) == (True, 1.0)  # type: ignore[attr-defined]
    assert flip.judge(a0, Answer(0, True, "(A)", probs={0: 0.6, 1: 0.4})) == (False, pytest.approx(0.4))  # type: ignore[attr-defined]
    assert flip.judge(a0, Answer(None, None, "no idea"))[0] is False  # type: ignore[attr-defined]
    assert flip.skip(Answer(None, None)) == "original answer unmeasured"  # type: ignore[attr-defined]
    assert wrong.skip(Answer(2, False)) == "original answer already wrong"  # type: ignore[attr-defined]
    assert wrong.judge(a0, Answer(3, False)) == (True, 1.0)  # type: ignore[attr-defined]
    # Generated replies without probabilities: the reply's character distance.
    assert wrong.judge(Answer("paris", True, "Paris"), Answer("paris", True, "Paris!"))[1] == (
        pytest.approx(1 - 10 / 11))  # type: ignore[attr-defined]
    yes = Answer(True, True, "Yes.", verdict=True)
    assert verdict.judge(yes, Answer(False, False, "No.", verdict=False)) == (True, 1.0)  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match=r"search\.claims"):
        verdict.skip(Answer(0, True))  # type: ignore[attr-defined]


def test_drop_maximises_the_relative_accuracy_drop() -> None:
    drop = goal("drop")
    assert drop.maximize and drop.judge(Answer(0.8, None), Answer(0.6, None)) == (  # type: ignore[attr-defined]
        False, pytest.approx(0.25))
    assert drop.skip(Answer(0.0, None)) == "clean accuracy is 0: nothing to drop"  # type: ignore[attr-defined]
