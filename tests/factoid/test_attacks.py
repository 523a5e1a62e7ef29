"""Rule-based claim attacks over every built-in claim: protected names, parts of speech,
question words, corrections, English time phrases, clause attachment; golden outputs under a
seed; validation."""

from __future__ import annotations

import re
from itertools import pairwise
from functools import cache

import pytest

from rattle.attacks.claims.base import ClaimAttack, load_knowledge, validate
from rattle.attacks.claims.generators import ClaimContext, generate
from rattle.attacks.claims.rules.common import NAME_LABELS
from rattle.attacks.documents.base import Dropped
from rattle.datasets import load_dataset
from rattle.errors import ConfigError, DataError
from rattle.items import Item

DUMAS = "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed in 1844."
O2 = ("The O2 Arena, commonly known as The O2, is a multi-purpose indoor arena, and in 2008 it was "
      "the world's busiest music arena.")
TICKET = "A ticket to the show cost $30 in 1999."
SWIFT = ("American singer-songwriter Taylor Swift has headlined six concert tours to support her "
         "various albums.")
CTX = ClaimContext()
ATTACKS = ("temporal", "numerical", "exaggeration", "semantic", "reversal", "distraction",
           "multihop", "question", "cloze")
EDITING = ("temporal", "numerical", "exaggeration", "semantic", "cloze")


def attack(name: str, claim: str, seed: int = 1, **options: object) -> ClaimAttack | Dropped:
    return generate(name, Item(id=claim[:12], questions=(), claim=claim), seed=seed, ctx=CTX, **options)


@cache
def builtin() -> tuple[Item, ...]:
    return tuple(load_dataset("factoid-claims"))


@cache
def outcomes(name: str, seed: int = 0) -> tuple[tuple[Item, ClaimAttack | Dropped], ...]:
    return tuple((i, generate(name, i, seed=seed, ctx=CTX)) for i in builtin())


def made(name: str, seed: int = 0) -> list[tuple[Item, ClaimAttack]]:
    return [(i, o) for i, o in outcomes(name, seed) if isinstance(o, ClaimAttack)]


# -- the built-in set ------------------------------------------------------------------------
def test_builtin_claims_cover_the_domains_and_every_attack_makes_sixty() -> None:
    items = builtin()
    assert len(items) >= 150
    assert {i.meta["domain"] for i in items} == {"literature", "history", "sports", "arts",
                                                 "science", "places", "people", "organisations",
                                                 "numbers"}
    assert all(str(i.meta["source"]).startswith("https://en.wikipedia.org/wiki/") for i in items)
    counts = {name: len(made(name)) for name in ATTACKS}
    assert all(n >= 60 for n in counts.values()), counts


def test_every_builtin_variant_validates() -> None:
    for name in ATTACKS:
        for item, out in made(name):
            assert validate(item.claim or "", out, CTX.parse) is None, (name, item.id)


# -- protected names -------------------------------------------------------------------------
def _names(claim: str) -> list[tuple[int, int, str]]:
    """spaCy's named entities, without a lower-case word it swallowed at the end ("The American
    Civil War ended": the verb is not part of the name)."""
    out = []
    for e in CTX.parse(claim).ents:
        tokens = list(e)
        while tokens and tokens[-1].is_alpha and tokens[-1].text.islower():
            tokens.pop()
        if e.label_ in NAME_LABELS and tokens:
            out.append((tokens[0].idx, tokens[-1].idx + len(tokens[-1].text), e.text))
    return out


@pytest.mark.parametrize("name", EDITING)
def test_no_edit_inside_a_name_the_attack_does_not_target(name: str) -> None:
    """spaCy's named entities are protected; a temporal attack may change the year that opens
    an event's name ("the 2019 League of Legends World Championship"), nothing else."""
    for seed in (0, 1):
        for item, out in made(name, seed):
            claim = item.claim or ""
            a, b = out.start, out.start + len(out.before)
            for x, y, text in _names(claim):
                if not (a < y and x < b):
                    continue
                year_opening_name = (name in ("temporal", "cloze")
                                     and re.fullmatch(r"(?:1\d|20)\d\d", claim[a:b])
                                     and not claim[x:a].strip(" ").lower().removeprefix("the").strip())
                assert year_opening_name, (name, item.id, out.before, text)


