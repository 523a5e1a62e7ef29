"""The registered judges that read replies with a model or with rules for a whole suite
(kind ``judge``): suites build them through the registry, so another package can register a
judge of its own the same way (docs/plugins.md)."""

from __future__ import annotations

from typing import Annotated, Any

from rattle.registry import register


@register("judge", "claims.rules")
def claims_rules() -> Any:
    """Free-form answers to a claim, offline: the verdict, then whether the correction is stated."""
    from rattle.judges.claims import RuleJudge

    return RuleJudge()


@register("judge", "claims.llm")
def claims_llm(model: Annotated[str, "the judge model (a model name)"]) -> Any:
    """Free-form answers to a claim labelled by a judge model with a versioned prompt."""
    from rattle.judges.claims import LLMJudge

    return LLMJudge(model)


@register("judge", "fallback")
def fallback(model: Annotated[str, "the judge model (a model name)"], *,
             mode: Annotated[str, "RALM detection mode the rules use first"] = "broad") -> Any:
    """A judge model for the replies the rule extractors leave unparsed (rules first)."""
    from rattle.judges.fallback import ModelFallback

    return ModelFallback(model, mode=mode)


@register("judge", "quality")
def quality(model: Annotated[str | None, "judge model for fluency/utility (lexical rules if None)"]
            = None, *, knowledge: Annotated[str | None, "JSONL of related facts"] = None) -> Any:
    """Response quality: FActScore, citation support, fluency and utility (Appendix B)."""
    from rattle.judges.quality import QualityScorer

    return QualityScorer(model, knowledge=knowledge)
