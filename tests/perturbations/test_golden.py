"""Golden outputs: each perturbation under a fixed seed gives exactly these texts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rattle.perturbations import perturb_text

S = "George Washington died in 1799. CDs weren't invented until 1982."

GOLDEN = [
    ("chars.repeat", {"rate": 0.5, "count": 2},
     "Georgeee Waaashington diiied in 1799. CDs weeeren't invented until 198882."),
    ("chars.delete", {"rate": 0.5, "count": 1},
     "Gerge Washington did n 1799. CDs were't invnted until 1982."),
    ("chars.insert", {"rate": 0.5},
     "George Washington di^ed i=n 1799. CDs weren't i>nvented unt>il 1^982."),
    # Words and visual: version 2 (counter-based draws). Read by hand: insert adds
    # round(0.3 * 10) = 3 words (passage words 'died' and '1799.', and 'devise', a WordNet
    # synonym of 'invented'); delete drops 3
    # of the 10 words; replace writes 'pop off' (a WordNet synonym of 'died') and two passage
    # words; visual picks ceil(0.5 * 10) = 5 words (the two numbers have no letter to change)
    # and replaces ceil(0.5 * len) positions of each ("'" stays).
    ("words.insert", {"rate": 0.3},
     "George died Washington 1799. died in 1799. CDs weren't devise invented until 1982."),
    ("words.delete", {"rate": 0.3}, "Washington died in CDs weren't until 1982."),
    ("words.replace", {"rate": 0.3},
     "pop off Washington died in CDs CDs weren't invented 1799. 1982."),
    ("visual.homoglyph", {"ratio": 0.5, "rate": 0.5},
     "George Washington died in 1799. ḈĎs wéṟȇn't invĕn𝓽еď until 1982."),
]


@pytest.mark.parametrize(("name", "params", "expected"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden(name: str, params: dict[str, float], expected: str) -> None:
    text, edits = perturb_text(name, S, seed=1, **params)
    assert text == expected
    assert edits
    for e in edits:
        assert S[e.start : e.start + len(e.before)] == e.before


@pytest.mark.parametrize("name", ["chars.repeat", "chars.delete", "chars.insert", "visual.homoglyph"])
def test_char_edits_rebuild_the_variant(name: str) -> None:
    for seed in range(20):
        text, edits = perturb_text(name, S, seed=seed, rate=0.7)
        rebuilt = S
        for e in sorted(edits, key=lambda e: -e.start):
            rebuilt = rebuilt[: e.start] + e.after + rebuilt[e.start + len(e.before):]
        assert rebuilt == text


def test_identical_across_processes_and_hash_seeds() -> None:
    code = (
        "from rattle.perturbations import perturb_text\n"
        f"S = {S!r}\n"
        "for n, p in [('chars.delete', {'rate': 0.5}), ('words.replace', {'rate': 0.4}),"
        " ('words.insert', {'rate': 0.4}), ('visual.homoglyph', {'ratio': 0.9})]:\n"
        "    print(perturb_text(n, S, seed=5, **p)[0])\n"
    )
    outs = set()
    for hashseed in ("0", "7", "4242"):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env={"PYTHONHASHSEED": hashseed, "PATH": "",
                                              "HOME": "/root"})
        outs.add(run.stdout)
    assert len(outs) == 1


@pytest.mark.parametrize("name", ["words.insert", "words.delete", "words.replace"])
def test_word_edits_rebuild_the_variant(name: str) -> None:
    """Replaying the edits on the original words gives the variant's words."""
    for seed in range(30):
        text, edits = perturb_text(name, S, seed=seed, rate=0.4)
        rebuilt = S
        for e in sorted(edits, key=lambda e: -e.start):
            if e.before:
                rebuilt = rebuilt[: e.start] + e.after + rebuilt[e.start + len(e.before):]
            else:
                rebuilt = rebuilt[: e.start] + e.after + " " + rebuilt[e.start:]
        # The text's last character is set aside and re-appended (RCC), so compare without
        # the spaces around it.
        assert rebuilt.replace(" ", "") == text.replace(" ", "")
        assert len(rebuilt.split()) - len(text.split()) in (0, 1)
