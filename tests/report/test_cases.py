"""The case view: edits located in the perturbed text, or shown as changed spans alone."""

from __future__ import annotations

from rattle.perturbations import perturb_texts
from rattle.report.cases import fragments, locate, slim


def test_a_substitution_is_located() -> None:
    assert locate("The cat sat.", [[4, "dog", "cat"]]) == [
        ["t", "The "], ["e", "cat", "dog"], ["t", " sat."]]


def test_edits_that_change_lengths_shift_the_later_ones() -> None:
    text = "George Washington die=d i^n 17{99."
    edits = [[23, "in", "i^n"], [18, "died", "die=d"], [26, "1799.", "17{99."]]  # any order
    assert locate(text, edits) == [
        ["t", "George Washington "], ["e", "die=d", "died"], ["t", " "], ["e", "i^n", "in"],
        ["t", " "], ["e", "17{99.", "1799."]]


def test_deletions_and_insertions() -> None:
    assert locate("a  dog", [[2, "big", ""], [6, "dog", "cat"]]) is None  # "cat" is not there
    assert locate("a  cat", [[2, "big", ""], [6, "dog", "cat"]]) == [
        ["t", "a "], ["e", "", "big"], ["t", " "], ["e", "cat", "dog"]]
    assert locate("a very big dog", [[2, "", "very "]]) == [
        ["t", "a "], ["e", "very ", ""], ["t", "big dog"]]
    # Deletions alone cannot be confirmed in the text: shown as spans, not misplaced.
    assert locate("a  dog", [[2, "big", ""]]) is None


def test_real_perturbations_round_trip() -> None:
    """Whatever the perturbation, the located segments rebuild the perturbed text, and with
    the befores instead of the afters, the original."""
    original = "The river Seine flows through Paris before reaching the English Channel."
    for attack in ("chars.delete", "chars.insert", "chars.repeat"):
        [(text, edits)] = perturb_texts(attack, [original], seed=3, rate=0.5)
        segments = locate(text, [list(e) for e in edits])
        assert segments is not None, attack
        assert "".join(s[1] for s in segments) == text
        assert "".join(s[1] if s[0] == "t" else s[2] for s in segments) == original


def test_word_deletions_fall_back_to_spans() -> None:
    original = "The river Seine flows through Paris before reaching the English Channel."
    [(text, edits)] = perturb_texts("words.delete", [original], seed=3, rate=0.5)
    assert locate(text, [list(e) for e in edits]) is None  # separators are not in the edits
    assert [s for s in fragments([list(e) for e in edits]) if s[0] == "e"] == [
        ["e", "", e.before] for e in edits]


def test_edits_that_do_not_land_give_none() -> None:
    assert locate("The cat sat.", [[4, "dog", "cow"]]) is None  # another text
    assert locate("ab", [[0, "x", "a"], [0, "y", "b"]]) is None  # overlapping (option orders)
    assert locate("text", []) is None
    assert locate("What is it?", [[0, "", ""]]) is None  # a whole rewrite, nothing to mark


def test_fragments_keep_neighbours_together_and_mark_gaps() -> None:
    edits = [[16, "flows", "fl"], [10, "Seine", "Se"], [30, "Paris", "Ps"]]
    assert fragments(edits) == [["g"], ["e", "Se", "Seine"], ["t", " "], ["e", "fl", "flows"],
                                ["g"], ["e", "Ps", "Paris"], ["g"]]
    assert fragments([[0, "", ""]]) == []


def record(**extra: object) -> dict[str, object]:
    base: dict[str, object] = {
        "case_id": "c", "attack": "chars.delete", "group": {"level": "", "sub": 0,
                                                           "condition": "x"},
        "question": "Which city?", "response": "(B)", "parsed": "B", "gold": "B",
        "correct": True, "status": "parsed", "part": "rcc.robustness", "target": "passage",
        "edits": []}
    base.update(extra)
    return base


def test_slim_picks_the_field_the_edits_belong_to() -> None:
    on_question = slim(record(target="question", question="Wich city?",
                              edits=[[0, "Which", "Wich"]]), composite=False)
    assert on_question["seg"] == [["e", "Wich", "Which"], ["t", " city?"]]
    assert on_question["seg_field"] == "question" and on_question["question"] is None
    on_claim = slim(record(target="claim", question="Was it 1854?", claim="It is 1854.",
                           edits=[[6, "1844", "1854"]]), composite=False)
    assert on_claim["seg_field"] == "claim" and on_claim["question"] == "Was it 1854?"
    on_passage = slim(record(edits=[[10, "Seine", "Se"]]), composite=True)
    assert "seg" not in on_passage and on_passage["frag"] == [["g"], ["e", "Se", "Seine"], ["g"]]
    assert on_passage["tags"] == ["part=rcc.robustness", "condition=x"]
    # a search record keeps its edited text in labels.text_after: the edits are shown in place
    searched = slim(record(edits=[[4, "Seine", "Se"]], labels={"text_after": "The Se flows."}),
                    composite=False)
    assert searched["seg"] == [["t", "The "], ["e", "Se", "Seine"], ["t", " flows."]]
    assert searched["seg_field"] == "passage" and "frag" not in searched
    # on the question too: the record's question is the original, the edited one is text_after
    # (a deletion at a word's end would also "fit" the original)
    on_search_question = slim(record(target="question", question="Where does the Seine flow?",
                                     edits=[[15, "Seine", "Sein"]],
                                     labels={"text_after": "Where does the Sein flow?"}),
                              composite=False)
    assert on_search_question["seg"] == [["t", "Where does the "], ["e", "Sein", "Seine"],
                                         ["t", " flow?"]]
    assert on_search_question["seg_field"] == "question"
    # a text the edits do not fit falls back to the spans
    misfit = slim(record(edits=[[4, "Seine", "Se"]], labels={"text_after": "No."}), composite=False)
    assert "seg" not in misfit and misfit["frag"] == [["g"], ["e", "Se", "Seine"], ["g"]]
