"""Attack-pattern analysis (RCC §3.6/§4.1.2): which edited words make answers change?

For every perturbed case whose answer changed against the unperturbed one, each edited word
is labelled four ways with spaCy's English pipeline: part of speech, dependency relation,
phrase type and position. Then

- ``pattern_frequency`` s_l (Eq. 11): per category, the number of edited words of that
  category in answer-changing variants, each variant weighted by 1/G(x), G(x) = its number of
  edited words;
- ``pattern_importance``: a random forest (scikit-learn) trained on the Eq. 12 vectors (per
  variant, per category: edited words of the category / words of the category) against
  "the answer changed", its impurity importance per category.

Deliberate approximations, stated because spaCy's small pipeline has no constituency parser:
the phrase type of a word is NP when it lies in a noun chunk, else VP for verbs and
auxiliaries, PP for prepositions and their objects, ADJP/ADVP/QP/PRT by part of speech, and
O otherwise. Position is ``head``/``tail`` for the first/last word of a sentence and
``middle`` otherwise (the paper's Figure 3 categories).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rattle.metrics.core import MetricValue

FAMILIES = ("pos", "dep", "phrase", "position")
N_TREES = 200  # random-forest size; seeded


@dataclass(frozen=True)
class WordLabels:
    """The linguistic labels of one edited word: POS, dependency, phrase, position."""

    start: int
    end: int
    pos: str
    dep: str
    phrase: str
    position: str


def label_words(text: str, nlp: Any) -> list[WordLabels]:
    doc = nlp(text)
    in_chunk: set[int] = set()
    for chunk in doc.noun_chunks:
        in_chunk.update(range(chunk.start, chunk.end))
    out = []
    for sent in doc.sents:
        words = [t for t in sent if not t.is_punct and not t.is_space]
        for k, t in enumerate(words):
            if t.i in in_chunk:
                phrase = "NP"
            elif t.pos_ in ("VERB", "AUX"):
                phrase = "VP"
            elif t.pos_ == "ADP" or t.dep_ == "pobj":
                phrase = "PP"
            else:
                phrase = {"ADJ": "ADJP", "ADV": "ADVP", "NUM": "QP", "PART": "PRT"}.get(t.pos_, "O")
            position = "head" if k == 0 else ("tail" if k == len(words) - 1 else "middle")
            out.append(WordLabels(t.idx, t.idx + len(t.text), t.pos_, t.dep_, phrase, position))
    return out


def _word_at(words: Sequence[WordLabels], offset: int) -> WordLabels | None:
    for w in words:
        if w.start <= offset < w.end or offset <= w.start:
            return w
    return words[-1] if words else None


def analyse(records: Sequence[Mapping[str, Any]], texts: Mapping[str, str], nlp: Any,
            *, seed: int = 0) -> list[MetricValue]:
    """``texts`` maps ``dataset|item_id`` to the original attacked text (passage or question)."""
    baseline = {(r["dataset"], r["item_id"], r["sub"]): r.get("answer")
                for r in records if r["attack"] == "original"}
    labelled: dict[str, list[WordLabels]] = {}
    # One sample per (variant, question); features per family.
    samples: list[tuple[str, dict[str, dict[str, float]], bool]] = []
    freq: dict[tuple[str, str, str], float] = defaultdict(float)
    for r in records:
        if r["attack"] == "original" or not r["edits"] or r.get("answer") is None:
            continue
        before = baseline.get((r["dataset"], r["item_id"], r["sub"]))
        if before is None:
            continue
        key = f"{r['dataset']}|{r['item_id']}"
        text = texts.get(key)
        if not text:
            continue
        if key not in labelled:
            labelled[key] = label_words(text, nlp)
        words = labelled[key]
        hit = [w for e in r["edits"] if (w := _word_at(words, int(e[0]))) is not None]
        if not hit:
            continue
        changed = r["answer"] != before
        counts: dict[str, dict[str, float]] = {}
        for family in FAMILIES:
            total: dict[str, int] = defaultdict(int)
            for w in words:
                total[getattr(w, family)] += 1
            edited: dict[str, int] = defaultdict(int)
            for w in hit:
                edited[getattr(w, family)] += 1
            counts[family] = {c: edited[c] / total[c] for c in edited if total[c]}
            if changed:
                for w in hit:  # Eq. 11, weighted by 1/G(x)
                    freq[(r["attack"], family, getattr(w, family))] += 1 / len(hit)
        samples.append((r["attack"], counts, changed))
    out = [MetricValue("pattern_frequency", v, None, None, 0, 0,
                       {"attack": a, "family": f, "category": c})
           for (a, f, c), v in sorted(freq.items())]
    for family in FAMILIES:
        out.extend(_importance(samples, family, seed))
    return out


def _importance(samples: Sequence[tuple[str, dict[str, dict[str, float]], bool]], family: str,
                seed: int) -> list[MetricValue]:
    targets = [s[2] for s in samples]
    if len(set(targets)) < 2:
        return []  # a forest needs both outcomes
    try:
        from sklearn.ensemble import RandomForestClassifier
    except ImportError:
        from rattle.errors import MissingExtraError

        raise MissingExtraError("scikit-learn", "nlp", "attack-pattern importance") from None
    import numpy as np

    cats = sorted({c for _, counts, _ in samples for c in counts[family]})
    x = np.array([[counts[family].get(c, 0.0) for c in cats] for _, counts, _ in samples])
    forest = RandomForestClassifier(n_estimators=N_TREES, random_state=seed, n_jobs=1)
    forest.fit(x, np.array(targets))
    return [MetricValue("pattern_importance", float(v), None, None, len(samples), 0,
                        {"family": family, "category": c})
            for c, v in zip(cats, forest.feature_importances_, strict=True)]
