from pathlib import Path
from typing import Any

import pytest

from rattle import registry
from rattle.errors import UnknownNameError

# The whole registry, names and versions: a change here is a change users see (a new entry,
# a renamed one, or a version bump that stops cached answers from being reused).
SNAPSHOT: dict[str, dict[str, int]] = {
    "perturbation": {"chars.delete": 2, "chars.insert": 2, "chars.repeat": 2,
                     "options.order": 1, "prompts.wording": 1, "visual.homoglyph": 2,
                     "words.delete": 2, "words.insert": 2, "words.replace": 2},
    "attack": {"claims.cloze": 3, "claims.distraction": 3, "claims.exaggeration": 3,
               "claims.multihop": 3, "claims.numerical": 3, "claims.question": 3,
               "claims.reversal": 3, "claims.semantic": 3, "claims.temporal": 3,
               "docs.conflict": 1, "docs.genadv": 1, "docs.provided": 1, "docs.random": 1,
               "docs.topk": 1},
    "model": {"embedded": 1, "llamacpp": 1, "openai": 1, "scripted": 1, "transformers": 1},
    "system": {"http": 1, "llm": 1, "rag": 1},
    "judge": {"choice": 7, "claims.llm": 1, "claims.rules": 1, "fallback": 1, "qa.match": 1,
              "quality": 1},
    "metric": {"accuracy": 1, "acr": 1, "any_flip_rate": 1, "asr": 1,
               "attack_success_rate": 1, "consistency_std": 1, "er": 1,
               "first_option_rate": 1, "par": 1, "pdr": 1, "perturbed_word_rate": 1,
               "queries_mean": 1, "queries_median": 1, "rad": 1, "rti": 1,
               "similarity_mean": 1, "worst_case_accuracy": 1},
    "suite": {"factoid.attacks": 1, "factoid.cloze": 1, "factoid.components": 1,
              "factoid.forms": 1, "factoid.hops": 1, "qa.context": 1, "quick": 1,
              "ralm.adversarial": 1, "ralm.adversarial_unanswerable": 1, "ralm.baseline": 1,
              "ralm.conflict": 1, "ralm.unanswerable": 1, "rcc.consistency": 1,
              "rcc.credibility": 1, "rcc.patterns": 1, "rcc.robustness": 1,
              "search.claims": 1, "search.mc": 1, "search.prompt": 1, "search.qa": 1},
    "retriever": {"bm25": 1, "dense": 1},
    "dataset_format": {"aqua": 1, "babi15": 1, "babi16": 1, "claims": 1, "creak": 1, "dpr": 1,
                       "ecqa": 1, "esnli": 1, "gsm8k": 1, "noahqa": 1, "poisonedrag": 1,
                       "qasc": 1, "qed": 1, "rcc": 1, "rgb": 1, "senmaking": 1,
                       "strategyqa": 1},
    "executor": {"local": 1, "ray": 1},
    "transformation": {"chars.delete": 1, "chars.insert": 1, "chars.repeat": 1,
                       "visual.homoglyph": 1, "words.delete": 1, "words.synonym": 1},
    "constraint": {"max_words": 1, "protected": 1, "same_pos": 1, "similarity": 1},
    "goal": {"drop": 1, "flip": 1, "verdict_flip": 1, "wrong": 1},
    "search_method": {"beam": 1, "greedy": 1, "random": 1},
}


def test_registry_snapshot_of_names_and_versions() -> None:
    assert set(SNAPSHOT) == set(registry.KINDS)
    for kind, expected in SNAPSHOT.items():
        got = {e.name: e.version for e in registry.entries(kind)  # type: ignore[arg-type]
               if not e.name.startswith("test.")}
        assert got == expected, kind


@pytest.mark.parametrize("kind", sorted(SNAPSHOT))
def test_every_entry_has_a_doc_and_typed_keyword_options(kind: str) -> None:
    from rattle.options import option_specs

    for e in registry.entries(kind):  # type: ignore[arg-type]
        assert e.doc, f"{kind} {e.name} has no one-line doc"
        assert e.version >= 1
        for spec in option_specs(e.factory):
            assert spec.type is not Any, f"{kind} {e.name}: option {spec.name} has no type"


def test_builtin_modules_are_declared_as_entry_points_not_listed_in_the_core() -> None:
    from importlib.metadata import entry_points

    source = (Path(registry.__file__)).read_text()
    assert "rattle.perturbations.chars" not in source
    groups = {kind: {ep.value for ep in entry_points(group=f"rattle.{kind}")}
              for kind in registry.KINDS}
    assert "rattle.perturbations.chars" in groups["perturbation"]
    assert "rattle.suites.quick" in groups["suite"]


def test_priced_and_local_providers_are_declared_by_their_entries() -> None:
    from rattle.models.pricing import price_for

    assert registry.get("model", "embedded").meta == {"free": True, "local": True}
    assert registry.get("model", "openai").meta == {"free": False, "local": False}
    assert price_for("scripted/echo") == (0.0, 0.0)
    assert price_for("openai/gpt-4o-mini") == (0.15, 0.60)
    assert price_for("openai/some-new-model") is None
    assert price_for(None) is None and price_for(None, "1,2") == (1.0, 2.0)


def test_unknown_name_lists_known_ones() -> None:
    with pytest.raises(UnknownNameError) as info:
        registry.get("perturbation", "chars.explode")
    assert "chars.explode" in str(info.value)
    assert "chars.delete" in str(info.value)
    assert "rattle list perturbation" in str(info.value)


def test_versioned_lookup() -> None:
    assert registry.get("perturbation", "chars.delete@2").version == 2
    with pytest.raises(UnknownNameError):
        registry.get("perturbation", "chars.delete@9")


def test_register_decorator_records_version_and_doc() -> None:
    @registry.register("judge", "test.dummy", version=3)
    def dummy() -> None:
        """A dummy judge.

        More text."""

    entry = registry.get("judge", "test.dummy")
    assert entry.qualified == "test.dummy@3"
    assert entry.doc == "A dummy judge."
