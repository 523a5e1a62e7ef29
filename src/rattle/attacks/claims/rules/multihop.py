"""Multihop extension (paper §2.1): the sentence is extended hop by hop along related facts of
the knowledge corpus, each hop a clause about the entity the previous one named, with errors in
chosen hops.

Each clause attaches to the entity it describes (``attach.py``): the first to an entity of the
sentence that heads its own phrase, each next one right after the next entity's name, which
ends the previous clause. A hop whose clause would restate an entity the sentence already names is not
taken, and a chain only goes on from a false hop whose false version still names the next
entity (so a clause never lands on the wrong noun). The correction is the sentence with every
hop true.
"""

from __future__ import annotations

import random
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Fact, Knowledge, Outcome
from rattle.attacks.claims.rules.attach import Attachment, attachment, restates
from rattle.attacks.claims.rules.common import as_sentence, insert_clause
from rattle.attacks.claims.rules.distraction import believable_false, usable_facts
from rattle.attacks.documents.base import Dropped


def _names_at_end(clause: str, name: str) -> bool:
    return clause.rstrip(" .").endswith(name)


def _link(previous: Fact) -> bool:
    """Whether the next hop can follow both versions of ``previous``: they must end with the
    next entity's name, so its clause lands right after it (a clause nested inside another
    read as a different sentence in the development labels)."""
    name = previous.next or ""
    return _names_at_end(previous.true, name) and _names_at_end(previous.false, name)


def chain(knowledge: Knowledge, name: str, at: Attachment, claim: str, hops: int,
          rng: random.Random) -> list[Fact]:
    """Up to ``hops`` facts from ``name`` along next-links; every clause fits where it goes and
    restates nothing the sentence (or an earlier hop) names; no entity twice."""
    facts: list[Fact] = []
    text = claim
    seen = {name}
    current: str | None = name
    while current is not None and len(facts) < hops:
        options = usable_facts(knowledge, current, at, text) if not facts else [
            f for f in knowledge.by_entity.get(current, ())
            if f.fits(claim) and _link(facts[-1]) and not restates(f.true, text, current)
            and not restates(f.false, text, current) and believable_false(f, current)]
        if not options:
            break
        going_on = [f for f in options if f.next and f.next not in seen and f.next not in claim
                    and f.next in knowledge.by_entity]
        fact = rng.choice(going_on if going_on and len(facts) + 1 < hops else options)
        facts.append(fact)
        text += " " + fact.true + " " + fact.false
        current = fact.next if fact.next and fact.next not in seen and fact.next not in claim else None
        if current:
            seen.add(current)
    return facts


def _compose(facts: list[Fact], wrong: set[int]) -> str:
    """The clauses of the chain, each after the previous one (which ends with its entity)."""
    return ", ".join(f.false if i in wrong else f.true for i, f in enumerate(facts, 1))


def _wrong_hops(errors: str, hops: int) -> set[int] | str:
    if errors == "last":
        return {hops}
    if errors == "first":
        return {1}
    if errors == "each":
        return set(range(1, hops + 1))
    if errors == "none":
        return set()
    try:
        wrong = {int(x) for x in errors.split(",") if x.strip()}
    except ValueError:
        return f"bad errors {errors!r}"
    if not wrong <= set(range(1, hops + 1)):
        return f"error hops {sorted(wrong)} outside 1..{hops}"
    return wrong


# Without ``exact``, a chain needs this many hops: one hop is a distraction, not an extension.
MIN_HOPS = 2


def multihop(claim: str, doc: Any, rng: random.Random, knowledge: Knowledge, *, hops: int = 3,
             errors: str = "last", exact: bool = False) -> Outcome:
    """Extend the sentence hop by hop along related facts from the knowledge corpus, with errors
    in chosen hops: ``last`` (default), ``first`` with more true hops after it (MHOE, §3.4),
    ``each`` hop wrong (OHOE), ``none``, or hop numbers such as ``1,3``."""
    if hops < 1:
        return Dropped("multihop", "hops must be at least 1")
    chains = []
    for offset, name in knowledge.mentions(claim):
        at = attachment(claim, doc, offset, offset + len(name))
        if at is None:
            continue
        facts = chain(knowledge, name, at, claim, hops, rng)
        if facts:
            chains.append((at, name, facts))
    longest = max((len(c[2]) for c in chains), default=0)
    # exact: only chains of ``hops`` (the hop curves); else the longest available, up to hops
    chains = [c for c in chains if len(c[2]) == (hops if exact else longest)
              and (exact or len(c[2]) >= min(MIN_HOPS, hops))]
    if not chains:
        return Dropped("multihop", f"no knowledge chain of {hops} hops from an entity of the claim"
                       if exact else f"no knowledge chain of {min(MIN_HOPS, hops)} or more hops "
                       "from an entity of the claim")
    at, name, facts = rng.choice(chains)
    wrong = _wrong_hops(errors, len(facts))
    if isinstance(wrong, str):
        return Dropped("multihop", wrong)
    added = _compose(facts, wrong)
    declarative = insert_clause(claim, at.point, added)
    truth = not wrong
    correction = as_sentence(insert_clause(claim, at.point, _compose(facts, set())))
    setting = "OHOE" if errors == "each" else "MHOE" if errors == "first" else errors
    return ClaimAttack("multihop", declarative, "", "", added, at.point, truth,
                       "" if truth else correction, (),
                       {"hops": len(facts), "error_hops": sorted(wrong), "setting": setting,
                        "anchor": name, "chain": [f.entity for f in facts]})