@pytest.mark.parametrize("name", ["distraction", "multihop"])
def test_clauses_go_after_whole_names(name: str) -> None:
    for seed in (0, 1):
        for item, out in made(name, seed):
            for x, y, text in _names(item.claim or ""):
                assert not x < out.start < y, (item.id, text, out.after)


@pytest.mark.parametrize("claim, name", [
    ("Apollo 11 landed on the Moon on 20 July 1969.", "Apollo 11"),
    ("Ludwig van Beethoven completed his Ninth Symphony in 1824.", "Ninth Symphony"),
    ("William Shakespeare was born in Stratford-upon-Avon in 1564.", "Stratford-upon-Avon"),
    ("Nineteen Eighty-Four was published in 1949 by George Orwell.", "Nineteen Eighty-Four"),
    ("Pablo Picasso co-founded the Cubist movement with Georges Braque.", "co-founded"),
])
def test_names_and_hyphenated_words_stay_whole(claim: str, name: str) -> None:
    for attack_name in ATTACKS:
        for seed in range(4):
            out = attack(attack_name, claim, seed=seed)
            if isinstance(out, Dropped) or out.declarative is None:
                continue
            assert name in out.declarative, (attack_name, seed, out.declarative)


# -- semantic replacement ---------------------------------------------------------------------
def test_semantic_keeps_the_part_of_speech_and_never_touches_the_subject() -> None:
    checked = 0
    for seed in (0, 1, 2):
        for item, out in made("semantic", seed):
            claim = item.claim or ""
            original = next(t for t in CTX.parse(claim) if t.idx == out.start + out.before.rfind(
                out.details["word"]))
            assert original.pos_ == out.details["pos"]
            assert original.dep_ not in ("nsubj", "nsubjpass")
            assert not any(original.i in range(t.left_edge.i, t.right_edge.i + 1)
                           for t in CTX.parse(claim) if t.dep_ in ("nsubj", "nsubjpass"))
            doc = CTX.parse(out.declarative or "")
            at = out.start + out.after.rfind(out.details["replacement"])
            new = next(t for t in doc if t.idx == at)
            if original.pos_ == "VERB":
                assert new.pos_ in ("VERB", "AUX") and new.tag_ == original.tag_, (item.id, new.text)
            else:
                assert new.pos_ == original.pos_ or new.tag_[:2] == original.tag_[:2], (item.id, new.text, new.tag_)
            checked += 1
    assert checked >= 150


def test_semantic_labels_follow_the_relation() -> None:
    for item, out in made("semantic"):
        assert out.claim_true is (out.details["relation"] == "synonym"), item.id
        assert (out.correction == "") is out.claim_true


# -- reversal ------------------------------------------------------------------------------------
# Built-in claims whose subject is a person (checked by hand).
PEOPLE = {"lit-06", "his-05", "spo-02", "spo-05", "spo-06", "art-03", "art-04", "art-05",
          "art-09", "sci-01", "sci-02", "sci-05", "sci-07", "lit-08", "lit-12", "lit-13",
          "lit-14", "lit-16", "lit-17", "lit-18", "lit-21", "his-10", "his-11", "his-14",
          "his-17", "his-20", "spo-09", "spo-11", "spo-12", "spo-14", "spo-17", "spo-19",
          "spo-21", "spo-22", "art-10", "art-11", "art-12", "art-15", "art-17", "art-20",
          "art-22", "art-23", "sci-08", "sci-10", "sci-13", "sci-14", "sci-15", "sci-16",
          "sci-18", "sci-20", "peo-01", "peo-02", "peo-03", "peo-04", "peo-05", "peo-06",
          "peo-07", "peo-08", "peo-09", "peo-10", "peo-11", "peo-12", "peo-13", "peo-14",
          "peo-15", "peo-16", "his-24", "art-24"}
THINGS = {"his-01", "his-02", "pla-10", "pla-15", "sci-11", "org-05", "num-03", "pla-18",
          "art-16", "lit-11", "lit-05", "sci-19", "num-14"}


