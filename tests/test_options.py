"""Typed options: a factory's signature is its configuration, checked in one place."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest

from rattle.errors import ConfigError
from rattle.options import bind, coerce, non_defaults, option_specs


def factory(name: str, *, samples: Annotated[int, "variants per item"] = 2,
            rate: float = 0.5, protocol: Literal["multi", "single"] = "multi",
            compat: bool = False, limit: int | None = None,
            attacks: tuple[str, ...] = ("a",), path: str | None = None) -> dict[str, object]:
    return dict(locals())


def test_specs_read_types_defaults_and_docs_from_the_signature() -> None:
    specs = {s.name: s for s in option_specs(factory)}
    assert list(specs) == ["samples", "rate", "protocol", "compat", "limit", "attacks", "path"]
    assert specs["samples"].doc == "variants per item" and specs["samples"].default == 2
    assert specs["samples"].describe() == "samples: int = 2  variants per item"
    assert specs["protocol"].type_name() == "multi|single"
    assert specs["limit"].type_name() == "int?"
    assert specs["attacks"].type_name() == "list of str"


@pytest.mark.parametrize(("value", "tp", "expected"), [
    ("3", int, 3), (3.0, int, 3), ("0.25", float, 0.25), (2, float, 2.0),
    ("true", bool, True), ("0", bool, False), (True, bool, True), ("single", Literal["multi", "single"], "single"),
    ("none", int | None, None), ("7", int | None, 7), ("a, b,c", tuple[str, ...], ("a", "b", "c")),
    (["x", "y"], tuple[str, ...], ("x", "y")), ("2", float | None, 2.0), ("abc", str, "abc"),
])
def test_coerce_casts_text_and_parsed_values(value: object, tp: object, expected: object) -> None:
    assert coerce(value, tp) == expected


@pytest.mark.parametrize(("value", "tp"), [
    ("many", int), ("1.5", int), ("yes please", bool), ("triple", Literal["multi", "single"]),
    (True, int), ("x", float),
])
def test_coerce_refuses_values_of_another_type(value: object, tp: object) -> None:
    with pytest.raises(ValueError):
        coerce(value, tp)


def test_bind_casts_and_names_valid_keys_in_errors() -> None:
    assert bind(factory, {"samples": "4", "compat": "1", "limit": "10"}, where="suite x") == {
        "samples": 4, "compat": True, "limit": 10}
    with pytest.raises(ConfigError) as info:
        bind(factory, {"sample": "4"}, where="suite x")
    assert str(info.value) == (
        "suite x: unknown option 'sample'; valid options: samples (int), rate (float), "
        "protocol (multi|single), compat (bool), limit (int?), attacks (list of str), path (str?)")
    with pytest.raises(ConfigError, match=r"suite x: option protocol='triple' is not a valid multi\|single"):
        bind(factory, {"protocol": "triple"}, where="suite x")


def test_lenient_keys_are_dropped_only_when_undeclared() -> None:
    assert bind(factory, {"base_url": "http://x", "samples": 3}, where="m",
                lenient=("base_url", "samples")) == {"samples": 3}


def test_required_options_are_reported() -> None:
    def needs(*, url: str, retries: int = 1) -> None: ...

    with pytest.raises(ConfigError, match=r"missing option.*url"):
        bind(needs, {}, where="system http")


def test_non_defaults_keeps_what_the_user_changed() -> None:
    assert non_defaults(factory, samples=2, rate=0.7, compat=False) == {"rate": 0.7}
