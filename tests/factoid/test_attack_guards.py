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


def test_distraction_gives_an_approximate_year_no_twin() -> None:
    """'around 1440, the same year as ...': an approximate year is not the same as any."""
    for out in every_seed("distraction", "The abbey library was founded in Lyon around 1440.",
                          component="time", fabricated=True):
        assert isinstance(out, Dropped), out
    out = attack("distraction", "The abbey library was founded in Lyon in 1440.", component="time",
                 fabricated=True)
    assert isinstance(out, ClaimAttack) and out.after.startswith("the same year as ")


def test_distraction_gives_a_range_no_twin() -> None:
    for out in every_seed("distraction", "The Model T was produced by the Ford Motor Company from 1908 to 1927.",
                          component="time", fabricated=True):
        assert isinstance(out, Dropped), out


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


# -- numbers the sentence fixes (numerical manipulation and exaggeration) ------------------------
@pytest.mark.parametrize(("claim", "number", "reason", "in_scope_only"), [
    ("The cathedral has the three tallest spires in the region.", "three",
     "a number after a definite article", False),
    ("He was the only climber to reach the summit in three attempts.", "three",
     "a number inside a uniqueness claim", True),
    ("The expedition found two new species, a frog and a lizard.", "two",
     "the count of a list the sentence gives", False),
    ("Dickens published the novel as twenty monthly instalments.", "twenty",
     "a count of periodic things", False),
    ("Florence Griffith Joyner set the women's 100 metres world record of 10.49 seconds at the 1988 "
     "trials in Indianapolis.", "100", "a distance that names an event", False),
    ("The bowler rolled a perfect game of 300 in the final.", "300", "a number an adjective fixes", False),
    ("The Seven Sisters, a group of seven chalk cliffs, face the English Channel.", "seven",
     "a number a name of the sentence also holds", False),
    ("The speed of sound in dry air at 20 degrees Celsius is about 343 metres per second.", "20",
     "a condition of the subject", False),
])
def test_numbers_the_sentence_fixes(claim: str, number: str, reason: str, in_scope_only: bool) -> None:
    from rattle.attacks.claims.rules.numerical import fixed, numbers

    doc = CTX.parse(claim)
    (n,) = [n for n in numbers(claim, doc) if n.text == number]
    assert fixed(claim, doc, n) == reason
    assert fixed(claim, doc, n, scope=False) == (None if in_scope_only else reason)
    for out in every_seed("numerical", claim):  # no other number, no year: nothing to write
        assert isinstance(out, Dropped), out


def test_numbers_the_sentence_leaves_free() -> None:
    from rattle.attacks.claims.rules.numerical import fixed, numbers

    claim = "The ship carried 300 tonnes of grain to Lisbon."
    doc = CTX.parse(claim)
    assert [fixed(claim, doc, n) for n in numbers(claim, doc)] == [None]
    assert {o.declarative for o in every_seed("numerical", claim, comparator="over", truth=False)
            if isinstance(o, ClaimAttack)} == {"The ship carried over 400 tonnes of grain to Lisbon."}


def test_a_bound_keeps_its_distance_from_the_value() -> None:
    """'over 1,000 megawatts' for 1,000 would be false only to a pedant: every bound is at least
    MARGIN (10%) away from the value."""
    claim = "The reactor produced 1,000 megawatts of electricity in 1970."
    written = {(comp, truth): attack("numerical", claim, comparator=comp, truth=truth)
               for comp in ("over", "under", "between") for truth in (True, False)}
    assert {k: o.after for k, o in written.items() if isinstance(o, ClaimAttack)} == {
        ("over", True): "over 700", ("over", False): "over 1,300", ("under", True): "under 1,300",
        ("under", False): "under 700", ("between", True): "between 800 and 1,200",
        ("between", False): "between 1,300 and 1,600"}


def test_a_catalogue_number_is_part_of_a_name() -> None:
    from rattle.attacks.claims.rules.numerical import numbers

    claim = "Ludwig van Beethoven's Symphony No. 5 was first performed in Vienna in December 1808."
    assert numbers(claim, CTX.parse(claim)) == []
    out = attack("numerical", claim)  # the year is what is left
    assert isinstance(out, ClaimAttack) and out.before == "in December 1808" and "No. 5" in (out.declarative or "")


def test_a_day_of_a_month_is_not_a_quantity() -> None:
    from rattle.attacks.claims.rules.numerical import numbers

    assert [n.text for n in numbers("The reformed calendar added 30 leap days in 1712.",
                                    CTX.parse("The reformed calendar added 30 leap days in 1712."))] == ["30"]
    claim = "The reformed calendar added 30 February as a leap day in 1712."
    assert numbers(claim, CTX.parse(claim)) == []


