"""Experiment files: one YAML file describes a matrix of models × suites × datasets.

::

    models: ["scripted/echo", "scripted/constant?text=(A)"]
    suites: [quick]
    limit: 3

Keys: ``models`` and ``suites`` (lists, required); ``datasets`` (list; default: each suite's
own), ``seed``, ``limit``, ``judge`` (a model, for the suites that take one), ``concurrency``,
``params`` (suite → its options) and ``gates`` (``--fail-if`` expressions). Every value is
checked against the same typed options as the command line (``rattle.options``: a model's
options against its provider's factory, a suite's params against the suite's factory), and
every error names the file, the line and the key.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rattle import registry
from rattle.errors import ConfigError, DataError
from rattle.options import coerce, option_specs, valid_keys
from rattle.run.config import RUN_OPTIONS, RunConfig
from rattle.run.gates import Gate, GateError, parse_gate

KEYS = {
    "models": "list of model names (provider/name?options), required",
    "suites": "list of suite names, required",
    "datasets": "list of dataset files or built-in sets (default: each suite's own)",
    "seed": "int, the run seed of every cell",
    "limit": "int, items per dataset",
    "judge": "model that judges free-form answers (suites with a judge option)",
    "concurrency": "int, requests in flight per model",
    "params": "mapping suite -> its options (rattle list suite shows them)",
    "gates": "list of --fail-if expressions checked on every cell",
}
Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Cell:
    """One run of the matrix: a model, a suite and a dataset (None: the suite's own)."""

    index: int
    model: str
    suite: str
    dataset: str | None

    def folder(self) -> str:
        """``01-scripted-echo--quick``: numbered (so unique) and readable."""
        name = f"{self.index + 1:02d}-{slug(self.model)}--{slug(self.suite)}"
        if not self.dataset:
            return name
        head, sep, rest = self.dataset.partition(":")
        if not sep or "/" in head:  # a plain path: its file name
            head, rest = "", self.dataset
        base = Path(rest).name or rest
        return f"{name}--{slug(f'{head}-{base}' if head else base)}"

    def label(self) -> str:
        return f"{self.model} × {self.suite}" + (f" × {self.dataset}" if self.dataset else "")


@dataclass
class Experiment:
    """A validated experiment file."""

    path: Path
    models: list[str]
    suites: list[str]
    datasets: list[str | None] = field(default_factory=lambda: [None])
    seed: int = 0
    limit: int | None = None
    judge: str | None = None
    concurrency: int | None = None
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    gates: list[Gate] = field(default_factory=list)

    def cells(self) -> list[Cell]:
        """Models × suites × datasets, models outermost (in the file's order)."""
        out: list[Cell] = []
        for model in self.models:
            for suite in self.suites:
                for dataset in self.datasets:
                    out.append(Cell(len(out), model, suite, dataset))
        return out

    def config(self, cell: Cell, base: RunConfig, out_dir: Path) -> RunConfig:
        """The run configuration of ``cell``: the file's settings over the shared ``base``."""
        options = dict(base.suite_options)
        options = {k: v for k, v in options.items() if declares(cell.suite, k)}
        if self.judge is not None and declares(cell.suite, "judge"):
            options["judge"] = self.judge
        options.update(self.params.get(cell.suite, {}))
        return RunConfig(**{**base.__dict__, "suite": cell.suite, "model": cell.model,
                            "dataset": cell.dataset, "limit": self.limit, "seed": self.seed,
                            "concurrency": self.concurrency or base.concurrency,
                            "out": str(out_dir / cell.folder()), "suite_options": options})


def slug(text: str, limit: int = 48) -> str:
    """A folder-name-safe form of a model, suite or dataset name."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:limit] or "x"


def declares(suite: str, option: str) -> bool:
    """Whether the suite's factory takes ``option``."""
    return any(s.name == option for s in option_specs(registry.get("suite", suite).factory))


def is_experiment_file(arg: str) -> bool:
    return arg.lower().endswith((".yaml", ".yml"))


class _Source:
    """The parsed file with the line of every key and list entry."""

    def __init__(self, path: Path) -> None:
        import yaml

        self.path = path
        self.lines: dict[Path_, int] = {}
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DataError(f"cannot read the experiment file: {exc.strerror or exc}",
                            path=str(path)) from None
        try:
            loader = yaml.SafeLoader(text)
            try:
                node = loader.get_single_node()
                self.data = loader.construct_document(node) if node is not None else None
            finally:
                loader.dispose()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            raise DataError(f"not valid YAML: {exc.problem or exc}", path=str(path),
                            line=mark.line + 1 if mark else None) from None
        except yaml.YAMLError as exc:
            raise DataError(f"not valid YAML: {exc}", path=str(path)) from None
        if node is not None:
            self._walk(node, ())

    def _walk(self, node: Any, at: Path_) -> None:
        import yaml

        self.lines.setdefault(at, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                k = (str(key.value),)
                self.lines[at + k] = key.start_mark.line + 1
                self._walk(value, at + k)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, (*at, i))

    def error(self, at: Path_, message: str, fix: str | None = None) -> DataError:
        line = self.lines.get(at)
        probe = at
        while line is None and probe:
            probe = probe[:-1]
            line = self.lines.get(probe)
        key = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                      for i, p in enumerate(at)) or None
        return DataError(message, path=str(self.path), line=line, field=key, fix=fix)