def test_reversal_asks_who_for_people_and_answers_with_the_whole_subject() -> None:
    who = set()
    for item, out in made("reversal"):
        claim = item.claim or ""
        head = next((t for t in CTX.parse(claim) if t.dep_ in ("nsubj", "nsubjpass")), None)
        if item.id in PEOPLE and head is not None and head.ent_type_ == "PERSON":
            assert out.question.startswith("Who "), (item.id, out.question)  # a PERSON answer
        if item.id in PEOPLE and out.question.startswith("Who "):
            who.add(item.id)
        if item.id in THINGS:
            assert not out.question.startswith("Who "), (item.id, out.question)
        subject = out.details["subject"]
        assert claim.startswith(subject) or f" {subject}" in claim
        assert subject in out.answers
        end = claim.find(subject) + len(subject)
        assert end == len(claim) or not (claim[end].isalnum() or claim[end] == "-"), subject
        assert subject not in out.question  # the question asks for it
    asked = PEOPLE & {item.id for item, _ in made("reversal")}
    assert len(who) >= 0.9 * len(asked) and len(asked) >= 40  # also where spaCy missed the name


def test_reversal_examples() -> None:
    picasso = attack("reversal", "Pablo Picasso co-founded the Cubist movement with Georges Braque.")
    assert isinstance(picasso, ClaimAttack)
    assert picasso.question == "Who co-founded the Cubist movement with Georges Braque?"
    assert picasso.answers[0] == "Pablo Picasso"
    gatsby = attack("reversal", "The Great Gatsby, a novel by F. Scott Fitzgerald, was published in 1925.")
    assert isinstance(gatsby, ClaimAttack)
    assert gatsby.question == "Which novel by F. Scott Fitzgerald was published in 1925?"
    plural = attack("reversal", "The Wimbledon Championships are played on grass courts in London.")
    assert isinstance(plural, ClaimAttack)
    assert plural.question == "What is played on grass courts in London?"


# -- corrections and labels -----------------------------------------------------------------------
def test_every_correction_is_one_sentence_with_a_full_stop() -> None:
    checked = 0
    for name in ATTACKS:
        for seed in (0, 1):
            for item, out in made(name, seed):
                if out.claim_true is False:
                    assert out.correction, (name, item.id)
                if not out.correction:
                    continue
                assert out.correction.endswith(".") and out.correction[0].isupper()
                assert sum(1 for _ in CTX.parse(out.correction).sents) == 1, (name, out.correction)
                checked += 1
    assert checked > 500


# -- temporal -----------------------------------------------------------------------------------------
def test_time_phrases_are_written_as_english_writes_them() -> None:
    for seed in range(3):
        for item, out in made("temporal", seed):
            text = out.declarative or ""
            for decade in re.findall(r"\b(\d{3,4})s\b", text):
                assert decade.endswith("0") and not decade.endswith("00"), (item.id, text)
            assert not re.search(r"\b\d{1,2}(?:st|nd|rd|th) century\b", text) or re.search(
                r"\bthe (?:(?:early|late) |mid-)?\d{1,2}(?:st|nd|rd|th) century\b", text), text
            assert not re.search(r"\b(?:2[2-9]|[3-9]\d)(?:st|nd|rd|th)[ -]century", text), text
    assert attack("temporal", "The style peaked in the early 1900s.", kind="direct").declarative \
        in ("The style peaked in the early 1880s.", "The style peaked in the early 1890s.",
            "The style peaked in the early 1910s.", "The style peaked in the early 1920s.")


def test_temporal_relative_labels_are_computed() -> None:
    from rattle.attacks.claims.rules import REFERENCE_EVENTS

    for seed in range(30):
        out = attack("temporal", DUMAS, seed=seed, kind="relative")
        assert isinstance(out, ClaimAttack)
        rel, _, name = out.after.partition(" ")
        if out.after.startswith("in the same year as"):
            continue
        first, last = next((e[1], e[2]) for e in REFERENCE_EVENTS if e[0] == name)
        assert out.claim_true is (first > 1844 if rel == "before" else last < 1844)


