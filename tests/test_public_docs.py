"""Every public class and registered factory of the package says what it is."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "rattle"


def test_every_public_class_has_a_docstring() -> None:
    missing = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (isinstance(node, ast.ClassDef) and not node.name.startswith("_")
                    and ast.get_docstring(node) is None):
                missing.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}")
    assert missing == []


def test_boolean_switches_are_keyword_only() -> None:
    """A bare True/False at a call site says nothing: a boolean switch (a bool parameter with
    a default) is keyword-only. Booleans that are data (an outcome) may stay positional."""
    offenders = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            positional = node.args.posonlyargs + node.args.args
            with_default = positional[len(positional) - len(node.args.defaults):]
            for arg in with_default:
                ann = ast.unparse(arg.annotation) if arg.annotation else ""
                if ann == "bool" or ann.startswith("bool |"):
                    offenders.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}({arg.arg})")
    assert offenders == []
