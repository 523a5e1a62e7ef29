"""Constraints: which words a search may edit and which candidate texts it may keep
(kind ``constraint``).

A constraint acts at one or more of three points: before transforming (may word ``i`` be
edited at all: ``protected``), on the number of edited words (``max_words``), and on the
candidate texts of a step, checked as one batch (``same_pos``, ``similarity``).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from rattle.attacks.search.analysis import WordInfo
from rattle.attacks.search.text import Candidate, Word
from rattle.errors import ConfigError
from rattle.registry import register


@dataclass(frozen=True)
class Context:
    """What constraints know about one attacked text: its words, their analysis (when a
    component asked for it) and the task's protected terms (answer and option words)."""

    text: str
    words: tuple[Word, ...]
    info: tuple[WordInfo, ...]
    protected_terms: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Constraint:
    """A named constraint; unset hooks do not constrain.

    ``word(ctx, i)``: may word ``i`` be edited; ``count(ctx, n)``: may ``n`` words be edited;
    ``texts(ctx, candidates, swapped)``: which candidates to keep (``swapped[i]``: the word
    candidate ``i`` swapped in this step, None when its edit is not a word swap); ``measure(original, texts)``: similarities (``similarity``).
    """

    name: str
    word: Callable[[Context, int], bool] | None = None
    count: Callable[[Context, int], bool] | None = None
    texts: Callable[[Context, Sequence[Candidate], Sequence[int | None]], list[bool]] | None = None
    needs_analysis: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    #: similarity of texts to the original (``similarity``), also reported for found examples
    measure: Callable[[str, Sequence[str]], list[float]] | None = None


@register("constraint", "protected")
def protected(*, answers: Annotated[bool, "protect answer and option words"] = True,
              stop_words: Annotated[bool, "protect stop words (spaCy's list)"] = True,
              entities: Annotated[bool, "protect named entities (spaCy NER)"] = True,
              words: Annotated[list[str] | None, "more words never to edit"] = None) -> Constraint:
    """Never edit answer/option words, stop words, named entities or listed words."""
    extra = frozenset(w.lower() for w in words or ())

    def word(ctx: Context, i: int) -> bool:
        core = ctx.words[i].text.lower()
        if core in extra or (answers and core in ctx.protected_terms):
            return False
        info = ctx.info[i] if ctx.info else WordInfo()
        return not ((stop_words and info.stop) or (entities and info.entity))

    return Constraint("protected", word=word, needs_analysis=stop_words or entities,
                      options={"answers": answers, "stop_words": stop_words,
                               "entities": entities, "words": sorted(extra)})


# TextAttack's MaxWordsPerturbed as promptbench's BertAttack and the issue use it: at most 20%
# of the words changed (Morris et al. 2020, arXiv:2005.05909).
MAX_SHARE = 0.2


@register("constraint", "max_words")
def max_words(*, max_share: Annotated[float, "largest share of the words changed"] = MAX_SHARE,
              max_count: Annotated[int | None, "largest number of words changed"] = None
              ) -> Constraint:
    """At most max_share of the text's words (and at most max_count) changed."""
    if not 0.0 < max_share <= 1.0:
        raise ConfigError(f"max_words: max_share must be in (0, 1], got {max_share}")

    def count(ctx: Context, n: int) -> bool:
        if max_count is not None and n > max_count:
            return False
        return n <= max_share * len(ctx.words) + 1e-9

    return Constraint("max_words", count=count,
                      options={"max_share": max_share, "max_count": max_count})


@register("constraint", "same_pos")
def same_pos() -> Constraint:
    """A swapped word keeps its part of speech in context (spaCy tagger), as TextFooler checks."""

    def texts(ctx: Context, candidates: Sequence[Candidate], swapped: Sequence[int | None]) -> list[bool]:
        from rattle.attacks.search.analysis import pos_at

        todo = [(i, w) for i, w in enumerate(swapped) if w is not None]
        keep = [True] * len(candidates)
        if not todo:
            return keep
        spans = []
        for i, w in todo:
            word = ctx.words[w]
            shift = sum(len(e.after) - len(e.before) for e in candidates[i].edits
                        if e.start < word.start)
            after = next(c.after for c in candidates[i].changes if c.index == w)
            spans.append((word.start + shift, word.start + shift + len(after)))
        tags = pos_at([candidates[i].text for i, _ in todo], spans)
        for (i, w), tag in zip(todo, tags, strict=True):
            keep[i] = tag == ctx.info[w].pos
        return keep

    return Constraint("same_pos", texts=texts, needs_analysis=True)


# promptbench's TextFooler setting (microsoft/promptbench prompt_attack/__init__.py,
# min_sentence_cos_sim) with the Universal Sentence Encoder and the angular metric; rattle
# uses all-MiniLM-L6-v2 (the sentence encoder shipped on PyPI) with the same threshold.
SIMILARITY_THRESHOLD = 0.840845057
Metric = Literal["angular", "cosine"]


# Sentence vectors kept per encoder, shared by every search of a process (a search step's
# candidates repeat across methods and budgets); least recently used ones are dropped.
VECTOR_CACHE = 100_000
_VECTORS: dict[str | None, OrderedDict[str, Any]] = {}


def _vectors(model_path: str | None, texts: Sequence[str]) -> list[Any]:
    cache = _VECTORS.setdefault(model_path, OrderedDict())
    missing = [t for t in dict.fromkeys(texts) if t not in cache]
    if missing:
        from rattle.retrieval.dense import embed

        for t, v in zip(missing, embed(missing, model_path), strict=True):
            cache[t] = v
    out = []
    for t in texts:
        cache.move_to_end(t)
        out.append(cache[t])
    while len(cache) > VECTOR_CACHE:
        cache.popitem(last=False)
    return out


class Similarity:
    """Similarity of texts to the original under a sentence encoder (normalised vectors,
    cached per process)."""

    def __init__(self, metric: Metric = "angular", model_path: str | None = None) -> None:
        if metric not in ("angular", "cosine"):
            raise ConfigError(f"similarity: metric must be angular or cosine, got {metric!r}")
        self.metric = metric
        self.model_path = model_path

    def __call__(self, original: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        first, *others = _vectors(self.model_path, [original, *texts])
        out = []
        for v in others:
            cos = max(-1.0, min(1.0, float(first @ v)))
            out.append(1.0 - math.acos(cos) / math.pi if self.metric == "angular" else cos)
        return out


@register("constraint", "similarity")
def similarity(*, threshold: Annotated[float, "least similarity to the original text"] = SIMILARITY_THRESHOLD,
               metric: Annotated[Metric, "angular (1 - arccos(cos)/pi, as TextFooler) or cosine"] = "angular",
               model: Annotated[str | None, "sentence-transformers folder (default all-MiniLM-L6-v2)"] = None
               ) -> Constraint:
    """The candidate text stays similar to the original under all-MiniLM-L6-v2."""
    measure = Similarity(metric, model)

    def texts(ctx: Context, candidates: Sequence[Candidate], swapped: Sequence[int | None]) -> list[bool]:
        return [s >= threshold for s in measure(ctx.text, [c.text for c in candidates])]

    return Constraint("similarity", texts=texts, measure=measure,
                      options={"threshold": threshold, "metric": metric, "model": model})
