"""rattle.files: atomic writes and JSONL objects with errors that name the file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rattle.errors import DataError
from rattle.files import atomic_write_text, jsonl_objects


def test_jsonl_objects_number_lines_and_skip_blanks(tmp_path: Path) -> None:
    p = tmp_path / "a.jsonl"
    p.write_text('{"a": 1}\n\n  \n{"b": [2]}\n', encoding="utf-8")
    assert list(jsonl_objects(p)) == [(1, {"a": 1}), (4, {"b": [2]})]


@pytest.mark.parametrize(("text", "message"), [
    ('{"a": 1}\n{"a": \n', r"b\.jsonl:2: not valid JSON"),
    ('{"a": 1}\n\n[1, 2]\n', r"b\.jsonl:3: not a JSON object"),
])
def test_jsonl_objects_name_the_bad_line(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "b.jsonl"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=message):
        list(jsonl_objects(p))


def test_jsonl_objects_name_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"missing\.jsonl.*cannot read the knowledge corpus"):
        list(jsonl_objects(tmp_path / "missing.jsonl", "the knowledge corpus"))


def test_atomic_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    p = tmp_path / "out.txt"
    atomic_write_text(p, "one")
    atomic_write_text(p, "two")
    assert p.read_text() == "two" and sorted(x.name for x in tmp_path.iterdir()) == ["out.txt"]


def test_atomic_dir_renames_a_filled_folder_and_drops_a_failed_one(tmp_path: Path) -> None:
    from rattle.files import atomic_dir

    target = tmp_path / "sub" / "index"
    with pytest.raises(RuntimeError), atomic_dir(target, "done.txt") as tmp:
        (tmp / "part.bin").write_bytes(b"x")
        raise RuntimeError("killed half way")
    assert not target.exists() and list(target.parent.iterdir()) == []
    with atomic_dir(target, "done.txt") as tmp:
        (tmp / "done.txt").write_text("1")
        assert not target.exists()  # nothing is visible before the block ends
    assert (target / "done.txt").read_text() == "1"
    # another process got there first: its copy is kept, this one dropped
    with atomic_dir(target, "done.txt") as tmp:
        (tmp / "done.txt").write_text("2")
    assert (target / "done.txt").read_text() == "1"
    assert [p.name for p in target.parent.iterdir()] == ["index"]
