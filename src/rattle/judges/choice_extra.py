"""Smaller choice rules added for the fifth dev file (choice.py stays under 500 lines).

- ``either_or``: "either A (Koala) or D (Lemur)", "either Koala or Lemur" leaves two options
  open (a hit marked ambiguous, so a later commitment still wins);
- ``false_named``: "D is false — spiders have eight legs" names D when the question asks which
  statement is false (a NOT-question read as the reply words it);
- ``fills_blank``: "A hour ago." for 'Which article completes "___ hour ago"?': the question's
  phrase restated with exactly one option in its blank;
- ``closing_doubt``: a reply whose last sentence only says the writer is unsure ("Hard to say.",
  "I'm unsure.", "So maybe.") or leaves the choice open ("True or false depends on the
  definition.", "It could go either way.", "Hard to pick just one.") after a verdict: personal
  uncertainty on a choice item is a hedge;
- ``declines_to_verify``: "I'm sorry, but I can't verify historical facts.", "As an AI, I cannot
  verify claims about authorship.": a refusal of the task, not "Unable to determine";
- ``counted``: "… — four of them. Answer: D" on a "how many" question: the count the reply
  states, to check a letter against.

Added for the sixth dev file: ``not_but`` ("so not C but A" chooses A); ``counterfactual`` ("If
it were compounded it would be $1,157.63 (C)" names no choice); ``few_words_repeated`` (a loop
of one value among a few repeated words, "28 days 28 days February February"); ``closing_doubt`` also
reads a closing sentence that leaves the choice open ("It could go either way.", "Hard to pick
just one.", "True or false depends on the definition.", "So maybe.").
"""

from __future__ import annotations

import re
from collections import Counter

from rattle.judges import letters, numbers
from rattle.judges.letters import TOKEN, Hit
from rattle.judges.reply import OR_WORD, normalise, sentences

__all__ = [
    "closing_doubt",
    "counted",
    "counterfactual",
    "declines_to_verify",
    "either_or",
    "false_named",
    "few_words_repeated",
    "fills_blank",
    "json_disagrees",
    "leaves_open",
    "not_but",
    "option_salad",
]

_EITHER = re.compile(r"\beither\s+(?P<a>[^.;!?\n]{1,60}?)\s*,?\s+" + OR_WORD
                     + r"\s+(?P<b>[^.;!?\n]{1,60}?)(?=\s*(?:[;,.!?\n\u2014\u2013]|\s-\s|$))", re.I)
_LEAD_LETTER = re.compile(r"(?:(?:option|choice)\s+)?[(\[]?(?P<l>[A-Z])[)\]]?(?![A-Za-z0-9'])")


def _named(side: str, options: list[str]) -> int | None:
    """The option one side of "either … or …" names: a capital letter, or an option's text."""
    side = side.strip(" *_\"'")
    m = _LEAD_LETTER.match(side)
    if m and m.group("l") not in letters.as_text(options):
        return letters.letter_index(m.group("l"), len(options))
    words = " ".join(re.findall(r"[\w.%-]+", side.lower()))
    found = [i for i, o in enumerate(options) if (t := " ".join(re.findall(r"[\w.%-]+", o.lower())))
             and (words == t or words.startswith(t + " "))]
    return found[0] if len(found) == 1 else None


def either_or(text: str, options: list[str]) -> list[Hit]:
    """"either X or Y" naming two different options: an ambiguous hit at the "either"."""
    out = []
    for m in _EITHER.finditer(text):
        a, b = _named(m.group("a"), options), _named(m.group("b"), options)
        if a is not None and b is not None and a != b:
            out.append(Hit(a, m.start(), 2, "either", ambiguous=True))
    return out


# "Which statement is false?", "Which of these is NOT true?", "Identify the incorrect claim."
_ASKS_FALSE = re.compile(r"\b(?:is|are)\s+(?:false|incorrect|untrue|inaccurate|wrong|not\s+(?:true|correct|"
                         r"accurate))\b|\b(?:false|incorrect|untrue|inaccurate)\s+(?:statement|claim|"
                         r"option|one|fact)\b", re.I)
