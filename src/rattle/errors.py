"""One exception hierarchy. Every message names what is wrong and how to fix it."""

from __future__ import annotations


class RattleError(Exception):
    """Base class: the CLI prints ``str(error)`` on one line and exits with status 2."""


class ConfigError(RattleError):
    """A bad setting: CLI value, model spec, suite parameter."""


class UnknownNameError(ConfigError):
    """A registered name (model, perturbation, suite, ...) that does not exist."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        shown = ", ".join(sorted(known)[:30]) or "(none)"
        super().__init__(
            f"unknown {kind} {name!r}; known {kind}s: {shown} (run `rattle list {kind}`)"
        )
        self.kind = kind
        self.name = name


class MissingExtraError(RattleError):
    """An optional dependency is not installed."""

    def __init__(self, module: str, extra: str, what: str) -> None:
        super().__init__(
            f"{what} needs the Python package {module!r}, which is not installed; "
            f"fix: pip install 'rattle[{extra}]'"
        )
        self.module = module
        self.extra = extra


class DataError(RattleError):
    """Malformed input data. Names file, line and field."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
        fix: str | None = None,
    ) -> None:
        where = ""
        if path is not None:
            where = str(path)
            if line is not None:
                where += f":{line}"
            where += ": "
        text = where + message
        if field is not None:
            text += f" (field {field!r})"
        if fix:
            text += f"; fix: {fix}"
        super().__init__(text)
        self.path = path
        self.line = line
        self.field = field


class BackendError(RattleError):
    """A model backend cannot be used at all (no key, unreachable server, bad model file)."""


class RunAborted(RattleError):
    """A run stopped before finishing (limit reached, interrupted); what was done is kept."""
