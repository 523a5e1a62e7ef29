import pytest

from rattle.matching import exact_match, f1, has_answer, squad_normalize


@pytest.mark.parametrize(
    ("answers", "text", "expected"),
    [
        (["Paris"], "The capital is Paris.", True),
        (["Paris"], "Parisian cafes", False),  # token match, not substring
        (["New York City"], "in new york city, usa", True),
        (["New York City"], "New York", False),
        (["Zürich"], "ZU\u0308RICH is in Switzerland", True),  # NFD + lower-case
        (["7", "seven"], "A week has seven days", True),
        (["H2O"], "h2o", True),
        ([], "anything", False),
    ],
)
def test_has_answer(answers: list[str], text: str, expected: bool) -> None:
    assert has_answer(answers, text) is expected


def test_squad_normalisation_em_f1() -> None:
    assert squad_normalize("The  Eiffel-Tower!") == "eiffeltower"
    assert exact_match(["the Pacific Ocean"], "Pacific ocean.")
    assert not exact_match(["Pacific"], "Pacific Ocean")
    # pred tokens: pacific ocean (2); gold: pacific (1); overlap 1 -> P=1/2, R=1 -> F1=2/3
    assert f1(["Pacific"], "the Pacific Ocean") == pytest.approx(2 / 3)
    # "a" is an article and is dropped; gold w b c d (4), pred b c x (3), overlap 2
    assert f1(["w b c d"], "b c x") == pytest.approx(2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4))
    assert f1(["x", "Pacific"], "Pacific") == 1.0
    assert f1(["x"], "") == 0.0
