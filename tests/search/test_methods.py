"""Search methods on a scripted target whose answer flips only when one word is edited."""

from __future__ import annotations

from pathlib import Path

import pytest

from rattle.attacks.search.text import split_words
from rattle.perturbations.chars import CharNoise
from rattle.seeding import canonical, derive_seed
from tests.search.helpers import attack, choice, mc_item, rules_model, search

PASSAGE = "The old merchant sold fresh bread to hungry sailors near the harbour."
# spaCy's stop words (The, to, the) and the option word "bread" are protected ("near" is not
# on spaCy's list), so exactly these eight words can be edited.
EDITABLE = ("old", "merchant", "sold", "fresh", "hungry", "sailors", "near", "harbour")


@pytest.mark.parametrize("word", EDITABLE)
def test_greedy_finds_the_one_word_within_the_ranking_queries(tmp_path: Path, word: str) -> None:
    result = search(rules_model(tmp_path, word), [choice(mc_item(PASSAGE))], attack(), None)[0]
    # 1 query for the original, 8 leave-one-out deletions to rank the words, then the one
    # chars.delete proposal of the top-ranked word, the only word whose deletion flipped.
    assert result.modifiable == len(EDITABLE)
    assert result.outcome == "success" and result.queries == 1 + 8 + 1
    assert result.found is not None and result.original is not None
    (edit,) = result.found.candidate.edits
    index = [w.text for w in split_words(PASSAGE)].index(word)
    key = derive_seed(0, "chars.delete", canonical({"count": 1, "samples": 1}), index)
    expected, _, _ = CharNoise("delete", 1.0, 1).one(word, derive_seed(key, 0))
    assert edit == (PASSAGE.index(word), word, expected)
    assert result.found.candidate.text == PASSAGE.replace(word, expected, 1)
    assert (result.original.answer.value, result.found.answer.value) == (0, 1)


CHAR_EDITS = "chars.delete,chars.insert,chars.repeat,visual.homoglyph"


def test_greedy_beside_random_at_the_same_budget(tmp_path: Path) -> None:
    """Four distinct edits per word: greedy needs 1 + 8 + 4 queries every time; random best-of-N
    with that budget finds the word only when its draws reach it."""
    budget = 1 + 8 + 4
    greedy, rand = [], []
    for word in EDITABLE:
        model = rules_model(tmp_path, word)
        for seed in range(3):
            task = [choice(mc_item(PASSAGE))]
            g = search(model, task, attack(transformations=CHAR_EDITS, budget=budget), None, key=seed)[0]
            greedy.append((g.outcome, g.queries))
            r = search(model, task, attack(transformations=CHAR_EDITS, budget=budget,
                                           method="random"), None, key=seed)[0]
            rand.append((r.outcome, r.queries))
    assert greedy == [("success", 13)] * 24
    wins = [q for outcome, q in rand if outcome == "success"]
    # Golden under these keys: random meets the goal in 20 of 24 searches at this budget
    # (the success rate random reports beside greedy's 24 of 24), in 5.75 queries on average.
    assert len(wins) == 20 and sum(wins) == 115
    assert all(q == budget for outcome, q in rand if outcome == "failed")


def test_a_successful_deletion_ends_the_search_at_the_ranking(tmp_path: Path) -> None:
    made = attack(transformations="chars.delete,words.delete")
    result = search(rules_model(tmp_path, "sailors"), [choice(mc_item(PASSAGE))], made, None)[0]
    assert result.outcome == "success" and result.queries == 1 + 8
    assert result.found is not None
    assert result.found.candidate.edits == ((PASSAGE.index("sailors"), "sailors ", ""),)


def test_the_budget_stops_the_ranking(tmp_path: Path) -> None:
    result = search(rules_model(tmp_path, "harbour"), [choice(mc_item(PASSAGE))],
                    attack(budget=5), None)[0]
    assert (result.outcome, result.queries, result.reason) == ("failed", 5, "query budget spent")


def test_beam_keeps_the_greedy_order_and_finds_the_word(tmp_path: Path) -> None:
    made = attack(transformations=CHAR_EDITS, method="beam?width=3")
    result = search(rules_model(tmp_path, "fresh"), [choice(mc_item(PASSAGE))], made, None)[0]
    assert (result.outcome, result.queries) == ("success", 13)


def test_two_words_needed_defeat_greedy_but_not_random_pairs(tmp_path: Path) -> None:
    """(A) while either word stays: one edit never moves the answer, so greedy (which keeps
    only improving edits) fails; random tries of two words at a time can succeed."""
    path = tmp_path / "either.json"
    path.write_text('{"\\\\bmerchant\\\\b|\\\\bsailors\\\\b": "(A)"}')
    from rattle.models import load_model

    model = load_model(f"scripted/rules?file={path}&default=(B)")
    task = [choice(mc_item(PASSAGE))]
    g = search(model, task, attack(), None)[0]
    assert g.outcome == "failed" and g.reason == "no candidate left" and g.queries == 1 + 8 + 8
    r = search(model, task, attack(method="random?words=2", budget=50), None)[0]
    assert r.outcome == "success"
    assert r.found is not None
    assert {e.before for e in r.found.candidate.edits} == {"merchant", "sailors"}


def test_max_words_and_protection_skip_what_cannot_be_attacked(tmp_path: Path) -> None:
    model = rules_model(tmp_path, "harbour")
    tight = search(model, [choice(mc_item(PASSAGE))], attack(constraints="max_words?max_share=0.05"), None)[0]
    assert (tight.outcome, tight.reason, tight.queries) == (
        "skipped", "max_words allows no edit in 12 words", 1)
    locked = search(model, [choice(mc_item(PASSAGE))],
                    attack(constraints=f"protected?words={'|'.join(EDITABLE)}"), None)[0]
    assert (locked.outcome, locked.reason) == ("skipped", "no word can be edited under the constraints")


def test_each_search_step_goes_out_as_one_batch(tmp_path: Path) -> None:
    from collections.abc import Sequence

    from rattle.models.base import ChatRequest, Completion
    from rattle.models.scripted import ScriptedModel

    class Batches(ScriptedModel):
        def __init__(self, rules: Path) -> None:
            super().__init__("rules", file=str(rules), default="(B)")
            self.sizes: list[int] = []

        async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
            self.sizes.append(len(requests))
            return await super().generate(requests)

    rules = tmp_path / "r.json"
    rules.write_text('{"\\\\bhungry\\\\b": "(A)"}')
    model = Batches(rules)
    result = search(model, [choice(mc_item(PASSAGE))], attack(transformations=CHAR_EDITS), None)[0]
    # The original, the eight leave-one-out deletions, the four edits of the top word.
    assert model.sizes == [1, 8, 4] and result.queries == 13