def load_experiment(path: str | Path) -> Experiment:
    """Read and validate an experiment file; errors name the file, the line and the key."""
    src = _Source(Path(path))
    data = src.data
    if not isinstance(data, Mapping):
        raise src.error((), "an experiment file is a mapping of keys",
                        fix="start with `models: [...]` and `suites: [...]`")
    for key in data:
        if key not in KEYS:
            raise src.error((str(key),), f"unknown key {key!r}; valid keys: "
                            + ", ".join(f"{k} ({v})" for k, v in KEYS.items()))
    for key in ("models", "suites"):
        if key not in data:
            raise src.error((), f"missing key {key!r}", fix=f"add `{key}: [...]` ({KEYS[key]})")
    models = _names(src, data, "models")
    for i, model in enumerate(models):
        _check_model(src, ("models", i), model)
    suites = _names(src, data, "suites")
    for i, suite in enumerate(suites):
        _checked(src, ("suites", i), lambda s=suite: registry.get("suite", s))
    exp = Experiment(Path(path), models, suites)
    if data.get("datasets") is not None:
        exp.datasets = list(_names(src, data, "datasets"))
        for i, spec in enumerate(exp.datasets):
            exp.datasets[i] = _dataset(src, ("datasets", i), str(spec))
    exp.seed = _typed(src, data, "seed", int, 0)
    exp.limit = _typed(src, data, "limit", int, None, minimum=1)
    exp.concurrency = _typed(src, data, "concurrency", int, None, minimum=1)
    if data.get("judge") is not None:
        judge = data["judge"]
        if not isinstance(judge, str) or not judge.strip():
            raise src.error(("judge",), "judge must be a model name", fix="e.g. judge: openai/gpt-4o")
        _check_model(src, ("judge",), judge)
        if not any(declares(s, "judge") for s in suites):
            raise src.error(("judge",), "none of the suites takes a judge",
                            fix="remove judge, or add a suite that judges free-form answers "
                                "(factoid.*)")
        exp.judge = judge
    exp.params = _params(src, data.get("params"), suites)
    exp.gates = _gates(src, data.get("gates"))
    return exp


def _names(src: _Source, data: Mapping[str, Any], key: str) -> list[str]:
    value = data[key]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value:
        raise src.error((key,), f"{key} must be a non-empty list", fix=f"{key}: [a, b]")
    for i, v in enumerate(value):
        if not isinstance(v, str) or not v.strip():
            raise src.error((key, i), f"{key} entries must be names (text), got {v!r}")
    if len(set(value)) != len(value):
        dup = next(v for v in value if value.count(v) > 1)
        raise src.error((key, value.index(dup, value.index(dup) + 1)), f"{dup!r} is listed twice")
    return [v.strip() for v in value]


