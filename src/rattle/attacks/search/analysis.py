"""What a search needs to know about the words of a text: part of speech, named entities,
stop words (spaCy's small English pipeline, ``rattle.nlp.spacy_pos``), read once per text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rattle.attacks.search.text import Word


@dataclass(frozen=True)
class WordInfo:
    """A word's universal POS tag and lemma (its longest spaCy token), entity and stop-word
    flags."""

    pos: str = ""
    entity: bool = False
    stop: bool = False
    lemma: str = ""


def analyse(texts: Sequence[str], words: Sequence[tuple[Word, ...]]) -> list[tuple[WordInfo, ...]]:
    """Per text, the :class:`WordInfo` of each of its words (one ``nlp.pipe`` pass)."""
    from rattle.nlp.spacy_pos import pipeline

    out = []
    for doc, ws in zip(pipeline().pipe(list(texts), batch_size=64), words, strict=True):
        out.append(tuple(_info(doc, w) for w in ws))
    return out


def _info(doc: object, word: Word) -> WordInfo:
    tokens = [t for t in doc if t.idx < word.end and t.idx + len(t.text) > word.start]  # type: ignore[attr-defined]
    if not tokens:
        return WordInfo()
    main = max(tokens, key=lambda t: len(t.text))
    return WordInfo(pos=str(main.pos_), entity=any(t.ent_type_ for t in tokens),
                    stop=all(t.is_stop or t.is_punct for t in tokens), lemma=str(main.lemma_).lower())


def pos_at(texts: Sequence[str], spans: Sequence[tuple[int, int]]) -> list[str]:
    """The POS tag of the longest token inside ``spans[i]`` of ``texts[i]`` ("" if none)."""
    from rattle.nlp.spacy_pos import pipeline

    out = []
    for doc, (start, end) in zip(pipeline().pipe(list(texts), batch_size=64), spans, strict=True):
        out.append(_info(doc, Word(start, end, "")).pos)
    return out
