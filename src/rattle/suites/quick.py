"""``quick``: a small real cross-section of rattle, the default of ``rattle run``.

Three parts on the built-in sets: RCC robustness (character, word and visual noise on
multiple-choice items, one question per request), short-answer QA closed-book vs with
documents (the RALM prompts), and factoid attacks (four rule-based claim attacks on six of the
built-in true sentences, verification protocol). A few minutes on two CPU cores with the
embedded model.
"""

from __future__ import annotations

from typing import Annotated, Any

from rattle.registry import register
from rattle.suites.base import CompositeSuite
from rattle.suites.factoid import FactoidSuite
from rattle.suites.qa import QAContextSuite
from rattle.suites.rcc import RCCSuite

QUICK_ATTACKS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("chars.delete", {}, ""),
    ("chars.insert", {}, ""),
    ("words.delete", {}, ""),
    ("visual.homoglyph", {"ratio": 0.5}, "50%"),
)
QUICK_CLAIM_ATTACKS = "temporal,numerical,distraction,reversal"
QUICK_CLAIMS = 6


@register("suite", "quick")
def quick(
    *,
    dataset: Annotated[str | None, "multiple-choice data for the RCC part (default mini-mc)"] = None,
    limit: Annotated[int | None, "items per part (the factoid part takes at most 6)"] = None,
    seed: Annotated[int, "run seed"] = 0,
    skip_invalid: Annotated[bool, "skip malformed data lines (counted)"] = False,
) -> CompositeSuite:
    """A small real cross-section: RCC noise on MC items, closed/open-book QA, factoid attacks."""
    rcc = RCCSuite("robustness", dataset=dataset, limit=limit, seed=seed, samples=1,
                   attacks=QUICK_ATTACKS, protocol="single", part="rcc.robustness",
                   skip_invalid=skip_invalid)
    qa = QAContextSuite(limit=limit, seed=seed, part="qa.context", skip_invalid=skip_invalid)
    factoid = FactoidSuite("attacks", limit=min(limit or QUICK_CLAIMS, QUICK_CLAIMS), seed=seed,
                           attacks=QUICK_CLAIM_ATTACKS, part="factoid.attacks")
    return CompositeSuite(
        "quick", (rcc, qa, factoid), paper="all three (a cross-section)",
        description=(__doc__ or "").strip(),
        tables=("ER/ACR by attack on mini-mc; QA accuracy by condition on mini-qa; ASR by "
                "claim attack on six factoid claims"))
