import asyncio
import json
from pathlib import Path

import pytest

from rattle.errors import ConfigError, DataError, UnknownNameError
from rattle.items import Message
from rattle.models import ChatRequest, load_model


def ask(model, *texts: str):  # type: ignore[no-untyped-def]
    reqs = [ChatRequest((Message("system", "s"), Message("user", t))) for t in texts]
    return asyncio.run(model.generate(reqs))


def test_echo_and_constant() -> None:
    assert [c.text for c in ask(load_model("scripted/echo"), "hi", "there")] == ["hi", "there"]
    assert ask(load_model("scripted/constant?text=(B)"), "q")[0].text == "(B)"


def test_rules_yaml_and_json(tmp_path: Path) -> None:
    y = tmp_path / "r.yaml"
    y.write_text("'capital of (\\w+)': 'It is the capital of \\1'\n'.*': '(A)'\n")
    m = load_model(f"scripted/rules?file={y}")
    assert [c.text for c in ask(m, "the capital of France?", "other")] == [
        "It is the capital of France", "(A)"]
    j = tmp_path / "r.json"
    j.write_text(json.dumps([{"pattern": "x", "reply": "X"}]))
    m2 = load_model(f"scripted/rules?file={j}&default=none")
    assert [c.text for c in ask(m2, "x", "y")] == ["X", "none"]


def test_rules_identity_follows_file_content(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    f.write_text('{"a": "1"}')
    first = load_model(f"scripted/rules?file={f}").identity
    f.write_text('{"a": "2"}')
    assert load_model(f"scripted/rules?file={f}").identity != first


def test_error_rate_is_a_deterministic_function_of_the_request() -> None:
    m = load_model("scripted/echo?error_rate=0.3&seed=1")
    texts = [f"q{i}" for i in range(200)]
    first = [c.ok for c in ask(m, *texts)]
    second = [c.ok for c in ask(load_model("scripted/echo?error_rate=0.3&seed=1"), *texts)]
    assert first == second
    share = first.count(False) / len(first)
    assert 0.18 < share < 0.42
    assert all(c.error for c in ask(m, *texts) if not c.ok)
    # Faults are not part of the identity: a clean rerun reuses a faulty run's answers.
    assert m.identity == load_model("scripted/echo?seed=1").identity


def test_bad_specs() -> None:
    with pytest.raises(UnknownNameError):
        load_model("nosuch/model")
    with pytest.raises(ConfigError):
        load_model("scripted/dance")
    with pytest.raises(ConfigError):
        load_model("scripted/echo?latency_ms=fast")
    with pytest.raises(ConfigError):
        load_model("scripted/rules")


def test_malformed_rules_file(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text("[{\"pattern\": \"x\"}]")
    with pytest.raises(DataError) as info:
        load_model(f"scripted/rules?file={f}")
    assert "bad.json" in str(info.value) and "reply" in str(info.value)