# -- exaggeration ----------------------------------------------------------------------------------
def test_exaggerated_numbers_grow_by_one_and_a_half_to_three() -> None:
    from rattle.attacks.claims.rules.numerical import WORD_NUMBERS

    def value(text: str) -> float:
        word = text.lower()
        return float(WORD_NUMBERS[word]) if word in WORD_NUMBERS else float(text.strip("$£€").replace(",", ""))

    numbers = [(item, out) for item, out in made("exaggeration") if out.details["kind"] == "number"]
    assert numbers
    for item, out in numbers:
        ratio = value(out.after) / value(out.before)
        assert 1.3 <= ratio <= 3.0, (item.id, out.before, out.after)
        assert out.claim_true is False


def test_exaggeration_examples() -> None:
    assert attack("exaggeration", "Ada Lovelace is often regarded as the first computer programmer.").declarative \
        == "Ada Lovelace is universally regarded as the first computer programmer."  # not "always"
    assert attack("exaggeration", "The Dead Sea is one of the saltiest bodies of water in the world.").declarative \
        == "The Dead Sea is the saltiest body of water in the world."
    assert attack("exaggeration", "Valentina Tereshkova was the first woman to travel into space.").declarative \
        == "Valentina Tereshkova was the only woman to travel into space."
    # not with a date after it: "the only woman to win a Nobel Prize in 1903" also reads true
    assert isinstance(attack("exaggeration", "Marie Curie became the first woman to win a Nobel Prize in 1903."), Dropped)
    assert isinstance(attack("exaggeration", "Apollo 11 landed on the Moon on 20 July 1969."), Dropped)


# -- multihop and distraction -------------------------------------------------------------------
def test_multihop_clauses_follow_the_entity_they_describe() -> None:
    knowledge = load_knowledge()
    for seed in (0, 1):
        for item, out in made("multihop", seed):
            claim = item.claim or ""
            text = out.declarative or ""
            chain = out.details["chain"]
            assert len(chain) == len(set(chain)) >= 2
            assert text[:out.start].endswith(claim[:out.start])
            # the first clause follows the anchor's phrase; each next one starts right after
            # the previous clause, which ends with the entity it describes
            assert out.details["anchor"] in claim[:out.start]
            for prev, nxt in pairwise(chain):
                assert f"{nxt}, " in out.after, (item.id, prev, nxt)
            named_before = {n for _, n in knowledge.mentions(claim)}
            assert not (set(chain[1:]) & named_before), (item.id, chain)


def test_multihop_settings() -> None:
    mhoe = attack("multihop", DUMAS, hops=3, errors="first", exact=True)
    ohoe = attack("multihop", DUMAS, hops=3, errors="each", exact=True)
    assert isinstance(mhoe, ClaimAttack) and isinstance(ohoe, ClaimAttack)
    assert mhoe.details["error_hops"] == [1] and ohoe.details["error_hops"] == [1, 2, 3]
    assert "born in 1822" in mhoe.after and "22 metropolitan regions" not in mhoe.after
    assert "born in 1822" in ohoe.after and "22 metropolitan regions" in ohoe.after
    assert mhoe.correction == ("The Count of Monte Cristo is an adventure novel by French author "
                               "Alexandre Dumas, who was born in 1802 in Villers-Cotterêts, a town in "
                               "the Aisne department of northern France, a country that is divided "
                               "into 13 metropolitan regions, completed in 1844.")
    assert isinstance(attack("multihop", TICKET, hops=2, exact=True), Dropped)
    assert attack("multihop", DUMAS, hops=2, errors="none").claim_true is True  # type: ignore[union-attr]


def test_great_fire_of_london_gets_no_clause_about_london() -> None:
    claim = "The Great Fire of London destroyed much of the medieval city in 1666."
    for name in ("distraction", "multihop"):
        for seed in range(6):
            out = attack(name, claim, seed=seed)
            if isinstance(out, ClaimAttack):
                assert not (out.declarative or "").startswith("The Great Fire of London, "), out.after


