"""RALM abstention and conflict detection in the two named modes (issue 14, item 3)."""

from __future__ import annotations

import pytest

from rattle.errors import ConfigError
from rattle.judges.ralm import (classify_reply, detect_conflict, detect_unanswerable, has_content,
                                says_conflict, says_unanswerable)

ABSTAIN = [
    # reply, paper mode, broad mode
    ("unanswerable", True, True),
    ("Unanswerable.", True, True),
    ("It is not unanswerable: Paris.", False, False),
    ("Paris (the question is not 'unanswerable').", False, False),
    ("The documents do not say who wrote it.", False, True),
    ("I don't know.", False, True),
    ("Not mentioned in the documents.", False, True),
    ("N/A", False, True),
    ("There is not enough information to answer.", False, True),
    ("The documents don't say, but it is Shakespeare.", False, False),
    ("Paris. The documents mention no other city.", False, False),
    ("Paris", False, False),
    ("<think>Not unanswerable: Document 3 says Dylan.</think>\n\nBob Dylan", False, False),
]
CONFLICT = [
    ("conflict", True, True),
    ("Conflicting information.", True, True),
    ("There is no conflicting information; it is 1889.", False, False),
    ("1889 (no conflict)", False, False),
    ("The documents disagree: one says 1889, another 1887.", False, True),
    ("The documents contradict each other.", False, True),
    ("Document 1 says 1889, while Document 4 says 1887.", False, True),
    ("Shakespeare, though Document 2 attributes it to Marlowe.", False, True),
    ("Germany (Documents 1-4 all agree)", False, False),
    ("No contradictions found: 1889.", False, False),
    ("1889", False, False),
]


@pytest.mark.parametrize(("reply", "paper", "broad"), ABSTAIN, ids=[c[0][:30] for c in ABSTAIN])
def test_unanswerable(reply: str, paper: bool, broad: bool) -> None:
    assert says_unanswerable(reply) is paper  # paper mode is the default
    assert says_unanswerable(reply, mode="broad") is broad


@pytest.mark.parametrize(("reply", "paper", "broad"), CONFLICT, ids=[c[0][:30] for c in CONFLICT])
def test_conflict(reply: str, paper: bool, broad: bool) -> None:
    assert says_conflict(reply) is paper
    assert says_conflict(reply, mode="broad") is broad


def test_detections_say_which_rule_decided() -> None:
    assert detect_unanswerable("unanswerable").how == "unanswerable"
    assert detect_unanswerable("I don't know", mode="broad").how == "abstention phrase"
    assert detect_unanswerable("The documents don't say, but it is X.", mode="broad").how == \
        "abstains, then answers"
    assert detect_conflict("The documents disagree.", mode="broad").how == "conflict phrase"
    assert detect_conflict("Doc 1 says X, but Doc 2 says Y.", mode="broad").how == \
        "documents contrasted"
    assert not detect_conflict("Paris")


def test_classify_reply_uses_the_label_vocabulary() -> None:
    assert classify_reply("conflict", prompt="conflict") == "conflict"
    assert classify_reply("conflict", prompt="unans") == "answer"  # only the Conflict prompt asks
    assert classify_reply("unanswerable", prompt="conflict") == "abstain"
    assert classify_reply("I don't know", prompt="unans") == "answer"
    assert classify_reply("I don't know", prompt="unans", mode="broad") == "abstain"
    assert classify_reply("Paris", prompt="unans") == "answer"
    for empty in ("", "  ", "...", "Question: Who?\nAnswer:"):
        assert not has_content(empty)
        assert classify_reply(empty, prompt="unans") is None


def test_unknown_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="broad"):
        says_conflict("x", mode="loose")  # type: ignore[arg-type]
