"""A separate package registers a perturbation, a model and a suite through entry points.

The plugin (tests/plugins/rattle_example_plugin) is installed with pip into a temporary
folder and put on the path of a rattle process: rattle lists its entries with their typed
options, runs its suite on its model and applies its perturbation, as for built-ins.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugins" / "rattle_example_plugin"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "--target", str(target), str(PLUGIN)],
                   check=True, capture_output=True)
    return target


def rattle(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src")])}
    return subprocess.run([sys.executable, "-m", "rattle.cli", *args], capture_output=True,
                          text=True, env=env, cwd=cwd)


def test_plugin_entries_are_listed_with_typed_options(site: Path, tmp_path: Path) -> None:
    out = rattle(site, "list", "suite", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "example.contains@1" in out.stdout and "prefix: str = Q:" in out.stdout
    assert "rcc.robustness@1" in out.stdout  # built-ins are still there
    out = rattle(site, "list", "perturbation", cwd=tmp_path)
    assert "example.shout@3" in out.stdout and "suffix: str = !" in out.stdout
    out = rattle(site, "list", "model", cwd=tmp_path)
    assert "reverse@1" in out.stdout and "upper: bool = False" in out.stdout


def test_plugin_suite_runs_on_the_plugin_model(site: Path, tmp_path: Path) -> None:
    out = rattle(site, "run", "example.contains", "--model", "reverse/x?upper=true", "--limit",
                 "3", "--param", "prefix=>>", "--out", str(tmp_path / "r"), "--workspace",
                 str(tmp_path / "ws"), "--max-unmeasured", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    records = [json.loads(x) for x in (tmp_path / "r" / "results.jsonl").read_text().splitlines()]
    assert len(records) == 3
    assert records[0]["response"] == (">>" + records[0]["question"])[::-1].upper()
    run = json.loads((tmp_path / "r" / "metrics.json").read_text())
    assert run["run"]["model"] == "reverse/x"
    assert run["metrics"][0]["name"] == "accuracy" and run["metrics"][0]["n"] == 3
    bad = rattle(site, "run", "example.contains", "--model", "reverse/x", "--param", "prefx=1",
                 "--workspace", str(tmp_path / "ws"), cwd=tmp_path)
    assert bad.returncode == 2 and "valid options: dataset" in bad.stderr and "prefix (str)" in bad.stderr


def test_plugin_perturbation_applies_with_provenance(site: Path, tmp_path: Path) -> None:
    data = tmp_path / "claims.jsonl"
    data.write_text(json.dumps({"question": "who wrote it", "answers": ["x"]}) + "\n")
    out = rattle(site, "perturb", str(data), str(tmp_path / "v.jsonl"), "--attack",
                 "example.shout", "--param", "suffix=?!", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    row = json.loads((tmp_path / "v.jsonl").read_text())
    assert row["questions"] == ["WHO WROTE IT?!"]
    assert row["attack"] == "example.shout" and row["version"] == 3
    assert row["edits"] == [[0, "who", "WHO"], [4, "wrote", "WROTE"], [10, "it", "IT"]]
