"""Perturbation throughput: rattle beside nlpaug (and a plain-Python ceiling) on one corpus.

Corpus: 2,000 generated English passages of 60-150 words (fixed seed); 20% of the words
edited. Every library runs in this process on the same passages; the table prints
passages/second and the ratio rattle / nlpaug. rattle goes through its public path
(``Perturbation.apply`` on items: registry, derived seed, provenance and edits included).

Usage: python bench/perturbations.py [--passages 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import time
from collections.abc import Callable

from rattle.items import Item, Question
from rattle.perturbations.base import Perturbation

VOCAB = ["the", "of", "and", "to", "in", "is", "was", "for", "on", "that", "with", "as", "by", "at", "from", "his", "her", "it", "an", "were", "are", "which", "this", "be", "or", "has", "had", "not", "but", "their", "they", "one", "have", "new", "first", "after", "who", "he", "been", "its", "also", "two", "city", "world", "war", "river", "county", "state", "year", "school", "family", "century", "government", "music", "team", "population", "church", "film", "village", "company", "album", "series", "university", "island", "north", "south", "east", "west", "station", "american", "british", "national", "public", "united", "general", "early", "later", "during", "until", "people", "known", "called", "built", "small", "large", "main", "several", "under", "between", "three", "four", "history", "local", "member", "record", "career", "season", "league", "played", "born", "died", "married", "moved", "became", "began", "based", "located", "area", "region", "district", "capital", "field", "road", "bridge", "water", "mountain", "forest", "park", "museum", "garden"]


def corpus(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        words = [rng.choice(VOCAB) for _ in range(rng.randint(60, 150))]
        words[0] = words[0].capitalize()
        out.append(" ".join(words) + ".")
    return out


def timed(fn: Callable[[str], object], texts: list[str], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for t in texts:
            fn(t)
        runs.append(time.perf_counter() - start)
    return len(texts) / statistics.median(runs)


def rattle_op(name: str, **params: object) -> Callable[[str], object]:
    perturbation = Perturbation(name, params)
    q = (Question("q"),)

    def run(text: str) -> object:
        return perturbation.apply(Item(id=text[:24], questions=q, passage=text), 0)

    return run


def nlpaug_ops() -> dict[str, Callable[[str], object]]:
    try:
        import nlpaug.augmenter.char as nac
        import nlpaug.augmenter.word as naw
    except ImportError:
        return {}
    logging.getLogger("nlpaug").setLevel(logging.ERROR)
    ops: dict[str, Callable[[str], object]] = {}
    for action in ("insert", "delete", "substitute"):
        aug = nac.RandomCharAug(action=action, aug_word_p=0.2, aug_char_p=0.3)
        ops[f"char {action}"] = aug.augment
    ops["word delete"] = naw.RandomWordAug(action="delete", aug_p=0.2).augment
    return ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = corpus(args.passages)
    ceiling = timed(lambda t: " ".join(t.split(" ")), texts, args.repeat)
    nl = nlpaug_ops()
    rows = [
        ("char insert", rattle_op("chars.insert", rate=0.2), "char insert"),
        ("char delete", rattle_op("chars.delete", rate=0.2), "char delete"),
        ("char repeat", rattle_op("chars.repeat", rate=0.2), "char substitute"),
        ("word delete", rattle_op("words.delete", rate=0.2), "word delete"),
        ("visual 50%", rattle_op("visual.homoglyph", rate=0.2, ratio=0.5), None),
        ("word replace (WordNet)", rattle_op("words.replace", rate=0.2), None),
    ]
    print(f"{'operation':<24}{'rattle p/s':>12}{'nlpaug p/s':>12}{'ratio':>8}   reference")
    for label, fn, ref in rows:
        ours = timed(fn, texts, args.repeat)
        theirs = timed(nl[ref], texts[: max(200, args.passages // 10)], 1) if ref and ref in nl else None
        ratio = f"{ours / theirs:7.1f}x" if theirs else "      –"
        shown = f"{theirs:12.0f}" if theirs else f"{'–':>12}"
        print(f"{label:<24}{ours:12.0f}{shown}{ratio}   nlpaug {ref or '(none)'}")
        if theirs:
            print(f"RATIO perturb_{label.replace(' ', '_')} {ours / theirs:.1f}x nlpaug "
                  f"{ref} ({ours:.0f} vs {theirs:.0f} passages/s; target 20x)")
    print(f"{'split+join ceiling':<24}{ceiling:12.0f}")


if __name__ == "__main__":
    main()