def test_numerical_writes_a_year_as_before_or_after_a_round_year() -> None:
    """Not 'in the decade after 1870' (1874 is in it or not, as the reader counts): the round
    years on either side, labelled by the year."""
    claim = "The old bridge was opened to traffic in 1874."
    seen = {}
    for seed in range(12):
        out = attack("numerical", claim, seed=seed)
        assert isinstance(out, ClaimAttack)
        seen[out.after] = out.claim_true
    assert seen == {"before 1880": True, "after 1870": True, "before 1870": False, "after 1880": False}
    # one of two years: not "published in two parts, after 1600 and 1615"
    for out in every_seed("numerical", "The atlas was published in two volumes, in 1570 and 1584."):
        assert isinstance(out, Dropped), out
    # a state has no single date: "after 2000 it was the busiest" reads as "from 2000 on"
    for out in every_seed("numerical", "In 2008 the harbour was the busiest port in the region."):
        assert isinstance(out, Dropped), out
    # "was held in 1898" is an event (organised), not a state
    held = attack("numerical", "The first motor show was held in Paris in 1898.")
    assert isinstance(held, ClaimAttack) and held.after in ("before 1900", "after 1890", "before 1890", "after 1900")


def test_exaggeration_inflates_no_listed_or_named_count() -> None:
    for claim in ("Lyell described two new species, a frog and a lizard.",
                  "Darwin and Wallace, the two naturalists of the voyage, described new species."):
        for out in every_seed("exaggeration", claim):
            assert isinstance(out, Dropped), out
    assert {o.declarative for o in every_seed("exaggeration", "Lyell described two new species in the valley.")
            if isinstance(o, ClaimAttack)} == {"Lyell described four new species in the valley.",
                                               "Lyell described three new species in the valley."}


def test_exaggeration_makes_only_a_first_that_starts_a_record() -> None:
    """'the first geologist to map the valley' -> 'the only one' is a record a reader could
    check; 'his first voyage' -> 'his only voyage' and 'the first era of ...' -> 'the only
    era' contradict what a series is."""
    out = attack("exaggeration", "Lyell was the first geologist to map the valley.")
    assert isinstance(out, ClaimAttack) and out.declarative == "Lyell was the only geologist to map the valley."
    for claim in ("Lyell made his first voyage to America in 1841.",
                  "The Tudor period was the first era of English colonial expansion."):
        for out in every_seed("exaggeration", claim):
            assert isinstance(out, Dropped), out


# -- temporal modification -------------------------------------------------------------------------
def test_temporal_leaves_approximate_dates() -> None:
    """'dated to around 1480' -> 'around 1485' is within the date's own fuzz: not clearly false."""
    out = attack("temporal", "The altarpiece is dated to around 1480.")
    assert isinstance(out, Dropped) and "approximate" in out.reason
    for seed in range(10):
        out = attack("temporal", "The altarpiece is dated to around 1480 and was moved to the chapel in 1512.",
                     seed=seed)
        assert isinstance(out, ClaimAttack) and out.start > 40 and "1480" in (out.declarative or ""), out


def test_a_false_decade_is_the_nearer_neighbour() -> None:
    """1893 -> 'the 1880s', never 'the 1870s' or 'the 1910s'; 1897's nearer neighbour is 'the
    1900s', which also means the century: no false decade for it."""
    seen = {}
    for seed in range(30):
        out = attack("temporal", "The observatory was founded in 1893.", seed=seed, kind="vague")
        assert isinstance(out, ClaimAttack)
        seen[out.after] = out.claim_true
    assert {k: v for k, v in seen.items() if k.endswith("0s")} == {"in the 1880s": False, "in the 1890s": True}
    decades = set()
    for seed in range(30):
        out = attack("temporal", "The observatory was founded in 1897.", seed=seed, kind="vague")
        if isinstance(out, ClaimAttack) and out.after.endswith("0s"):
            decades.add((out.after, out.claim_true))
    assert decades == {("in the 1890s", True)}


# -- facts reversal ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("claim", "reason"), [
    ("Rachel Carson's Silent Spring, published in 1962, prompted a ban on DDT the following year.",
     "a time told relative to the part of the sentence the question drops"),
    ("Richard Feynman worked at Los Alamos during the Second World War.",
     "a verb many subjects share: the question has many answers"),
    ("The metric system was adopted by France in 1795.",
     "a verb many subjects share: the question has many answers"),
    ("Galileo Galilei used a telescope to observe the moons of Jupiter.",
     "a verb many subjects share: the question has many answers"),
    ("Pink Floyd's eighth album, The Dark Side of the Moon, released in March 1973, spent 937 weeks "
     "on the Billboard chart.", "more than the verb's auxiliaries between the subject and the verb"),
    ("The Atacama is one of the driest places on Earth.", "'one of' the many: the question has many answers"),
])
def test_reversal_asks_only_questions_with_one_answer(claim: str, reason: str) -> None:
    for out in every_seed("reversal", claim, seeds=2):
        assert isinstance(out, Dropped) and out.reason.startswith(reason), out