def test_distraction_components() -> None:
    """Each component attaches the clause right after that part of the sentence."""
    expected = {"subject": "The Count of Monte Cristo",
                "object": "an adventure novel by French author Alexandre Dumas",
                "subject_appositive": "American singer-songwriter", "people": "Alexandre Dumas",
                "time": "1844"}
    for component, anchor in expected.items():
        claim = SWIFT if component == "subject_appositive" else DUMAS
        out = attack("distraction", claim, component=component, fabricated=True)
        assert isinstance(out, ClaimAttack), (component, out)
        assert out.details["anchor"] == anchor
        assert out.claim_true is False and out.details["fabricated"]
        text = out.declarative or ""
        assert f"{anchor}, {out.after}" in text
        assert claim in {text.replace(f", {out.after},", "", 1), text.replace(f", {out.after}", "", 1)}


# -- golden outputs under a seed ---------------------------------------------------------------------
# (attack, claim, options, the declarative or the question at seed 1, its truth label)
GOLDEN: list[tuple[str, str, dict[str, object], str, bool | None]] = [
    ('temporal', DUMAS, {'kind': 'direct'},
     'The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed in 1854.', False),
    ('temporal', DUMAS, {'kind': 'vague'},
     'The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed in the 1840s.', True),
    ('temporal', DUMAS, {'kind': 'relative'},
     'The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed after the American Civil War.', False),
    ('temporal', 'The Second World War lasted from 1939 to 1945.', {},
     'The Second World War lasted from 1937 to 1943.', False),
    ('temporal', 'Pyotr Ilyich Tchaikovsky composed the music for the ballet Swan Lake in the 1870s.', {},
     'Pyotr Ilyich Tchaikovsky composed the music for the ballet Swan Lake before the Wall Street Crash.', True),
    ('numerical', 'Serena Williams won 23 Grand Slam singles titles.', {},
     'Serena Williams won under 30 Grand Slam singles titles.', True),
    ('exaggeration', SWIFT, {},
     'American singer-songwriter Taylor Swift has headlined six concert tours to support her countless albums.', False),
    ('exaggeration', DUMAS, {},
     'The Count of Monte Cristo is the only adventure novel by French author Alexandre Dumas, completed in 1844.', False),
    ('exaggeration', 'Serena Williams won 23 Grand Slam singles titles.', {},
     'Serena Williams won 46 Grand Slam singles titles.', False),
    ('semantic', O2, {},
     "The O2 Arena, commonly known as The O2, is a multi-purpose outdoor arena, and in 2008 it was the world's busiest music arena.", False),
    ('semantic', 'Lightning often strikes the Empire State Building.', {},
     'Lightning rarely strikes the Empire State Building.', False),
    ('semantic', 'Microsoft was founded by Bill Gates and Paul Allen in 1975.', {},
     'Microsoft was established by Bill Gates and Paul Allen in 1975.', True),
    ('reversal', 'Serena Williams won 23 Grand Slam singles titles.', {},
     'Who won 23 Grand Slam singles titles?', None),
    ('reversal', 'The Wimbledon Championships are played on grass courts in London.', {},
     'What is played on grass courts in London?', None),
    ('distraction', DUMAS, {},
     'The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, who was born in 1802 in Villers-Cotterêts, completed in 1844.', True),
    ('distraction', 'Marie Antoinette was executed by guillotine in 1793.', {},
     'Marie Antoinette was executed by guillotine in 1793, the same year as the Battle of Trafalgar.', False),
    ('multihop', DUMAS, {'hops': 3},
     'The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, who was born in 1802 in Villers-Cotterêts, a town in the Aisne department of northern France, a country that is divided into 22 metropolitan regions, completed in 1844.', False),
    ('multihop', 'Tiger Woods won the Masters Tournament for the first time in 1997.', {},
     'Tiger Woods, who was born in 1975 in Cypress, California, a state whose capital is Los Angeles, won the Masters Tournament for the first time in 1997.', False),
    ('question', 'The Panama Canal opened in 1914.', {},
     'Did the Panama Canal open in 1914?', True),
    ('cloze', 'Serena Williams won 23 Grand Slam singles titles.', {},
     'What should replace <how many> in this sentence: "Serena Williams won <how many> Grand Slam singles titles."?', None),
]


@pytest.mark.parametrize(("name", "claim", "options", "expected", "truth"), GOLDEN,
                         ids=[f"{g[0]}-{i}" for i, g in enumerate(GOLDEN)])
