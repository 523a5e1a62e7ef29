"""Document attacks: determinism, the GenADV/conflict filters, uniform insertion."""

from __future__ import annotations

import collections
import random

import pytest

from rattle.attacks.documents.base import AddedDocument, AttackContext, Dropped, insert
from rattle.attacks.documents.generators import conflict, entity_pools, genadv, random_doc, topk
from rattle.items import Document, Item, Question
from rattle.nlp.spacy_pos import pipeline
from rattle.seeding import rng_for

GOLD = Document("g1", "Wilhelm Röntgen of Germany won the first Nobel Prize in Physics in 1901. "
                "He discovered X-rays in 1895 at the University of Würzburg.", "Nobel Prize",
                has_answer=True)
OTHERS = [
    Document("o1", "Marie Curie of Poland won the Nobel Prize in Chemistry in 1911 in Stockholm."),
    Document("o2", "Albert Einstein of Switzerland worked in Bern in 1905 on relativity."),
    Document("o3", "Niels Bohr of Denmark won a prize in 1922 in Copenhagen."),
    Document("o4", "Max Planck of Austria lectured in Vienna in 1918."),
]
ITEM = Item("q1", (Question("who won the first nobel prize in physics", ("Wilhelm Röntgen",)),),
            documents=(GOLD,))
OTHER = Item("q2", (Question("who discovered radium", ("Marie Curie",)),), documents=tuple(OTHERS))


def ctx(similarity=None) -> AttackContext:  # type: ignore[no-untyped-def]
    nlp = pipeline()
    texts = [d.text for d in (GOLD, *OTHERS)]
    return AttackContext({ITEM.id: (GOLD, OTHERS[0]), OTHER.id: tuple(OTHERS)}, 1, [ITEM, OTHER],
                         similarity=similarity, entity_pools=entity_pools(texts, nlp), nlp=nlp)


def run(attack, item: Item, c: AttackContext, seed: int = 0):  # type: ignore[no-untyped-def]
    flow = attack.flow(item, c, rng_for(seed, item.id, attack.name))
    with pytest.raises(StopIteration) as stop:
        next(flow)
    return stop.value.value


def test_genadv_offline_is_deterministic_and_swaps_entities() -> None:
    c = ctx(lambda a, b: 0.1)
    a, b = run(genadv(), ITEM, c), run(genadv(), ITEM, c)
    assert isinstance(a, AddedDocument) and a == b
    prov = a.provenance
    assert prov["answer_sentence"].startswith("Wilhelm Röntgen of Germany won")
    assert len(prov["substitutions"]) >= 2
    assert "Röntgen" not in a.document.text and prov["adversarial_sentence"] in a.document.text
    assert a.document.has_answer is False


def test_genadv_drops_too_similar_sentences() -> None:
    out = run(genadv(threshold=0.8), ITEM, ctx(lambda a, b: 0.95))
    assert isinstance(out, Dropped) and "too similar" in out.reason
    kept = run(genadv(threshold=0.99), ITEM, ctx(lambda a, b: 0.95))
    assert isinstance(kept, AddedDocument)


def test_genadv_drops_sentences_that_keep_the_answer() -> None:
    c = ctx(lambda a, b: 0.1)
    # A pool whose only PERSON is the answer itself: no substitute avoids the answer.
    c.entity_pools = {**c.entity_pools, "PERSON": ["Wilhelm Röntgen"]}
    out = run(genadv(), ITEM, c)
    assert isinstance(out, Dropped)


def test_conflict_replaces_the_answer_with_a_non_alias() -> None:
    sims = {"Marie Curie": 0.6, "Albert Einstein": 0.7, "Niels Bohr": 0.85, "Max Planck": 0.5}
    c = ctx()
    c.similarity = lambda a, b: sims.get(b, 0.0)
    out = run(conflict(), ITEM, c)
    assert isinstance(out, AddedDocument)
    # The most similar candidate at or below 0.8: Einstein (Bohr at 0.85 counts as an alias).
    assert out.conflict_answers == ("Albert Einstein",)
    assert "Albert Einstein" in out.document.text and "Röntgen" not in out.document.text


def test_random_and_topk() -> None:
    c = ctx()
    r = run(random_doc(), ITEM, c)
    assert isinstance(r, AddedDocument) and r.document in OTHERS
    t = run(topk(), ITEM, c)
    assert isinstance(t, AddedDocument) and t.document == OTHERS[0]
    c.k = 2
    assert isinstance(run(topk(), ITEM, c), Dropped)


def test_insertion_positions_are_uniform() -> None:
    docs = tuple(Document(str(i), "x") for i in range(5))
    added = Document("new", "y")
    counts = collections.Counter(insert(docs, added, rng_for(0, i, "insert"))[1] for i in range(6000))
    assert set(counts) == set(range(6))
    assert all(abs(n / 6000 - 1 / 6) < 0.025 for n in counts.values())
    out, pos = insert(docs, added, random.Random(1))
    assert out[pos] == added and len(out) == 6


def test_genadv_drops_passages_that_still_contain_the_answer() -> None:
    # The answer appears again in the passage in a form spaCy does not tag as the entity.
    gold = Document("g2", "Wilhelm Röntgen of Germany won the Nobel Prize in Physics in 1901. "
                    "Students still read wilhelm röntgen today.", "Physics", has_answer=True)
    item = Item("q3", (Question("who won", ("Wilhelm Röntgen",)),), documents=(gold,))
    c = ctx(lambda a, b: 0.1)
    c.retrieved = {item.id: (gold,), OTHER.id: tuple(OTHERS)}
    c.items = [item, OTHER]
    out = run(genadv(), item, c)
    assert isinstance(out, Dropped) and "passage contains a gold answer" in out.reason
