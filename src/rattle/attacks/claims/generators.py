"""The registered claim attacks: ``claims.<name>`` for the seven attacks of the paper plus
``claims.question`` (declarative -> question form) and ``claims.cloze``.

``ClaimGenerator.flow(item, ctx, rng)`` is a flow (STYLE.md 10): in rule-based mode it yields
nothing; with an attacker model (``ctx.attacker``) it yields the model request built from the
versioned template in ``rattle.attacks.claims.base.PROMPTS``. Either way the outcome gets its
question form and is validated, or dropped with the reason.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rattle.attacks.claims import rules
from rattle.attacks.claims.base import (PROMPTS, ClaimAttack, ClaimFlow, Knowledge, claim_text,
                                        load_knowledge, model_flow, validate)
from rattle.attacks.documents.base import Dropped
from rattle.errors import ConfigError
from rattle.flows import FlowRunner, OfflineFlows
from rattle.items import Item
from rattle.registry import register


# Version 2 (issue 15): protected names, English time phrases, lexical exaggeration, checked
# semantic pairs, reversal by the answer's kind, parse-based clause attachment, sentence
# corrections, the parse check. Variants of version 1 are not the same attacks.
# Version 3 (round 3, docs/claims.md): the held-back failures fixed as rules (gradable
# antonyms, checkable distractions, numbers the sentence fixes, years as before/after, one-
# answer questions, approximate dates left alone); many variants of version 2 differ.
VERSION = 3


@dataclass
class ClaimContext:
    """What claim attacks draw on: the spaCy pipeline, the knowledge corpus, the attacker mode."""

    nlp: Any = None
    knowledge: Knowledge | None = None
    attacker: bool = False
    parsed: dict[str, Any] = field(default_factory=dict)

    def pipeline(self) -> Any:
        if self.nlp is None:
            from rattle.nlp.spacy_pos import pipeline

            self.nlp = pipeline()
        return self.nlp

    def parse(self, text: str) -> Any:
        doc = self.parsed.get(text)
        if doc is None:
            doc = self.parsed[text] = self.pipeline()(text)
        return doc

    def facts(self) -> Knowledge:
        if self.knowledge is None:
            self.knowledge = load_knowledge()
        return self.knowledge


class ClaimGenerator:
    """One claim attack with its options."""

    version = VERSION

    def __init__(self, name: str, **options: Any) -> None:
        self.name = name
        self.options = {k: v for k, v in options.items() if v is not None}

    @property
    def qualified(self) -> str:
        return f"claims.{self.name}"

    def flow(self, item: Item, ctx: ClaimContext, rng: random.Random) -> ClaimFlow:
        claim = claim_text(item)
        if ctx.attacker and self.name in PROMPTS:
            out = yield from model_flow(self.name, claim, self._prompt_options())
        else:
            out = self.rules(claim, ctx, rng)
        if isinstance(out, Dropped):
            return out
        if out.declarative is not None and not out.question:
            out = replace(out, question=rules.to_question(out.declarative, ctx.parse))
        why = validate(claim, out, ctx.parse)
        return Dropped(self.name, why) if why else out

    def rules(self, claim: str, ctx: ClaimContext, rng: random.Random) -> ClaimAttack | Dropped:
        doc = ctx.parse(claim)
        o = self.options
        if self.name == "temporal":
            return rules.temporal(claim, doc, rng, kind=o.get("kind"))
        if self.name == "numerical":
            return rules.numerical(claim, doc, rng, comparator=o.get("comparator"), truth=o.get("truth"))
        if self.name == "exaggeration":
            return rules.exaggeration(claim, doc, rng)
        if self.name == "semantic":
            return rules.semantic(claim, doc, rng, relation=o.get("relation", "any"))
        if self.name == "reversal":
            return rules.reversal(claim, doc, rng)
        if self.name == "distraction":
            return rules.distraction(claim, doc, rng, ctx.facts(), component=o.get("component"),
                                     fabricated=o.get("fabricated"))
        if self.name == "multihop":
            return rules.multihop(claim, doc, rng, ctx.facts(), hops=int(o.get("hops", 3)),
                                  errors=str(o.get("errors", "last")), exact=bool(o.get("exact", False)))
        if self.name == "cloze":
            return rules.cloze(claim, doc, rng)
        if self.name == "question":
            q = rules.to_question(claim, ctx.parse)
            return ClaimAttack("question", None, q, "", "", 0, True, "", (), {"form": "question"})
        raise ConfigError(f"unknown claim attack {self.name!r}")

    def _prompt_options(self) -> Mapping[str, Any]:
        o = self.options
        if self.name == "multihop":
            errors = o.get("errors", "last")
            where = {"last": "only the last hop", "first": "only the first hop",
                     "each": "every hop", "none": "none of them"}.get(str(errors), f"hops {errors}")
            return {"hops": o.get("hops", 3), "errors": where}
        if self.name == "temporal":
            return {"kind": o.get("kind", "direct, vague or relative")}
        if self.name == "distraction":
            return {"truth": "fabricated" if o.get("fabricated", True) else "true",
                    "component": o.get("component", "any noun entity")}
        if self.name == "numerical":
            return {"truth": "still true" if o.get("truth") else "false"}
        return {}


def _check(name: str, options: Mapping[str, Any], allowed: Mapping[str, tuple[Any, ...] | type]) -> None:
    for key, value in options.items():
        if value is None:
            continue
        rule = allowed.get(key)
        if rule is None:
            raise ConfigError(f"claims.{name}: unknown parameter {key!r}; "
                              f"known: {', '.join(sorted(allowed)) or 'none'}")
        if isinstance(rule, tuple) and value not in rule:
            raise ConfigError(f"claims.{name}: {key} must be one of {', '.join(map(str, rule))}, got {value!r}")


@register("attack", "claims.temporal", version=VERSION)
def temporal(*, kind: str | None = None) -> ClaimGenerator:
    """Replace a time expression (direct/vague/relative); the label says if it stays true."""
    _check("temporal", {"kind": kind}, {"kind": ("direct", "vague", "relative")})
    return ClaimGenerator("temporal", kind=kind)


@register("attack", "claims.numerical", version=VERSION)
def numerical(*, comparator: str | None = None, truth: bool | None = None) -> ClaimGenerator:
    """A quantity becomes a range/comparative ('$30' -> 'over $20' true, 'over $40' false)."""
    _check("numerical", {"comparator": comparator}, {"comparator": ("over", "under", "between"),
                                                      "truth": bool})
    return ClaimGenerator("numerical", comparator=comparator, truth=truth)


@register("attack", "claims.exaggeration", version=VERSION)
def exaggeration() -> ClaimGenerator:
    """Inflate quantifiers, frequency words or counts; else add 'the only' (false)."""
    return ClaimGenerator("exaggeration")


@register("attack", "claims.semantic", version=VERSION)
def semantic(*, relation: str = "any") -> ClaimGenerator:
    """A WordNet antonym (false) or synonym (true) outside the subject, subordinate clauses first."""
    _check("semantic", {"relation": relation}, {"relation": ("antonym", "synonym", "any")})
    return ClaimGenerator("semantic", relation=relation)


@register("attack", "claims.reversal", version=VERSION)
def reversal() -> ClaimGenerator:
    """'A is B' -> a question whose answer is A (the reversal curse)."""
    return ClaimGenerator("reversal")


@register("attack", "claims.distraction", version=VERSION)
def distraction(*, component: str | None = None, fabricated: bool | None = None) -> ClaimGenerator:
    """Append one clause about an entity: a related fact, its false version, or a fabrication."""
    _check("distraction", {"component": component},
           {"component": rules.COMPONENTS + rules.ENTITY_TYPES, "fabricated": bool})
    return ClaimGenerator("distraction", component=component, fabricated=fabricated)


@register("attack", "claims.multihop", version=VERSION)
def multihop(*, hops: int = 3, errors: str = "last", exact: bool = False) -> ClaimGenerator:
    """A chain of related facts as clauses, wrong in chosen hops (MHOE: first, OHOE: each)."""
    if int(hops) < 1:
        raise ConfigError(f"claims.multihop: hops must be at least 1, got {hops}")
    return ClaimGenerator("multihop", hops=int(hops), errors=str(errors), exact=bool(exact))


@register("attack", "claims.question", version=VERSION)
def question() -> ClaimGenerator:
    """The claim as a yes/no question (auxiliary inversion or do-support)."""
    return ClaimGenerator("question")


@register("attack", "claims.cloze", version=VERSION)
def cloze() -> ClaimGenerator:
    """Blank the first time or number and ask for it (cloze test, paper Table 3)."""
    return ClaimGenerator("cloze")


Tag = Any


def run_attacks(jobs: Iterable[tuple[Tag, Item, ClaimGenerator, random.Random]], ctx: ClaimContext,
                *, attacker: str | None = None, flows: FlowRunner | None = None,
                why: str = "rule-based attacks") -> dict[Tag, ClaimAttack | Dropped]:
    """Run claim attacks, each ``(tag, item, generator, rng)``: with ``attacker`` their flows
    ask that model through ``flows`` (the run's store), else they run offline. Outcomes by tag."""
    pending = [(tag, gen.flow(item, ctx, rng)) for tag, item, gen, rng in jobs]
    outcomes: dict[Tag, ClaimAttack | Dropped] = {}
    runner = flows or OfflineFlows()
    if attacker:
        runner.with_model(attacker, pending, outcomes.__setitem__)
    else:
        runner.offline(pending, outcomes.__setitem__, why=why)
    return outcomes


def generate(name: str, item: Item, *, seed: int = 0, ctx: ClaimContext | None = None,
             **options: Any) -> ClaimAttack | Dropped:
    """Run one rule-based claim attack on one item (notebooks, tests, ``rattle perturb``)."""
    from rattle import registry
    from rattle.seeding import rng_for

    entry = registry.get("attack", name if name.startswith("claims.") else f"claims.{name}")
    try:
        gen: ClaimGenerator = entry.factory(**options)
    except TypeError as exc:
        raise ConfigError(f"{entry.name}: bad parameters {options}: {exc}") from None
    flow = gen.flow(item, ctx or ClaimContext(), rng_for(seed, item.id, entry.name, gen.options))
    try:
        next(flow)
    except StopIteration as stop:
        out: ClaimAttack | Dropped = stop.value
        return out
    raise ConfigError(f"{entry.name} asked for a model in rule-based mode")
