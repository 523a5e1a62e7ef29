import json

from rattle.perturbations.visual import TOP_K, builtin_table, load_table
from tests.conftest import external


def test_builtin_table_top20_ranked_and_never_the_letter_itself() -> None:
    table = builtin_table()
    assert set(table) == set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for letter, (chars, sims) in table.items():
        assert 1 <= len(chars) <= TOP_K
        assert letter not in chars and letter.swapcase() not in chars
        assert list(sims) == sorted(sims, reverse=True)
    assert "а" in table["a"][0]  # Cyrillic a, a Unicode confusable


def test_viper_style_table_from_the_rcc_repository() -> None:
    path = external("LLMRiskEval_RCC", "DA", "visual_letter_map.json")
    table = load_table(str(path))
    raw = json.loads(path.read_text())
    assert table["a"][0] == tuple(raw["a"]["char"][:TOP_K])
    assert len(table) == 52
