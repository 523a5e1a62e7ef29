"""The Parquet export: built from buffers (no pandas), one read of results.jsonl when the sink
names the columns; the same file as ``Table.from_pylist`` over the flattened records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from rattle.run.outputs import TYPED, Columns, _flat, write_parquet  # noqa: E402

RECORDS: list[dict[str, Any]] = [
    {"id": "a", "correct": True, "seed": 3, "group": {"prompt": "unans", "attack": "x"},
     "answer": "Paris é", "documents": ["d1", "d2"], "label": {"k": 1}},
    {"id": "b", "correct": None, "seed": None, "group": {"attack": "y", "level": 2},
     "answer": None, "documents": [], "zeta": 1.5},
    {"id": "c", "correct": False, "sub": 2**40, "group": {"prompt": "x"}, "answer": "",
     "alpha": "new at row 3"},
]


def reference(path: Path, results: Path) -> None:
    """The export as it was: columns from a first read, rows by ``Table.from_pylist``."""
    columns: dict[str, None] = {}
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    for r in rows:
        for k, v in r.items():
            if k == "group":
                for gk in v:
                    columns.setdefault(f"group.{gk}", None)
            else:
                columns.setdefault(k, None)
    schema = pa.schema([(c, getattr(pa, TYPED.get(c, "string"))()) for c in columns])
    with pq.ParquetWriter(path, schema) as writer:
        writer.write_table(pa.Table.from_pylist([_flat(r) for r in rows], schema=schema))


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n"
                            for r in records), encoding="utf-8")
    return path


def test_columns_from_records_in_memory_match_the_file_order(tmp_path: Path) -> None:
    results = write_jsonl(tmp_path / "results.jsonl", RECORDS)
    seen = Columns()
    for r in RECORDS:  # the sink's view: keys in insertion order, not sorted
        seen.add(r)
    assert list(seen.names) == [
        "answer", "correct", "documents", "group.attack", "group.prompt", "id", "label", "seed",
        "group.level", "zeta", "alpha", "sub"]
    write_parquet(tmp_path / "sink.parquet", results, seen)
    write_parquet(tmp_path / "read.parquet", results)
    reference(tmp_path / "ref.parquet", results)
    ref = (tmp_path / "ref.parquet").read_bytes()
    assert (tmp_path / "sink.parquet").read_bytes() == ref
    assert (tmp_path / "read.parquet").read_bytes() == ref
    table = pq.read_table(tmp_path / "sink.parquet")
    assert table.column("correct").to_pylist() == [True, None, False]
    assert table.column("sub").to_pylist() == [None, None, 2**40]
    assert table.column("documents").to_pylist() == ['["d1", "d2"]', "[]", None]
    assert table.column("answer").to_pylist() == ["Paris é", None, ""]
    assert table.column("zeta").to_pylist() == [None, "1.5", None]


@pytest.mark.parametrize("record", [{"id": "a", "seed": "three"}, {"id": "a", "seed": True},
                                    {"id": "a", "correct": 1}])
def test_values_of_another_type_fail_as_arrow_does(tmp_path: Path, record: dict[str, Any]) -> None:
    bad = write_jsonl(tmp_path / "bad.jsonl", [record])
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError)) as ours:
        write_parquet(tmp_path / "bad.parquet", bad)
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError)) as theirs:
        reference(tmp_path / "ref.parquet", bad)
    assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)


def test_no_records_still_writes_the_schema(tmp_path: Path) -> None:
    empty = write_jsonl(tmp_path / "results.jsonl", [])
    assert write_parquet(tmp_path / "results.parquet", empty)
    assert pq.read_table(tmp_path / "results.parquet").num_rows == 0


def test_the_export_does_not_import_pandas(tmp_path: Path) -> None:
    results = write_jsonl(tmp_path / "results.jsonl", RECORDS)
    code = ("import sys; from pathlib import Path; from rattle.run.outputs import write_parquet; "
            f"write_parquet(Path({str(tmp_path / 'r.parquet')!r}), Path({str(results)!r})); "
            "print('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