def test_reversal_still_asks_what_singles_out_its_answer() -> None:
    for claim, question in [
        # a fronted phrase without a comma stays out of the answer ("In 1928 Alexander Fleming")
        ("In 1831 Michael Faraday discovered electromagnetic induction in his London laboratory.",
         "Who discovered electromagnetic induction in his London laboratory, in 1831?"),
        # an adjective WordNet also has as a noun ("modern": a contemporary person) is no kind
        ("The first modern Olympic Games were held in Athens in 1896 and featured 241 athletes from 14 nations.",
         "What was held in Athens in 1896 and featured 241 athletes from 14 nations?"),
        ("Galileo Galilei first used a telescope to observe the moons of Jupiter.",
         "Who first used a telescope to observe the moons of Jupiter?"),  # "first" singles it out
        ("Gustave Eiffel designed the Garabit viaduct in 1880.", "Who designed the Garabit viaduct in 1880?"),
        ("The Atacama is the driest desert on Earth.", "What is the driest desert on Earth?"),
    ]:
        out = attack("reversal", claim)
        assert isinstance(out, ClaimAttack) and out.question == question, out


# -- question form -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("claim", "question"), [
    # two verbs sharing the subject: do-support puts both in the base form
    ("The river rises in the Alps and flows into the Adriatic Sea.",
     "Does the river rise in the Alps and flow into the Adriatic Sea?"),
    # an inverted auxiliary cannot carry the second verb
    ("The company was founded in 1901 and became the largest brewer in the country.",
     "Is it true that the company was founded in 1901 and became the largest brewer in the country?"),
    # the parser takes the participle for the main verb: no "Did the Battle ..., fight ..., ended"
    ("The Battle of Bosworth Field, fought in 1485 in Leicestershire, ended the Wars of the Roses.",
     "Is it true that the Battle of Bosworth Field, fought in 1485 in Leicestershire, ended the Wars of the Roses?"),
    # a second verb with its own auxiliary, a finite verb joined to an infinitive
    ("The Statue of Liberty was dedicated on 28 October 1886 and was designed by the French sculptor "
     "Frédéric Auguste Bartholdi.", "Is it true that the Statue of Liberty was dedicated on 28 October 1886 "
     "and was designed by the French sculptor Frédéric Auguste Bartholdi?"),
    ("Marie Curie was the first woman to win a Nobel Prize and remains the only person to win Nobel "
     "Prizes in two different sciences.", "Is it true that Marie Curie was the first woman to win a Nobel "
     "Prize and remains the only person to win Nobel Prizes in two different sciences?"),
    # a title keeps its capital; a bare mass noun does not
    ("Woman with a Parasol is a painting by Claude Monet from 1875.",
     "Is Woman with a Parasol a painting by Claude Monet from 1875?"),
    ("Lightning often strikes tall buildings.", "Does lightning often strike tall buildings?"),
])
def test_question_forms_of_passive_and_two_verb_sentences(claim: str, question: str) -> None:
    out = attack("question", claim)
    assert isinstance(out, ClaimAttack) and out.question == question


# -- multihop extension -----------------------------------------------------------------------------
def test_multihop_changes_no_world_record_every_reader_knows() -> None:
    """A false hop 'Russia, the second-largest country in the world' is not believed; a chain
    takes another fact about the entity or none."""
    import random

    from rattle.attacks.claims.base import Fact, Knowledge
    from rattle.attacks.claims.rules import multihop

    claim = "The Kizhi churches were built in Karelia in 1714."
    doc = CTX.parse(claim)
    facts = [Fact("Karelia", "LOC", "a region of north-western Russia", "a region of southern Russia", "Russia"),
             Fact("Russia", "GPE", "the largest country in the world by area",
                  "the second-largest country in the world by area")]
    assert isinstance(multihop(claim, doc, random.Random(0), Knowledge(facts), hops=2), Dropped)
    capital = Fact("Russia", "GPE", "a country whose capital is Moscow",
                   "a country whose capital is Saint Petersburg")
    out = multihop(claim, doc, random.Random(0), Knowledge([*facts, capital]), hops=2)
    assert isinstance(out, ClaimAttack)
    assert out.after == "a region of north-western Russia, a country whose capital is Saint Petersburg"
