"""What the rule-based claim attacks no longer write (round 3, docs/claims.md): each family of
invalid held-back variants has a guard, shown here on sentences written for these tests (none
from the labelled files), next to the variant the rule still writes where the guard does not
apply."""

from __future__ import annotations

import pytest

from rattle.attacks.claims.base import ClaimAttack
from rattle.attacks.claims.generators import ClaimContext, generate
from rattle.attacks.documents.base import Dropped
from rattle.items import Item

CTX = ClaimContext()


def attack(name: str, claim: str, seed: int = 0, **options: object) -> ClaimAttack | Dropped:
    return generate(name, Item(id=claim[:12], questions=(), claim=claim), seed=seed, ctx=CTX, **options)


def every_seed(name: str, claim: str, seeds: int = 6, **options: object) -> list[ClaimAttack | Dropped]:
    return [attack(name, claim, seed=s, **options) for s in range(seeds)]


# -- semantic replacement ----------------------------------------------------------------------
@pytest.mark.parametrize("claim", [
    "The ruins lie beside a single stone tower.",  # single -> double: nonsense
    "The monks kept two different calendars.",  # different -> same: ungrammatical
    "The station was powered by a nuclear reactor.",  # nuclear -> conventional: contradicts "reactor"
    "The price of the ticket decreased from 40 to 25 dollars.",  # the numbers fix the direction
    "The siege of the city ended with a truce in 1453.",  # a truce does not begin a siege
    "The Treaty of Kiel ended the war between Denmark and Sweden.",  # nor a treaty a war
])
def test_semantic_writes_no_antonym_the_sentence_contradicts(claim: str) -> None:
    for out in every_seed("semantic", claim, relation="antonym"):
        assert isinstance(out, Dropped), out


def test_semantic_still_flips_gradable_words_and_free_directions() -> None:
    assert {o.declarative for o in every_seed("semantic", "The village lies in a deep valley.",
                                              relation="antonym")
            if isinstance(o, ClaimAttack)} == {"The village lies in a shallow valley."}
    out = attack("semantic", "The price of the ticket decreased after the war.", relation="antonym")
    assert isinstance(out, ClaimAttack)
    assert (out.declarative, out.claim_true) == ("The price of the ticket increased after the war.", False)
    out = attack("semantic", "The siege ended in the spring of 1453.", relation="antonym")
    assert isinstance(out, ClaimAttack) and out.declarative == "The siege began in the spring of 1453."


def test_semantic_leaves_participles_used_as_adjectives() -> None:
    """'a leading chemist' -> 'a heading chemist' is no synonym; 'lead' has none now."""
    for claim in ("She later became a leading chemist.", "Gandhi led the march to the sea."):
        for out in every_seed("semantic", claim, relation="synonym"):
            assert isinstance(out, Dropped), out


# -- distraction injection ---------------------------------------------------------------------
def test_distraction_writes_no_clause_nobody_can_check() -> None:
    """Before round 3 a person got "who was a keen collector of antique clocks" and a city "which
    hosts an annual festival of vintage bicycles": true or false, nobody can say."""
    for out in every_seed("distraction", "Ernest Rutherford split the atom while working in Manchester."):
        assert isinstance(out, Dropped), out
    # a year still takes a clause a reader can check: the event's year is known
    lyon = every_seed("distraction", "The first neon lamp was shown to the public in Lyon in 1910.")
    assert {o.after for o in lyon if isinstance(o, ClaimAttack)} == {
        "the same year as the Wright brothers' first flight", "the same year as the sinking of the Titanic",
        "the same year as the Wall Street Crash"}
    assert all(isinstance(o, ClaimAttack) and o.claim_true is False for o in lyon)


def test_distraction_puts_no_person_clause_on_a_quantity() -> None:
    """spaCy labels "kelvin" a PERSON here; the component analysis no longer believes it."""
    claim = "Helium boils at 4 kelvin under normal pressure."
    assert [e.label_ for e in CTX.parse(claim).ents if e.text == "kelvin"] == ["PERSON"]
    for out in every_seed("distraction", claim, component="people", fabricated=True):
        assert isinstance(out, Dropped), out
    person = attack("distraction", "Ernest Rutherford split the atom while working in Manchester.",
                    component="people", fabricated=True)
    assert isinstance(person, ClaimAttack) and person.details["anchor"] == "Ernest Rutherford"


def test_distraction_skips_a_false_fact_that_contradicts_the_name() -> None:
    import random

    from rattle.attacks.claims.base import Fact, Knowledge
    from rattle.attacks.claims.rules import distraction

    claim = "Lake Victoria is the largest lake in Africa."
    doc = CTX.parse(claim)
    named = Knowledge([Fact("Lake Victoria", "LOC", "which was named after Queen Victoria",
                            "which was named after Queen Adelaide")])
    assert isinstance(distraction(claim, doc, random.Random(0), named, fabricated=False), Dropped)
    placed = Knowledge([Fact("Lake Victoria", "LOC", "which lies on the equator",
                             "which lies on the Tropic of Cancer")])
    out = distraction(claim, doc, random.Random(0), placed, fabricated=False)
    assert isinstance(out, ClaimAttack)
    assert out.declarative == "Lake Victoria, which lies on the equator, is the largest lake in Africa."
