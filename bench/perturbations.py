"""Perturbation throughput: rattle beside nlpaug (and a plain-Python ceiling) on one corpus.

Corpus: 2,000 generated English passages of 60-150 words (fixed seed); 20% of the eligible
words edited. nlpaug is configured to do the same work: ``aug_word_p=0.2`` with no cap on the
number of words (its default stops at 10), words of two or more characters eligible
(``min_char=2``, as in RCC) and at most 3 characters per word (RCC's c <= 3). Word deletion is
compared with ``RandomWordAug(action="delete")``; WordNet replacement and insertion with
``SynonymAug(aug_src="wordnet")`` (20% of the words, no cap), whose POS tagger cannot be
downloaded offline: it is replaced by one that tags nothing, so every word is looked up in all
parts of speech, as the RCC attacker does. nlpaug has no WordNet insertion; SynonymAug is the
nearest work (a WordNet lookup per edited word). Both read the same WordNet 3.0 files.

rattle is timed three ways, all recording every edit:
  texts  ``perturb_texts(name, texts)``: strings in, strings and edits out (what nlpaug's
         ``augment(list)`` does); batched, vectorised for the character operations
  items  ``Perturbation.apply_many(items)``: variants with ids and provenance (``rattle perturb``);
         the items are built before the clock starts (a suite already has them)
  one    ``Perturbation.apply(item)`` one item at a time (what a suite does while it plans)

The machine's speed drifts during a run, so the contenders are timed in interleaved rounds and
each ratio is the median of the per-round ratios. Each timed call starts from a collected heap,
and the objects that live through the run (the corpus, NLTK's WordNet) are frozen out of the
collector's scans, so no contender pays for another's garbage or for the harness's heap.

Usage: python bench/perturbations.py [--passages 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import gc
import logging
import random
import statistics
import time
from collections.abc import Callable

from rattle.items import Item, Question
from rattle.perturbations import Perturbation, perturb_texts

VOCAB = ["the", "of", "and", "to", "in", "is", "was", "for", "on", "that", "with", "as", "by", "at", "from", "his", "her", "it", "an", "were", "are", "which", "this", "be", "or", "has", "had", "not", "but", "their", "they", "one", "have", "new", "first", "after", "who", "he", "been", "its", "also", "two", "city", "world", "war", "river", "county", "state", "year", "school", "family", "century", "government", "music", "team", "population", "church", "film", "village", "company", "album", "series", "university", "island", "north", "south", "east", "west", "station", "american", "british", "national", "public", "united", "general", "early", "later", "during", "until", "people", "known", "called", "built", "small", "large", "main", "several", "under", "between", "three", "four", "history", "local", "member", "record", "career", "season", "league", "played", "born", "died", "married", "moved", "became", "began", "based", "located", "area", "region", "district", "capital", "field", "road", "bridge", "water", "mountain", "forest", "park", "museum", "garden"]

Batch = Callable[[list[str]], object]


def corpus(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(VOCAB) for _ in range(rng.randint(60, 150))]
        words[0] = words[0].capitalize()
        out.append(" ".join(words) + ".")
    return out


def rate_of(fn: Batch, texts: list[str]) -> float:
    """Passages per second of one call on ``texts``, from a collected heap (the garbage of
    the contender timed before is not collected on this one's clock)."""
    gc.collect()
    start = time.perf_counter()
    fn(texts)
    return len(texts) / (time.perf_counter() - start)


def rattle_ways(name: str, **params: object) -> dict[str, Batch]:
    perturbation = Perturbation(name, params)
    q = (Question("q"),)

    def items(texts: list[str]) -> list[Item]:
        return [Item(id=str(i), questions=q, passage=t) for i, t in enumerate(texts)]

    built: dict[int, list[Item]] = {}

    def prebuilt(texts: list[str]) -> list[Item]:
        if id(texts) not in built:
            built[id(texts)] = items(texts)
        return built[id(texts)]

    return {
        "texts": lambda texts: perturb_texts(name, texts, **params),  # type: ignore[arg-type]
        "items": lambda texts: perturbation.apply_many(prebuilt(texts), 0),
        "one": lambda texts: [perturbation.apply(it, 0) for it in prebuilt(texts)],
    }


def nlpaug_ops() -> dict[str, Batch]:
    try:
        import nlpaug.augmenter.char as nac
        import nlpaug.augmenter.word as naw
    except ImportError:
        return {}
    logging.getLogger("nlpaug").setLevel(logging.ERROR)
    ops: dict[str, Batch] = {}
    for action in ("insert", "delete", "substitute"):
        aug = nac.RandomCharAug(action=action, aug_word_p=0.2, aug_word_max=None,
                                aug_char_max=3, min_char=2)
        ops[f"char {action}"] = aug.augment
    ops["word delete"] = naw.RandomWordAug(action="delete", aug_p=0.2, aug_max=None).augment
    synonym = synonym_aug()
    if synonym is not None:
        ops["synonym"] = synonym
    return ops


def synonym_aug() -> Batch | None:
    """nlpaug's SynonymAug over the WordNet 3.0 files rattle reads, POS tagger stubbed."""
    import shutil
    import tempfile
    from pathlib import Path

    import nlpaug.augmenter.word as naw
    import nltk

    from rattle.nlp.wordnet import _prepare

    corpora = Path(tempfile.mkdtemp(prefix="nltk-")) / "corpora"
    shutil.copytree(_prepare(), corpora / "wordnet")  # NLTK refuses symlinks out of its path
    nltk.data.path.insert(0, str(corpora.parent))
    aug = naw.SynonymAug(aug_src="wordnet", aug_p=0.2, aug_max=None)
    aug.model.pos_tag = lambda tokens: [(t, "") for t in tokens]  # no tagger offline
    fn: Batch = aug.augment
    return fn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    texts = corpus(args.passages)
    few = texts[: max(200, args.passages // 8)]  # nlpaug is slow; its rate is per passage anyway
    nl = nlpaug_ops()
    # NLTK's WordNet reader and the corpus are long-lived: out of the collector's scans, so
    # that whichever contender triggers a full collection does not pay for them.
    gc.collect()
    gc.freeze()
    rows = [
        ("char insert", rattle_ways("chars.insert", rate=0.2), "char insert"),
        ("char delete", rattle_ways("chars.delete", rate=0.2), "char delete"),
        ("char repeat", rattle_ways("chars.repeat", rate=0.2), "char substitute"),
        ("word delete", rattle_ways("words.delete", rate=0.2), "word delete"),
        ("word insert", rattle_ways("words.insert", rate=0.2), "synonym"),
        ("word replace (WordNet)", rattle_ways("words.replace", rate=0.2), "synonym"),
        ("visual 50%", rattle_ways("visual.homoglyph", rate=0.2, ratio=0.5), None),
    ]
    ceiling: list[float] = []
    print(f"{'operation':<24}{'texts p/s':>11}{'items p/s':>11}{'one p/s':>10}{'nlpaug p/s':>12}"
          f"{'texts/nlpaug':>14}{'items/nlpaug':>14}")
    for label, ways, ref in rows:
        rates: dict[str, list[float]] = {w: [] for w in (*ways, "nlpaug")}
        ratios: dict[str, list[float]] = {"texts": [], "items": []}
        for _ in range(args.rounds):
            ceiling.append(rate_of(lambda ts: [" ".join(t.split(" ")) for t in ts], texts))
            theirs = rate_of(nl[ref], few) if ref in nl else None
            for way, fn in ways.items():
                rates[way].append(rate_of(fn, texts if way != "one" else few))
            if theirs:
                rates["nlpaug"].append(theirs)
                for way in ratios:
                    ratios[way].append(rates[way][-1] / theirs)
        med = {w: statistics.median(v) if v else None for w, v in rates.items()}
        ratio = {w: statistics.median(v) if v else None for w, v in ratios.items()}
        cells = "".join(f"{med[w]:>{n}.0f}" for w, n in (("texts", 11), ("items", 11), ("one", 10)))
        theirs_cell = f"{med['nlpaug']:12.0f}" if med["nlpaug"] else f"{'-':>12}"
        ratio_cells = "".join(f"{ratio[w]:13.1f}x" if ratio[w] else f"{'-':>14}" for w in ratio)
        print(f"{label:<24}{cells}{theirs_cell}{ratio_cells}")
        items_vs_texts = statistics.median(
            i / t for i, t in zip(rates["items"], rates["texts"], strict=True))
        if ratio["texts"] and ratio["items"]:
            target = "; target 20x" if label.startswith("char") else "; target 10x"
            key = label.split(" (")[0].replace(" ", "_")
            print(f"RATIO perturb_{key} {ratio['texts']:.1f}x nlpaug {ref} "
                  f"(texts {med['texts']:.0f} vs {med['nlpaug']:.0f} passages/s; items with "
                  f"provenance {ratio['items']:.1f}x{target}; items/texts {items_vs_texts:.2f})")
        else:
            print(f"RATIO perturb_{label.split(' ')[0]} {med['texts']:.0f} passages/s texts, "
                  f"items/texts {items_vs_texts:.2f}")
    print(f"{'split+join ceiling':<24}{statistics.median(ceiling):11.0f}")


if __name__ == "__main__":
    main()