_CALLED_FALSE = re.compile(r"(?<![A-Za-z'])(?:(?:statement|option|choice)\s+)?" + TOKEN
                           + r"[)\]]?\s+(?:is|was)\s+(?:the\s+)?(?:false|incorrect|untrue|inaccurate|wrong|"
                           r"not\s+(?:true|correct|accurate))(?:\s+(?:one|statement|claim))?\b", re.I)


# "so not C but A", "Not (B), but rather (D).", "not option A but option C"
_NOT_BUT = re.compile(r"\bnot\s+(?:(?:option|choice)\s+)?(?P<x>[(\[]?[A-Z][)\]]?)\s*,?\s+but\s+(?:rather\s+|instead\s+)?"
                      r"(?:(?:option|choice)\s+)?" + TOKEN, re.I)


def not_but(text: str, options: list[str]) -> list[Hit]:
    """"not X but Y" with two letters: Y is the choice (X is set aside), a statement."""
    out = []
    for m in _NOT_BUT.finditer(text):
        x = letters.letter_index(m.group("x").strip("()[]"), len(options))
        i = letters.token_index(text, m, options)
        if x is not None and i is not None and i != x:
            out.append(Hit(i, m.start("lf") if m.group("lf") else m.start("lb"), 2, "not-but"))
    return out


# "If it were compounded it would be $1,157.63 (C)", "Had the train been late, it would have
# been (D)", "If we'd rounded, we'd get B": a sentence about what is not the case
_COUNTERFACTUAL = re.compile(r"^\W*(?:(?:but|and|though|whereas|while),?\s+)?(?:if\s+(?:[\w'$,.-]+\s+){0,5}?(?:were|had|"
                             r"'d)\b|had\s+(?:it|we|you|they|he|she|the\s+\w+)\s+(?:been|\w+ed)\b)"
                             r"[^.!?\n]*?\b(?:would|could|might|'d)\b", re.I)


def counterfactual(text: str, start: int) -> bool:
    """Is ``start`` inside a counterfactual sentence ("If it were compounded it would be
    $1,157.63 (C)")? A letter there is what the answer is not, no choice."""
    return any(s <= start < s + len(sentence) and _COUNTERFACTUAL.match(sentence)
               for s, sentence in sentences(text))


def few_words_repeated(text: str) -> bool:
    """Beside its numbers a loop has no words, or at most three different words each said at
    least twice ("28 days 28 days February February 28 days")."""
    counts = Counter(re.findall(r"[^\W\d_]+", text.lower()))
    return not counts or (len(counts) <= 3 and min(counts.values()) >= 2)


def false_named(text: str, options: list[str], question: str) -> list[Hit]:
    """On a question that asks for the false statement, the one letter the reply calls false
    ("D is false: uracil is found in RNA."); none when it calls several false (elimination)."""
    if not _ASKS_FALSE.search(question):
        return []
    hits = []
    for m in _CALLED_FALSE.finditer(text):
        i = letters.token_index(text, m, options)
        if i is not None:
            hits.append(Hit(i, m.start(), 2, "letter-is"))
    return hits if len({h.index for h in hits}) == 1 else []


def fills_blank(text: str, options: list[str], question: str) -> int | None:
    """The one option whose text, put in the question's blank ("___ hour ago"), gives a
    phrase the reply says ("A hour ago.")."""
    m = re.search(r"(?P<left>(?:[\w'-]+\s+){0,3})_{2,}(?P<right>(?:\s+[\w'-]+){0,3})", question)
    if m is None or not (m.group("left").strip() or m.group("right").strip()):
        return None
    said = " " + " ".join(re.findall(r"[\w'-]+", normalise(text).lower())) + " "
    found = []
    for i, option in enumerate(options):
        phrase = " ".join(re.findall(r"[\w'-]+", f"{m.group('left')} {option} {m.group('right')}".lower()))
        if f" {phrase} " in said:
            found.append(i)
    return found[0] if len(found) == 1 else None