def test_golden(name: str, claim: str, options: dict[str, object], expected: str,
                truth: bool | None) -> None:
    out = attack(name, claim, **options)
    assert isinstance(out, ClaimAttack), out
    assert (out.declarative or out.question) == expected
    assert out.claim_true is truth
    assert out == attack(name, claim, **options)  # deterministic


def test_question_forms() -> None:
    assert attack("question", SWIFT).question == ("Has American singer-songwriter Taylor Swift headlined "
                                                  "six concert tours to support her various albums?")
    assert attack("question", TICKET).question == "Did a ticket to the show cost $30 in 1999?"
    assert attack("question", DUMAS).question.startswith("Is the Count of Monte Cristo an adventure novel")


def test_cloze_blanks_the_number() -> None:
    out = attack("cloze", TICKET)
    assert isinstance(out, ClaimAttack)
    assert out.question == 'What should replace <how many> in this sentence: "A ticket to the show cost <how many> in 1999."?'
    assert "$30" in out.answers and "30" in out.answers
    year = attack("cloze", DUMAS)
    assert isinstance(year, ClaimAttack)
    assert "<which year>" in year.question and year.answers == ("1844",)
    assert isinstance(attack("cloze", "Apollo 11 landed on the Moon."), Dropped)


def test_numerical_labels_follow_the_value() -> None:
    """Paper §2.1: '$30' -> 'over $20' keeps the claim true, 'over $40' makes it false."""
    keep = attack("numerical", TICKET, seed=0, comparator="over", truth=True)
    assert isinstance(keep, ClaimAttack)
    assert keep.declarative == "A ticket to the show cost over $20 in 1999."
    assert (keep.before, keep.after, keep.claim_true) == ("$30", "over $20", True)
    broken = attack("numerical", TICKET, seed=0, comparator="over", truth=False)
    assert isinstance(broken, ClaimAttack)
    assert broken.declarative == "A ticket to the show cost over $40 in 1999."
    assert broken.claim_true is False and broken.correction == TICKET
    for seed in range(40):  # whatever is drawn, the label is the truth of what was written
        out = attack("numerical", TICKET, seed=seed)
        assert isinstance(out, ClaimAttack)
        bounds = out.details["bounds"]
        holds = {"over": bounds[0] < 30, "under": bounds[0] > 30,
                 "between": bounds[0] <= 30 <= bounds[-1]}[out.details["comparator"]]
        assert out.claim_true is holds


def test_bad_options_and_knowledge_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="kind must be one of"):
        attack("temporal", DUMAS, kind="weird")
    with pytest.raises(ConfigError, match=r"claims\.semantic: bad parameters"):
        attack("semantic", DUMAS, colour="red")
    bad = tmp_path / "kb.jsonl"
    bad.write_text('{"entity": "X", "true": "t", "false": "f"}\n{"entity": "Y", "true": ""}\n')
    with pytest.raises(DataError, match=r"kb.jsonl:2.*'true'"):
        load_knowledge(bad)
    bad.write_text('{"entity": "X", "true": "t", "false": "f", "context": "ship"}\n')
    with pytest.raises(DataError, match=r"kb.jsonl:1.*context must be a list"):
        load_knowledge(bad)
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"claim": "Paris is in France."}\n{"sentence": ""}\n')
    with pytest.raises(DataError, match=r"claims.jsonl:2.*missing or empty claim"):
        load_dataset(str(claims))


def test_knowledge_context_picks_the_referent() -> None:
    """The Titanic facts are about the ship: never attached to the film."""
    film = "Titanic, directed by James Cameron, won 11 Academy Awards in 1998."
    for seed in range(6):
        out = attack("distraction", film, seed=seed)
        if isinstance(out, ClaimAttack):
            assert "liner" not in out.after


@pytest.mark.parametrize("name", ATTACKS)
def test_never_raises_on_arbitrary_text(name: str) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=st.text(min_size=1, max_size=120) | st.sampled_from(
        [DUMAS, O2, TICKET, SWIFT, "In 1999 $30 .", "1,000,000 people, 12 cats and 2024."]))
    def check(text: str) -> None:
        out = attack(name, text)
        if isinstance(out, ClaimAttack):
            assert validate(text, out, CTX.parse) is None

    check()
