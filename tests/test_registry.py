import pytest

from rattle import registry
from rattle.errors import UnknownNameError

EXPECTED = {
    "perturbation": {"chars.repeat", "chars.delete", "chars.insert", "words.insert",
                     "words.delete", "words.replace", "visual.homoglyph", "prompts.wording",
                     "options.order"},
    "model": {"embedded", "openai", "scripted", "transformers", "llamacpp"},
    "system": {"llm", "http"},
    "judge": {"choice", "qa.match"},
    "metric": {"accuracy", "er", "acr", "rti", "consistency_std", "first_option_rate"},
    "suite": {"quick", "rcc.robustness", "rcc.consistency", "rcc.credibility", "qa.context"},
}


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_builtins_are_registered_with_docs(kind: str) -> None:
    entries = {e.name: e for e in registry.entries(kind)}  # type: ignore[arg-type]
    assert EXPECTED[kind] <= set(entries)
    for e in entries.values():
        assert e.doc, f"{kind} {e.name} has no one-line doc"
        assert e.version >= 1


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