_DOUBT = re.compile(r"^\W*(?:(?:but|though|then\s+again|honestly),?\s+)?(?:(?:it's|it\s+is)\s+)?(?:hard|difficult|"
                    r"tough)\s+to\s+(?:say|tell|pick|choose|decide)|^\W*(?:(?:but|though|honestly),?\s+)?(?:I'm|I\s+am)\s+(?:not\s+"
                    r"(?:(?:really|entirely|completely|100%)\s+)?(?:sure|certain|confident)|unsure|uncertain)|"
                    r"^\W*(?:(?:but|though),?\s+)?(?:not\s+sure|unsure|who\s+knows)\b|"
                    # "So maybe.", "So maybe, maybe not.", "Perhaps."
                    r"^\W*(?:(?:so|then|thus|hence),?\s+)?(?:maybe|perhaps|possibly)(?:,?\s+(?:maybe|perhaps)\s+not)?\W*$|"
                    # "True or false depends on the definition.", "It depends on how you count."
                    r"^\W*(?:(?:but|though|so|and|honestly),?\s+)?(?:(?:true|yes|right)\s+or\s+(?:false|no|wrong)|"
                    r"whether\s+(?:it's|it\s+is)\s+(?:true|false|right)|it|that|this|the\s+(?:answer|verdict|choice))"
                    r"\s+(?:really\s+|all\s+|just\s+)?depends\b|"
                    # "Honestly it could go either way."
                    r"^\W*(?:(?:but|though|so|honestly),?\s+)?(?:it|this|that)\s+could\s+go\s+either\s+way\b", re.I)


def closing_doubt(text: str) -> bool:
    """After at least one other sentence, the reply closes with a short sentence that only
    says the writer is unsure or leaves the choice open ("Hard to say.", "I'm unsure.", "But
    I'm not certain.", "Hard to pick just one.", "So maybe.", "True or false depends on the
    definition.", "Honestly it could go either way.")."""
    said = sentences(text)
    if len(said) < 2:
        return False
    last = said[-1][1].strip()
    return bool(_DOUBT.match(last)) and len(re.findall(r"[\w'%]+", last)) <= 9


_DECLINES = re.compile(
    r"^\W*(?:(?:(?:I'm|I\s+am)\s+(?:sorry|afraid)|sorry|unfortunately|apologies|as\s+an\s+ai(?:\s+(?:language\s+)?"
    r"model)?)[,.]?\s*(?:but\s+)?)+(?:I|we)\s+(?:can't|cannot|can\s+not|am\s+unable\s+to|'m\s+unable\s+to|"
    r"am\s+not\s+able\s+to|won't)\s+(?:verify|check|fact-check|confirm|validate|judge|evaluate)\b"
    r"(?P<rest>[^.!?\n]*)", re.I)
_SOURCE_WORDS = re.compile(r"\b(?:passage|text|context|documents?|information|given|provided|statement|"
                           r"question|without|from)\b", re.I)


def declines_to_verify(text: str) -> bool:
    """A one-sentence reply that apologises (or says it is an AI) and declines to verify,
    without saying what it lacks ("I'm sorry, but I can't verify historical facts."): a
    refusal of the task; "I can't verify this from the passage" stays "Unable to determine"."""
    m = _DECLINES.match(text)
    return m is not None and len(sentences(text)) == 1 and not _SOURCE_WORDS.search(m.group("rest"))


_COUNT = re.compile(r"(?:^|[\u2014\u2013,:;]\s*|\b(?:that's|that\s+is|there\s+are|there's|makes?|gives?)\s+)"
                    r"(?P<n>[\w.,]+)\s+(?:of\s+them|in\s+(?:all|total)|altogether)\b", re.I)


