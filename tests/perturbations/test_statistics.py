"""Edit statistics follow the parameters over many draws."""

from __future__ import annotations

import math
import statistics

from rattle.items import Item, Question
from rattle.perturbations.base import apply
from rattle.perturbations.chars import COUNT_WEIGHTS, CharNoise
from rattle.perturbations.words import WordNoise

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"]
TEXT = " ".join(WORDS * 3) + "."


def no_syn(word: str) -> list[str]:
    return []


def test_word_delete_keeps_about_one_minus_rate() -> None:
    n = len(TEXT.split())
    for rate in (0.1, 0.5, 0.9):
        noise = WordNoise("delete", rate, no_syn)
        kept = [len(noise.one(TEXT, s)[0].split()) for s in range(400)]
        assert abs(statistics.mean(kept) / n - (1 - rate)) < 0.03


def test_word_insert_and_replace_counts() -> None:
    n = len(TEXT.split())
    out, _ = WordNoise("insert", 0.5, no_syn).one(TEXT, 1)
    assert len(out.split()) == n + round(n * 0.5)
    out, _ = WordNoise("replace", 0.5, no_syn).one(TEXT, 1)
    assert len(out.split()) == n


def test_word_picks_are_uniform() -> None:
    """Insert slots and replaced positions are uniform over the current list (counter draws)."""
    words = [f"w{i}" for i in range(8)]
    text = " ".join(words) + " ."  # the set-aside '.' stands alone
    replaced, slots = [0] * 8, [0] * 9
    for seed in range(4000):
        # No synonyms: each try finds a word with probability 0.5, so about 1 seed in 1,024
        # makes no edit at all.
        for e in WordNoise("replace", 1 / 8, no_syn).one(text, seed)[1]:
            replaced[words.index(e.before)] += 1
        for e in WordNoise("insert", 1 / 8, no_syn).one(text, seed)[1]:
            slots[[3 * i for i in range(9)].index(e.start)] += 1  # word i at 3i; '.' at 24
    assert 3980 <= sum(replaced) < 4000 and 3980 <= sum(slots) < 4000
    assert all(abs(n / sum(replaced) - 1 / 8) < 0.025 for n in replaced)
    assert all(abs(n / sum(slots) - 1 / 9) < 0.025 for n in slots)


def test_new_word_is_a_passage_word_half_the_time() -> None:
    """With every word having one synonym, half the new words come from the passage."""
    text = " ".join(WORDS) + "."
    noise = WordNoise("insert", 0.5, lambda w: [w.upper()])
    new = [w for s in range(300) for e in noise.one(text, s)[1] for w in e.after.split(" ")]
    upper = sum(w.isupper() for w in new)
    assert abs(upper / len(new) - 0.5) < 0.05


def test_chars_touch_ceil_rate_of_eligible_words() -> None:
    text = "a " + " ".join(WORDS)
    eligible = len(WORDS)
    for rate in (0.1, 0.34, 1.0):
        _, edits, _ = CharNoise("repeat", rate, 1).one(text, 3)
        assert len(edits) == math.ceil(eligible * rate)
        assert all(e.before != "a" for e in edits)


def test_drawn_count_follows_table_18() -> None:
    item = Item(id="x", questions=(Question("q"),), passage=TEXT)
    counts = [apply("chars.delete", Item(id=f"x{i}", questions=item.questions, passage=TEXT),
                    seed=0, params={"rate": 0.1}).params["count"] for i in range(3000)]
    for c, w in zip((1, 2, 3), COUNT_WEIGHTS, strict=True):
        assert abs(counts.count(c) / len(counts) - w) < 0.03


def test_delete_removes_exactly_count_characters() -> None:
    for seed in range(50):
        _, edits, _ = CharNoise("delete", 0.5, 2).one(TEXT, seed)
        for e in edits:
            assert len(e.before) - len(e.after) == 2


def test_insert_never_at_first_position() -> None:
    for seed in range(200):
        _, edits, _ = CharNoise("insert", 1.0, 1).one(TEXT, seed)
        for e in edits:
            assert e.after[0] == e.before[0] and len(e.after) == len(e.before) + 1


def test_edit_positions_are_uniform() -> None:
    """Where a repeat or an insertion lands is uniform over its allowed positions."""
    word = "abcdefgh"
    repeated, gaps = [0] * 8, [0] * 9
    for seed in range(4000):
        (e,) = CharNoise("repeat", 1.0, 1).one(word, seed)[1]
        repeated[next(i for i in range(8) if e.after[i] == e.after[i + 1])] += 1
        (e,) = CharNoise("insert", 1.0, 1).one(word, seed)[1]
        gaps[next(i for i in range(9) if e.after[i] != (word + "\0")[i])] += 1
    assert gaps[0] == 0  # never before the first character
    assert all(abs(n / 4000 - 1 / 8) < 0.025 for n in repeated)
    assert all(abs(n / 4000 - 1 / 8) < 0.025 for n in gaps[1:])


def test_chosen_words_are_uniform() -> None:
    """Each eligible word is chosen with probability k/m (partial Fisher-Yates on the keys)."""
    text = " ".join(WORDS[:10])
    hits = [0] * 10
    for seed in range(3000):
        for e in CharNoise("repeat", 0.3, 1).one(text, seed)[1]:
            hits[WORDS.index(e.before)] += 1
    assert all(abs(h / 3000 - 0.3) < 0.04 for h in hits)
