"""Transformations: the edits a search may make to one word (kind ``transformation``).

Each returns, for one word and a 64-bit key derived from (run seed, unit, transformation,
options, word index), the replacement texts it proposes ("" deletes the word). The character
and homoglyph edits are rattle's registered perturbations (RCC §3.3) applied with rate 1 to the
one word; synonyms are WordNet's (``rattle.nlp.wordnet``) for the word's part of speech.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from rattle.attacks.search.analysis import WordInfo
from rattle.attacks.search.text import Word
from rattle.errors import ConfigError
from rattle.items import Item, Question
from rattle.registry import register
from rattle.seeding import derive_seed, rng_for

Propose = Callable[[Word, WordInfo, int], list[str]]


@dataclass(frozen=True)
class Transformation:
    """A named word edit: ``propose(word, info, key)`` lists replacements for the word.

    ``swap`` marks word substitutions (the same-POS constraint checks them); ``options`` are
    the factory's arguments, recorded in provenance.
    """

    name: str
    propose: Propose
    swap: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    def candidates(self, word: Word, info: WordInfo, key: int) -> list[str]:
        """Distinct replacements different from the word, in proposal order."""
        seen: set[str] = {word.text}
        out = []
        for text in self.propose(word, info, key):
            if text not in seen and " " not in text.strip():
                seen.add(text)
                out.append(text)
        return out


Samples = Annotated[int, "candidates proposed per word (distinct draws)"]


def _perturbation(name: str, params: dict[str, Any], samples: int) -> Propose:
    """A registered text perturbation at rate 1 on a one-word text, ``samples`` draws."""
    from rattle.perturbations.base import build

    if samples < 1:
        raise ConfigError(f"{name}: samples must be at least 1, got {samples}")
    _, perturber = build(name, {**params, "rate": 1.0})

    def propose(word: Word, info: WordInfo, key: int) -> list[str]:
        out = []
        for j in range(samples):
            item = Item(id="w", questions=(Question(word.text),))
            edited, *_ = perturber(item, derive_seed(key, j))
            out.append(edited.question)
        return out

    return propose


def _chars(op: str, count: int | None, samples: int) -> Transformation:
    return Transformation(f"chars.{op}", _perturbation(f"chars.{op}", {"count": count}, samples),
                          options={"count": count, "samples": samples})


Count = Annotated[int | None, "characters per edit (1-3); unset draws 1/2/3 as RCC Table 18"]


@register("transformation", "chars.delete")
def char_delete(*, count: Count = 1, samples: Samples = 1) -> Transformation:
    """Delete `count` adjacent characters of the word (the chars.delete perturbation, rate 1)."""
    return _chars("delete", count, samples)


@register("transformation", "chars.insert")
def char_insert(*, count: Count = 1, samples: Samples = 1) -> Transformation:
    """Insert `count` symbols (#, @, ~, ...) into the word, never first (chars.insert, rate 1)."""
    return _chars("insert", count, samples)


@register("transformation", "chars.repeat")
def char_repeat(*, count: Count = 1, samples: Samples = 1) -> Transformation:
    """Repeat one character of the word `count` more times (chars.repeat, rate 1)."""
    return _chars("repeat", count, samples)


# One look-alike letter in words of up to ten letters (RCC's lowest visual level, 10%).
HOMOGLYPH_RATIO = 0.1


@register("transformation", "visual.homoglyph")
def homoglyph(*, ratio: Annotated[float, "share of the word's letters replaced"] = HOMOGLYPH_RATIO,
              samples: Samples = 1,
              table: Annotated[str | None, "VIPER-style JSON homoglyph map"] = None) -> Transformation:
    """Replace ceil(ratio*len) letters of the word by similarity-weighted homoglyphs."""
    params: dict[str, Any] = {"ratio": ratio, **({"table": table} if table else {})}
    return Transformation("visual.homoglyph", _perturbation("visual.homoglyph", params, samples),
                          options={"ratio": ratio, "samples": samples, "table": table})


def _cased(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


@register("transformation", "words.synonym")
def synonym(*, max_candidates: Annotated[int, "synonyms proposed per word (seeded sample)"] = 5
            ) -> Transformation:
    """Swap the word for a one-word WordNet synonym of its part of speech (case kept).

    The word's own lemma is not a synonym ("sold" -> "sell" is a tense change)."""
    if max_candidates < 1:
        raise ConfigError(f"words.synonym: max_candidates must be at least 1, got {max_candidates}")

    def propose(word: Word, info: WordInfo, key: int) -> list[str]:
        from rattle.nlp.wordnet import synonyms, synonyms_as

        found = synonyms_as(word.text, info.pos) if info.pos else synonyms(word.text)
        same = {word.text.lower(), info.lemma}  # the word itself, or its lemma ("sold" -> "sell")
        pool = [s for s in found if s.isalpha() and s.lower() not in same]
        if len(pool) > max_candidates:
            keep = set(rng_for(key, "words.synonym").sample(range(len(pool)), max_candidates))
            pool = [s for i, s in enumerate(pool) if i in keep]
        return [_cased(word.text, s) for s in pool]

    return Transformation("words.synonym", propose, swap=True,
                          options={"max_candidates": max_candidates})


@register("transformation", "words.delete")
def word_delete() -> Transformation:
    """Delete the word (and one adjacent space)."""
    return Transformation("words.delete", lambda word, info, key: [""])