def counted(text: str, values: list[numbers.Value | None], question: str) -> set[int]:
    """The options a "how many" question's count names where the reply states it ("— four of
    them", "that's 4 in total")."""
    if not re.search(r"\bhow\s+many\b", question, re.I):
        return set()
    out = set()
    for m in _COUNT.finditer(text):
        stated = numbers.values(m.group("n"))
        if len(stated) == 1 and (i := numbers.match(stated[0], values)) is not None:
            out.add(i)
    return out


def leaves_open(text: str, options: list[str]) -> str | None:
    """Round 7, on yes/no items (read as verdicts, so the general step that finds a choice left
    open does not run there): a reply that declines to pick ("I'd rather not pick one", "hard to
    single one out", "I'd reject the framing"), says no option fits ("None of the three options
    fits well"), or weighs two options ("I'm torn between B and A", "either True or Unable to
    determine") leaves the choice open; the reason, or None."""
    from rattle.judges import signals

    if signals.declines(text) and not re.search(r"\b(?:impossible|not\s+possible|no\s+way)\s+to\s+(?:know|predict|tell|"
                                                r"say)\b", text, re.I):  # that is "cannot be determined"
        return "refusal"
    if signals.none_fits(text):
        return "none-fits"
    if re.search(r"\b(?:torn|undecided|split|stuck)\s+between\b", text, re.I) or any(
            h.ambiguous for h in either_or(text, options)):
        return "hedge"
    return None


# The fields of a JSON answer that restate the option beside its letter.
_JSON_TEXT_KEYS = frozenset({"answer_text", "text", "option_text", "choice_text", "value", "answer_value",
                             "content", "label_text", "option_value", "answer_content", "explanation_value"})


def json_disagrees(text: str, index: int, options: list[str]) -> bool:
    """Round 7: a JSON answer whose letter and the option text or value beside it disagree
    (``{"answer": "B", "answer_text": "Silver"}`` where (B) is Gold; ``{"answer": "A", "value":
    16}`` where (A) is 14): the letter is unmeasured, like "The answer is (A) Australia."."""
    import json

    start = text.find("{")
    try:
        obj = json.JSONDecoder().raw_decode(text, start)[0] if start >= 0 else None
    except ValueError:
        return False
    if not isinstance(obj, dict):
        return False
    own = options[index].strip().lower()
    for key, value in obj.items():
        if str(key).lower() not in _JSON_TEXT_KEYS or isinstance(value, bool) or not isinstance(
                value, (str, int, float)):
            continue
        said = normalise(str(value)).strip().lower()
        if said != own and any(said == o.strip().lower() for j, o in enumerate(options) if j != index):
            return True
    return False


def option_salad(text: str, options: list[str]) -> bool:
    """Round 7: a run of six or more words without any sentence punctuation that names two or
    more different option letters, or two option values and a word doubled ("100 45 the answer 55 is 65 A B 100 - 45 = 45 55 the C",
    "February 28 29 the 年 days 二月 answer 30 C B A 的"): word salad, whose values and letters
    are no answer."""
    if re.search(r"[.!?\n\u3002\uff01\uff1f\u2192]", text) or len(re.findall(r"\w+", text)) < 6:
        return False  # one run of words: not a list, a calculation on lines, or an arrow to a letter
    named = {letters.letter_index(m.group(0), len(options))  # not the article "A hexagon"
             for m in re.finditer(r"(?<![\w(])[A-Z](?![\w)])(?![ \t]+[a-z])|(?<![\w(])[B-HJ-Z](?![\w)])", text)} - {None}
    if len(named) >= 2 and not any(o.strip() in ("A", "B", "C", "D", "E") for o in options):
        return True
    said = {o for o in options if re.search(r"(?<![\w.])" + re.escape(o.strip()) + r"(?![\w.])", text)}
    return len(said) >= 2 and bool(re.search(r"(?<!\S)(\S+)[ \t]+\1(?!\S)", text))  # "9 9 nine answer the 6 is"
