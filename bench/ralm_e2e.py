"""End to end: ``rattle run ralm.baseline --system rag`` over a generated corpus, timed.

Writes a corpus of 100,000 passages (JSONL, 60-110 words of a Zipf-distributed vocabulary of
pronounceable made-up words, each passage titled) and 2,000 questions whose answers each occur
in one "fact" passage, then runs

    rattle run ralm.baseline --system rag --corpus C --dataset D --model scripted/echo

twice in fresh processes: the first builds the passage store and the BM25 index, the second is
the figure (index built; the store of answers is fresh, so every request is asked). With
``--profile`` the second run is written as a cProfile file. The target is 10 s wall time.

Usage: python bench/ralm_e2e.py [--passages 100000] [--questions 2000] [--profile out.prof]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from itertools import accumulate
from pathlib import Path

SYLLABLES = ["ka", "lo", "mi", "ne", "tor", "vin", "sa", "rel", "do", "gu", "pa", "zen", "qui",
             "bra", "fel", "mon", "ta", "ri", "es", "ul", "han", "cor", "vo", "li"]
TARGET_S = 10.0


def vocabulary(n: int, rng: random.Random) -> list[str]:
    words: dict[str, None] = {}
    while len(words) < n:
        words["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))] = None
    return list(words)


def write_data(folder: Path, passages: int, questions: int, seed: int = 11) -> tuple[Path, Path]:
    rng = random.Random(seed)
    vocab = vocabulary(40_000, rng)
    cum = list(accumulate(1 / (i + 1) for i in range(len(vocab))))
    entities = vocab[2000:2000 + 4 * questions]
    corpus, dataset = folder / "corpus.jsonl", folder / "questions.jsonl"
    fact_at = set(rng.sample(range(passages), questions))
    facts = iter(range(questions))
    with corpus.open("w") as fh:
        for i in range(passages):
            words = rng.choices(vocab, cum_weights=cum, k=rng.randint(60, 110))
            if i in fact_at:
                q = next(facts)
                subject, relation, answer = entities[4 * q: 4 * q + 2], entities[4 * q + 2], entities[4 * q + 3]
                words[5:5] = [*subject, relation, "is", answer.capitalize()]
            fh.write(json.dumps({"id": str(i), "title": " ".join(rng.choices(vocab[:5000], k=2)),
                                 "text": " ".join(words)}) + "\n")
    with dataset.open("w") as fh:
        for q in range(questions):
            subject, relation, answer = entities[4 * q: 4 * q + 2], entities[4 * q + 2], entities[4 * q + 3]
            fh.write(json.dumps({"id": f"q{q}", "question": f"what is the {relation} of "
                                 f"{' '.join(subject)}?", "answers": [answer.capitalize()]}) + "\n")
    return corpus, dataset


def run_once(corpus: Path, dataset: Path, work: Path, tag: str, profile: str | None) -> float:
    for old in (work / f"ws-{tag}", work / f"run-{tag}"):  # a fresh store: every request asked
        shutil.rmtree(old, ignore_errors=True)
    cmd = [sys.executable]
    if profile:
        cmd += ["-m", "cProfile", "-o", profile]
    cmd += ["-m", "rattle.cli", "run", "ralm.baseline", "--system", "rag", "--corpus", str(corpus),
            "--dataset", str(dataset), "--model", "scripted/echo",
            "--workspace", str(work / f"ws-{tag}"), "--out", str(work / f"run-{tag}")]
    # Bytecode as an installed package has it (the first run writes it).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-2000:] + proc.stderr[-2000:])
        raise SystemExit(f"rattle run failed with exit {proc.returncode}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--passages", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=2000)
    parser.add_argument("--profile", default=None)
    parser.add_argument("--keep", default=None, help="write the data here and keep it")
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="rattle-e2e-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        start = time.perf_counter()
        corpus, dataset = work / "corpus.jsonl", work / "questions.jsonl"
        if not corpus.is_file() or not dataset.is_file():
            corpus, dataset = write_data(work, args.passages, args.questions)
        made = time.perf_counter() - start
        first = run_once(corpus, dataset, work, "first", None)
        second = run_once(corpus, dataset, work, "second", args.profile)
        metrics = json.loads((work / "run-second" / "metrics.json").read_text())
        print(f"data written in {made:.1f} s ({args.passages} passages, {args.questions} questions)")
        print(f"first run (builds the passage store and BM25 index): {first:.1f} s")
        print(f"second run (index built): {second:.1f} s; target {TARGET_S:.0f} s")
        print(f"metrics: {len(metrics.get('metrics', metrics))} entries")
        print(f"RATIO ralm_e2e {second:.1f} s wall for {args.questions} questions over "
              f"{args.passages} passages (target <= {TARGET_S:.0f} s; first run {first:.1f} s)")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