def _checked(src: _Source, at: Path_, check: Any) -> Any:
    try:
        return check()
    except ConfigError as exc:
        raise src.error(at, str(exc)) from None


def _check_model(src: _Source, at: Path_, spec: str) -> None:
    from rattle.models import parse_spec
    from rattle.options import bind

    parsed = _checked(src, at, lambda: parse_spec(spec))
    entry = _checked(src, at, lambda: registry.get("model", parsed.provider))
    _checked(src, at, lambda: bind(entry.factory, parsed.options, where=f"model {spec}"))


def _dataset(src: _Source, at: Path_, spec: str) -> str:
    """A built-in set, ``format:...`` as is, or a path (relative to the experiment file)."""
    from rattle.datasets import BUILTIN

    if spec in BUILTIN or ":" in spec:
        return spec
    candidates = [Path(spec), src.path.parent / spec]
    for c in candidates:
        if c.exists():
            return str(c)
    raise src.error(at, f"no such dataset file or built-in set {spec!r}",
                    fix="a path (relative to the experiment file or the current folder), "
                        "or one of: " + ", ".join(sorted(BUILTIN)))


def _typed(src: _Source, data: Mapping[str, Any], key: str, tp: type, default: Any, *,
           minimum: int | None = None) -> Any:
    if data.get(key) is None:
        return default
    try:
        value = coerce(data[key], tp)
    except (ValueError, TypeError):
        raise src.error((key,), f"{key}={data[key]!r} is not a valid {tp.__name__}") from None
    if minimum is not None and value < minimum:
        raise src.error((key,), f"{key} must be at least {minimum}, got {value}")
    return value


def _params(src: _Source, raw: Any, suites: Sequence[str]) -> dict[str, dict[str, Any]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise src.error(("params",), "params maps a suite to its options",
                        fix="params: {rcc.robustness: {samples: 2}}")
    out: dict[str, dict[str, Any]] = {}
    for suite, options in raw.items():
        at: Path_ = ("params", str(suite))
        if suite not in suites:
            raise src.error(at, f"params for {suite!r}, which is not in suites "
                            f"({', '.join(suites)})")
        if not isinstance(options, Mapping):
            raise src.error(at, f"params of {suite} must be a mapping of options")
        specs = {s.name: s for s in option_specs(registry.get("suite", suite).factory,
                                                 skip=RUN_OPTIONS)}
        bound: dict[str, Any] = {}
        for key, value in options.items():
            where = (*at, str(key))
            if key in RUN_OPTIONS:
                raise src.error(where, f"{key} is set for every cell, not per suite",
                                fix=f"move it to the top of the file (`{key}: ...`)"
                                if key in KEYS else "remove it")
            spec = specs.get(key)
            if spec is None:
                raise src.error(where, f"suite {suite} has no option {key!r}; valid options: "
                                f"{valid_keys(list(specs.values()))}")
            try:
                bound[key] = None if value is None and spec.default is None else coerce(value, spec.type)
            except (ValueError, TypeError):
                raise src.error(where, f"{key}={value!r} is not a valid {spec.type_name()}") from None
        missing = [s.name for s in specs.values() if s.required and s.name not in bound]
        if missing:
            raise src.error(at, f"suite {suite} needs option(s) {', '.join(missing)}")
        out[str(suite)] = bound
    return out


def _gates(src: _Source, raw: Any) -> list[Gate]:
    if raw is None:
        return []
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        raise src.error(("gates",), "gates must be a list of expressions",
                        fix='gates: ["asr>0.3", "accuracy[attack=original]<0.6"]')
    out = []
    for i, text in enumerate(raw):
        if not isinstance(text, str):
            raise src.error(("gates", i), f"a gate is an expression in quotes, got {text!r}")
        try:
            out.append(parse_gate(text, allow_delta=True))
        except GateError as exc:
            raise src.error(("gates", i), str(exc)) from None
    return out
