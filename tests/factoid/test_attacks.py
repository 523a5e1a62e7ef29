"""Rule-based claim attacks: golden outputs under a seed, consistent labels, validation."""

from __future__ import annotations

import pytest

from rattle.attacks.claims.base import load_knowledge, validate
from rattle.attacks.claims.generators import ClaimContext, generate
from rattle.attacks.claims.rules import sentence_count
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


def attack(name: str, claim: str, seed: int = 1, **options: object):  # type: ignore[no-untyped-def]
    return generate(name, Item(id=claim[:12], questions=(), claim=claim), seed=seed, ctx=CTX, **options)


GOLDEN = [
    ("temporal", DUMAS, {"kind": "direct"},
     "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed in 1843.", False),
    ("temporal", DUMAS, {"kind": "vague"},
     "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed in the 1840s.", True),
    ("temporal", DUMAS, {"kind": "relative"},
     "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, completed after "
     "the Wright brothers' first flight.", False),
    ("temporal", TICKET, {"kind": "relative"},
     "A ticket to the show cost $30 before the Second World War.", False),
    ("exaggeration", SWIFT, {},
     "American singer-songwriter Taylor Swift has headlined six concert tours to support her countless albums.", False),
    ("exaggeration", DUMAS, {},
     "The Count of Monte Cristo is the only adventure novel by French author Alexandre Dumas, completed in 1844.", False),
    ("semantic", O2, {},
     "The O2 Arena, commonly known as The O2, is a multi-purpose outdoor arena, and in 2008 it was the "
     "world's busiest music arena.", False),
    ("distraction", DUMAS, {},
     "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, who was born in "
     "1802 in Villers-Cotterêts, completed in 1844.", True),
    ("multihop", DUMAS, {"hops": 3},
     "The Count of Monte Cristo is an adventure novel by French author Alexandre Dumas, who was born in "
     "1802 in Villers-Cotterêts, a town in the Aisne department of northern France, a country whose "
     "capital is Lyon, completed in 1844.", False),
]


@pytest.mark.parametrize(("name", "claim", "options", "expected", "truth"), GOLDEN,
                         ids=[f"{g[0]}-{i}" for i, g in enumerate(GOLDEN)])
def test_golden_declaratives(name: str, claim: str, options: dict[str, object], expected: str,
                             truth: bool) -> None:
    out = attack(name, claim, **options)
    assert not isinstance(out, Dropped), out
    assert out.declarative == expected
    assert out.claim_true is truth
    assert out.question.endswith("?")
    assert out == attack(name, claim, **options)  # deterministic


def test_question_forms() -> None:
    assert attack("question", SWIFT).question == ("Has American singer-songwriter Taylor Swift headlined "
                                                  "six concert tours to support her various albums?")
    assert attack("question", TICKET).question == "Did a ticket to the show cost $30 in 1999?"
    assert attack("question", DUMAS).question.startswith("Is the Count of Monte Cristo an adventure novel")


def test_reversal_asks_for_the_subject() -> None:
    out = attack("reversal", SWIFT)
    assert out.question == "Who has headlined six concert tours to support her various albums?"
    assert out.declarative is None and out.claim_true is None
    assert "Taylor Swift" in out.answers


def test_cloze_blanks_the_number() -> None:
    out = attack("cloze", TICKET)
    assert out.question == 'What should replace <how many> in this sentence: "A ticket to the show cost <how many> in 1999."?'
    assert "$30" in out.answers and "30" in out.answers
    year = attack("cloze", DUMAS)
    assert "<which year>" in year.question and year.answers == ("1844",)


def test_numerical_labels_follow_the_value() -> None:
    """Paper §2.1: '$30' -> 'over $20' keeps the claim true, 'over $40' makes it false."""
    keep = attack("numerical", TICKET, seed=0, comparator="over", truth=True)
    assert keep.declarative == "A ticket to the show cost over $20 in 1999."
    assert (keep.before, keep.after, keep.claim_true) == ("$30", "over $20", True)
    broken = attack("numerical", TICKET, seed=0, comparator="over", truth=False)
    assert broken.declarative == "A ticket to the show cost over $40 in 1999."
    assert broken.claim_true is False and broken.correction == "the number is $30"
    for seed in range(40):  # whatever is drawn, the label is the truth of what was written
        out = attack("numerical", TICKET, seed=seed)
        bounds = out.details["bounds"]
        holds = {"over": bounds[0] < 30, "under": bounds[0] > 30,
                 "between": bounds[0] <= 30 <= bounds[-1]}[out.details["comparator"]]
        assert out.claim_true is holds


def test_temporal_relative_labels_are_computed() -> None:
    for seed in range(30):
        out = attack("temporal", DUMAS, seed=seed, kind="relative")
        assert not isinstance(out, Dropped)
        from rattle.attacks.claims.rules import REFERENCE_EVENTS

        rel, _, name = out.after.partition(" ")
        if out.after.startswith("in the same year as"):
            continue
        first, last = next((e[1], e[2]) for e in REFERENCE_EVENTS if e[0] == name)
        assert out.claim_true is (first > 1844 if rel == "before" else last < 1844)


