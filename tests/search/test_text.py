"""Words of an attacked text and candidates built from changes, with exact edits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rattle.attacks.search.text import Change, build, split_words
from rattle.items import Edit


def apply(text: str, edits: tuple[Edit, ...]) -> str:
    out, at = [], 0
    for e in edits:
        assert text[e.start:e.start + len(e.before)] == e.before
        out += [text[at:e.start], e.after]
        at = e.start + len(e.before)
    return "".join(out) + text[at:]


def test_words_are_token_cores() -> None:
    words = split_words('He said: "Paris, France." -- ok')
    assert [(w.text, w.start, w.end) for w in words] == [
        ("He", 0, 2), ("said", 3, 7), ("Paris", 10, 15), ("France", 17, 23), ("ok", 29, 31)]


def test_replacements_and_deletions_with_their_edits() -> None:
    text = "The old merchant sold bread."
    words = split_words(text)
    made = build(text, words, {1: Change(1, "", "words.delete"), 4: Change(4, "brd", "chars.delete")})
    assert made.text == "The merchant sold brd."
    assert made.edits == (Edit(4, "old ", ""), Edit(22, "bread", "brd"))
    # The last word has no space after it: its deletion takes the space before it.
    last = build(text, words, {4: Change(4, "", "words.delete")})
    assert last.text == "The old merchant sold." and last.edits == (Edit(21, " bread", ""),)
    # Two deletions that would claim the same space.
    both = build("a b c.", split_words("a b c."), {1: Change(1, "", "d"), 2: Change(2, "", "d")})
    assert both.text == "a ." and [c.index for c in both.changes] == [1, 2]


@given(st.lists(st.sampled_from(["ab", "c", "Paris.", "--", "x,y", "éé"]), min_size=1, max_size=8),
       st.data())
def test_edits_rebuild_every_candidate(tokens: list[str], data: st.DataObject) -> None:
    text = " ".join(tokens)
    words = split_words(text)
    if not words:
        return
    picked = data.draw(st.sets(st.integers(0, len(words) - 1)))
    changes = {i: Change(i, data.draw(st.sampled_from(["", "Z", "yy"])), "t") for i in picked}
    made = build(text, words, changes)
    assert apply(text, made.edits) == made.text
