"""Property tests: parsers and loaders never crash on arbitrary input (hypothesis)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rattle.datasets import load_dataset
from rattle.errors import DataError
from rattle.judges.choice import extract_choice
from rattle.matching import exact_match, f1, has_answer
from rattle.suites.ralm import says_conflict, says_unanswerable

TEXT = st.text(max_size=300)


@settings(max_examples=300, deadline=None)
@given(reply=TEXT, options=st.lists(st.text(max_size=30), min_size=0, max_size=9))
def test_choice_extraction_is_total(reply: str, options: list[str]) -> None:
    got = extract_choice(reply, options)
    assert got.index is None or 0 <= got.index < len(options)


@settings(max_examples=300, deadline=None)
@given(answers=st.lists(TEXT, max_size=4), text=TEXT)
def test_answer_matching_is_total(answers: list[str], text: str) -> None:
    assert isinstance(has_answer(answers, text), bool)
    assert isinstance(exact_match(answers, text), bool)
    assert 0.0 <= f1(answers, text) <= 1.0
    assert isinstance(says_unanswerable(text) or says_conflict(text), bool)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=400))
def test_loaders_raise_only_data_errors(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        for name in ("x.jsonl", "x.json"):
            path = Path(d) / name
            path.write_bytes(data)
            try:
                items = load_dataset(str(path))
            except DataError as exc:
                assert str(path) in str(exc)
            else:
                assert items


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.dictionaries(st.sampled_from(["question", "answers", "ctxs", "id"]),
                                     st.one_of(st.none(), st.integers(), TEXT,
                                               st.lists(TEXT, max_size=3))), max_size=4))
def test_wrong_types_in_fields_name_the_field(rows: list[dict]) -> None:  # type: ignore[type-arg]
    import json

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "q.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows) or "\n")
        try:
            load_dataset(str(path))
        except DataError as exc:
            assert "q.jsonl" in str(exc)
