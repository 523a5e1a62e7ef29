from rattle.items import Item, Option, Question
from rattle.perturbations.base import apply
from rattle.perturbations.prompts import RCC_TEMPLATES
from rattle.suites.rcc_protocol import description_turn

Q = Question("Pick", ("b",), tuple(Option(t) for t in "abcd"), 1, (0, 1, 2, 3))
ITEM = Item(id="i", questions=(Q,), passage="P.")


def test_wording_swaps_the_instruction() -> None:
    v = apply("prompts.wording", ITEM, seed=0, params={"index": 3})
    assert description_turn(v.item) == RCC_TEMPLATES[3] + 'P."\n'
    assert description_turn(ITEM) == RCC_TEMPLATES[0] + 'P."\n'
    assert v.target == "prompt" and v.edits[0].after == RCC_TEMPLATES[3]


def test_cyclic_orders_put_every_option_in_every_position() -> None:
    seen = {p: set() for p in range(4)}
    for k in range(4):
        v = apply("options.order", ITEM, seed=0, params={"k": k, "mode": "cyclic"})
        q = v.item.questions[0]
        for pos, opt in enumerate(q.order):
            seen[pos].add(opt)
        assert q.displayed[q.order.index(q.correct)].text == "b"
    assert all(s == {0, 1, 2, 3} for s in seen.values())


def test_random_order_is_a_permutation_and_keeps_the_correct_option() -> None:
    v = apply("options.order", ITEM, seed=4, params={"k": 2})
    q = v.item.questions[0]
    assert sorted(q.order) == [0, 1, 2, 3]
    assert q.displayed[ord(q.correct_letter) - 65].text == "b"
