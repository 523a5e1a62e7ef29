"""The GitHub Actions example: it parses, it caches the store, every rattle command it runs
exists with the flags it passes, its experiment file validates, and the docs show it verbatim."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import typer
import yaml

from rattle.cli import app
from rattle.run.experiment import load_experiment

ROOT = Path(__file__).parents[1]
WORKFLOW = ROOT / "examples" / "github-actions" / "rattle.yml"


def workflow() -> dict[str, Any]:
    data = yaml.safe_load(WORKFLOW.read_text())
    assert isinstance(data, dict)
    return data


def steps() -> list[dict[str, Any]]:
    [job] = workflow()["jobs"].values()
    assert job["runs-on"] == "ubuntu-latest"
    return list(job["steps"])


def rattle_commands() -> list[list[str]]:
    out = []
    for step in steps():
        for line in str(step.get("run", "")).splitlines():
            words = shlex.split(line)
            if words and words[0] == "rattle":
                out.append(words[1:])
    return out


def test_the_workflow_parses_and_has_its_steps() -> None:
    data = workflow()
    triggers = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in triggers
    uses = [s.get("uses", "").split("@")[0] for s in steps()]
    assert uses[:2] == ["actions/checkout", "actions/setup-python"]
    assert {"actions/cache", "actions/upload-artifact"} <= set(uses)
    install = [s["run"] for s in steps() if "pip install" in str(s.get("run", ""))]
    assert install, "no install step"
    assert uses.index("actions/cache") < next(
        i for i, s in enumerate(steps()) if "rattle run" in str(s.get("run", "")))


def flag_value(args: list[str], flag: str) -> str | None:
    return args[args.index(flag) + 1] if flag in args else None


def test_every_command_exists_with_its_flags() -> None:
    group = typer.main.get_command(app)
    commands = rattle_commands()
    assert len(commands) >= 2
    for args in commands:
        name, rest = args[0], args[1:]
        command = group.commands.get(name)  # type: ignore[attr-defined]
        assert command is not None, f"rattle {name} does not exist"
        known = {opt for p in command.params for opt in p.opts + p.secondary_opts}
        flags = [a for a in rest if a.startswith("--")]
        assert flags and set(flags) <= known, f"unknown flags {set(flags) - known}"
        experiment = next(a for a in rest if not a.startswith("-"))
        assert (ROOT / experiment).is_file()
        load_experiment(ROOT / experiment)  # validated as `rattle run` would


def test_the_store_is_cached_and_the_report_uploaded() -> None:
    by_use = {s.get("uses", "").split("@")[0]: s for s in steps()}
    cache = by_use["actions/cache"]["with"]
    upload = by_use["actions/upload-artifact"]
    run = next(a for a in rattle_commands() if "--junit" in a)
    assert flag_value(run, "--workspace") == cache["path"] == ".rattle"
    assert "restore-keys" in cache and "hashFiles(" in cache["key"]
    out = flag_value(run, "--out")
    assert upload["with"]["path"] == out and upload.get("if") == "always()"
    assert str(flag_value(run, "--junit")).startswith(f"{out}/")
    junit = by_use["mikepenz/action-junit-report"]["with"]["report_paths"]
    assert junit == flag_value(run, "--junit")


def test_the_docs_show_the_tested_files_verbatim() -> None:
    docs = (ROOT / "docs" / "workflow.md").read_text()
    blocks = re.findall(r"```yaml\n(.*?)```", docs, re.S)
    for example in (WORKFLOW, ROOT / "examples" / "github-actions" / "experiment.yaml",
                    ROOT / "examples" / "experiment.yaml"):
        assert example.read_text() in blocks, f"{example.name} differs from docs/workflow.md"