def test_semantic_never_edits_the_subject() -> None:
    nlp = CTX.pipeline()
    for item in load_dataset("factoid-claims"):
        doc = nlp(item.claim)
        subject = set()
        for t in doc:
            if t.dep_ in ("nsubj", "nsubjpass"):
                subject.update(range(t.left_edge.idx, t.right_edge.idx + len(t.right_edge.text)))
        for seed in range(3):
            out = attack("semantic", item.claim or "", seed=seed)
            if isinstance(out, Dropped):
                continue
            assert out.start not in subject, (item.claim, out.before)
            assert item.claim[out.start:out.start + len(out.before)] == out.before


def test_every_builtin_attack_validates_and_most_claims_get_each_attack() -> None:
    items = load_dataset("factoid-claims")
    assert len(items) >= 40
    domains = {i.meta["domain"] for i in items}
    assert domains == {"literature", "history", "sports", "arts", "science", "places"}
    made = {}
    for name in ("temporal", "numerical", "exaggeration", "semantic", "reversal", "distraction",
                 "multihop", "cloze", "question"):
        outs = [attack(name, i.claim or "", seed=0) for i in items]
        good = [o for o in outs if not isinstance(o, Dropped)]
        for i, o in zip(items, outs, strict=True):
            if not isinstance(o, Dropped):
                assert validate(i.claim or "", o, lambda t: sentence_count(CTX.parse(t)) <= 1) is None
        made[name] = len(good)
    # Not every sentence has a time, a number or a quantifier (the paper applied five to seven
    # of the seven attacks per sentence).
    floor = {"exaggeration": 10, "semantic": 20, "multihop": 30}
    assert all(n >= floor.get(name, 30) for name, n in made.items()), made


def test_multihop_settings() -> None:
    mhoe = attack("multihop", DUMAS, hops=4, errors="first", exact=True)
    ohoe = attack("multihop", DUMAS, hops=4, errors="each", exact=True)
    assert mhoe.details["error_hops"] == [1] and ohoe.details["error_hops"] == [1, 2, 3, 4]
    assert "born in 1822" in mhoe.after and "capital is Paris" in mhoe.after
    assert "born in 1822" in ohoe.after and "capital is Lyon" in ohoe.after
    assert isinstance(attack("multihop", TICKET, hops=2, exact=True), Dropped)
    clean = attack("multihop", DUMAS, hops=2, errors="none")
    assert clean.claim_true is True


def test_distraction_components() -> None:
    """Each component attaches the clause right after that part of the sentence."""
    expected = {"subject": "The Count of Monte Cristo",
                "object": "an adventure novel by French author Alexandre Dumas",
                "subject_appositive": "American singer-songwriter", "people": "Alexandre Dumas",
                "time": "1844"}
    for component, anchor in expected.items():
        claim = SWIFT if component == "subject_appositive" else DUMAS
        out = attack("distraction", claim, component=component, fabricated=True)
        assert not isinstance(out, Dropped), (component, out)
        assert out.details["anchor"] == anchor
        assert out.claim_true is False and out.details["fabricated"]
        assert f"{anchor}, {out.after}" in (out.declarative or "")
        removed = {out.declarative.replace(f", {out.after},", "", 1),  # mid-sentence
                   out.declarative.replace(f", {out.after}", "", 1)}  # before punctuation
        assert claim in removed  # taking the clause out gives the claim back


def test_bad_options_and_knowledge_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ConfigError, match="kind must be one of"):
        attack("temporal", DUMAS, kind="weird")
    with pytest.raises(ConfigError, match=r"claims\.semantic: bad parameters"):
        attack("semantic", DUMAS, colour="red")
    bad = tmp_path / "kb.jsonl"
    bad.write_text('{"entity": "X", "true": "t", "false": "f"}\n{"entity": "Y", "true": ""}\n')
    with pytest.raises(DataError, match=r"kb.jsonl:2.*'true'"):
        load_knowledge(bad)
    claims = tmp_path / "claims.jsonl"
    claims.write_text('{"claim": "Paris is in France."}\n{"sentence": ""}\n')
    with pytest.raises(DataError, match=r"claims.jsonl:2.*missing or empty claim"):
        load_dataset(str(claims))
    claims.write_text('{"claim": "Paris is in France."}\n{"sentence": ""}\n{"claim": "Rome is in Italy."}\n'
                      '{"id": "claims-1", "claim": "A duplicate id."}\n')
    skipped: list[str] = []
    items = load_dataset(str(claims), skip_invalid=True, skipped=skipped)
    assert [(i.id, i.claim) for i in items] == [("claims-1", "Paris is in France."),
                                                ("claims-3", "Rome is in Italy.")]
    assert len(skipped) == 2 and "claims.jsonl:2" in skipped[0] and "duplicate id" in skipped[1]


@pytest.mark.parametrize("name", ["temporal", "numerical", "exaggeration", "semantic", "reversal",
                                  "distraction", "multihop", "cloze", "question"])
def test_never_raises_on_arbitrary_text(name: str) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=st.text(min_size=1, max_size=120) | st.sampled_from(
        [DUMAS, O2, TICKET, SWIFT, "In 1999 $30 .", "1,000,000 people, 12 cats and 2024."]))
    def check(text: str) -> None:
        out = attack(name, text)
        if not isinstance(out, Dropped):
            assert validate(text, out, lambda t: True) is None

    check()
