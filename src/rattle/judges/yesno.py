"""True / False / Unable to determine items (RCC's CREAK, StrategyQA and the GSM8K / NoahQA
final claims): which verdict did the reply commit to? (the yes/no half of ``judges.choice``)

- ``polar_statements``: explicit statements ("the answer is no", "Answer: False", "I'd mark
  this False", "So the statement is false.", "…, so strictly it's unable to determine.", a
  closing sentence that is only True / False, a JSON ``answer``).
- ``yes_no``: otherwise the first clause that opens with or states a verdict (the lexicon of
  ``judges.polarity``); a partial answer reads on for an explicit no, personal uncertainty is a
  hedge; then "cannot be determined"; last, a reply that sets a word of the claim aside.
"""

from __future__ import annotations

import re

from rattle.judges import against_claim, letters, polarity, signals
from rattle.judges.letters import Hit
from rattle.judges.reply import ANSWER_CUE, clause_negated, json_answer, sentences

YES_OPTIONS = {"true": "yes", "yes": "yes", "false": "no", "no": "no",
               "unable to determine": "undetermined", "undetermined": "undetermined",
               "cannot be determined": "undetermined", "not sure": "undetermined"}
_POLAR_CUE = re.compile(ANSWER_CUE + r"[(\[]?(?:(?:it|this|that|the\s+statement)(?:'s|\s+is)?\s+)?"
                        r"(?P<word>yes|no|true|false|correct|incorrect|right|wrong|"
                        r"unable\s+to\s+determine|cannot\s+be\s+determined|undetermined)\b", re.I)


def polar_index(options: list[str], polar: str) -> int | None:
    """The displayed position of the option that states ``polar`` (yes / no / undetermined)."""
    for i, o in enumerate(options):
        if YES_OPTIONS.get(o.strip().lower().rstrip(".")) == polar:
            return i
    return None


_POLAR_WORDS = {"yes": "yes", "true": "yes", "correct": "yes", "right": "yes", "no": "no",
                "false": "no", "incorrect": "no", "wrong": "no"}
_POLAR_VERB = re.compile(r"\b(?:I'd|I\s+would|I'll|I\s+will|I)\s+(?:mark|call|rate|label|answer|"
                         r"classify|put|count|score|record|file|tick)\s+(?:(?:this|it|that|the\s+(?:statement|claim))\s+)?"
                         r"(?:down\s+)?(?:as\s+)?[\"'*]*(?P<word>true|false|yes|no|correct|incorrect|unable\s+"
                         r"to\s+determine)\b", re.I)
# "…, so strictly it's unable to determine.", "… so it's false."
_POLAR_SO = re.compile(r"[,;\u2014\u2013]\s*(?:and\s+)?(?:so|thus|therefore|hence)\b,?\s+(?:(?:strictly|"
                       r"technically|formally)(?:\s+speaking)?,?\s+)?(?:(?:it|this|that|the\s+"
                       r"(?:statement|claim|answer))(?:'s|\s+is|\s+must\s+be|\s+would\s+be)\s+)"
                       r"(?P<word>true|false|right|wrong|correct|incorrect|unable\s+to\s+determine|"
                       r"undetermined|cannot\s+be\s+determined)\b", re.I)
# "I believe the statement is false, since …", 'So the answer "Yes" is false.': a sentence that
# opens by giving the statement (or the quoted answer) a verdict.
_POLAR_SAYS = re.compile(r"^\W*(?:(?:so|thus|therefore|hence|overall),?\s+)?(?:(?:I\s+(?:believe|think)|"
                         r"in\s+my\s+(?:view|opinion)|I'd\s+say),?\s+(?:that\s+)?)?the\s+(?:statement|claim|"
                         r"(?:given\s+|proposed\s+)?answer\s*[\"\u201c'][^\"\u201d']{1,40}[\"\u201d'])\s+(?:is|was)\s+"
                         r"(?:(?:therefore|thus|clearly|definitely|simply)\s+)?(?P<word>true|false|correct|"
                         r"incorrect|right|wrong)\b", re.I)
_POLAR_CONCLUSION = re.compile(r"^\W*(?:so|thus|therefore|hence|as\s+(?:stated|written|worded)|"
                               r"overall|in\s+short|in\s+conclusion|bottom\s+line|all\s+in\s+all)"
                               r"\b", re.I)


def polar_statements(text: str, options: list[str]) -> list[Hit]:
    """Every explicit verdict statement of the reply (see the module docstring)."""
    out = []
    for m in _POLAR_CUE.finditer(text):
        word = m.group("word").lower()
        polar = ("yes" if word in ("yes", "true", "correct", "right") else
                 "no" if word in ("no", "false", "incorrect", "wrong") else "undetermined")
        i = polar_index(options, polar)
        if i is not None and not clause_negated(text, m.start("word")):
            tier = 1 if m.group(0).lower().startswith("final") else 2
            out.append(Hit(i, m.start("word"), tier, "yesno-answer"))
    for m in _POLAR_SO.finditer(text):  # "…, so strictly it's unable to determine."
        word = m.group("word").lower()
        i = polar_index(options, _POLAR_WORDS.get(word, "undetermined"))
        if i is not None and not clause_negated(text, m.start("word")):
            out.append(Hit(i, m.start("word"), 2, "yesno-conclusion"))
    for m in _POLAR_VERB.finditer(text):  # "I'd mark this False"
        i = polar_index(options, _POLAR_WORDS.get(m.group("word").lower(), "undetermined"))
        if i is not None and not clause_negated(text, m.start()):
            out.append(Hit(i, m.start("word"), 2, "yesno-answer"))
    for start, sentence in sentences(text):  # "I believe the statement is false, since …"
        said_m = _POLAR_SAYS.match(sentence)
        if said_m is not None and not polarity.conditional(sentence[said_m.end():]) and not (
                _POLAR_CONCLUSION.match(sentence) and polarity.statement(sentence)):  # read below
            i = polar_index(options, _POLAR_WORDS[said_m.group("word").lower()])
            if i is not None:
                out.append(Hit(i, start + said_m.start("word"), 2, "yesno-statement"))
    closing = sentences(text)[-1:]  # "… never part of the Olympic program. True"
    for start, sentence in closing:
        said = YES_OPTIONS.get(sentence.strip(" *_.!").lower())
        i = polar_index(options, said) if said else None
        if i is not None and len(sentences(text)) > 1 and not letters.option_lines(text, options):
            out.append(Hit(i, start, 2, "yesno-last"))
    for start, sentence in sentences(text):  # "So the statement is false."
        if _POLAR_CONCLUSION.match(sentence):
            said = polarity.statement(sentence)
            if said is None and len(sentence.split()) <= 4:  # "So True.", "Therefore, no."
                said = polarity.opener(sentence)
            i = polar_index(options, said) if said in ("yes", "no") else None
            if i is not None:  # "So it depends — true for some and false for others." leaves it open
                out.append(Hit(i, start, 2, "yesno-conclusion", ambiguous=bool(
                    polarity.HEDGE.search(sentence) or _BOTH_WAYS.search(sentence))))
    value = json_answer(text)
    if value is not None:
        o = polarity.opener(value)
        stated = o if o in ("yes", "no") else (
            "undetermined" if polarity.undetermined(value) else None)
        i = None if stated is None else polar_index(options, stated)
        if i is not None:
            out.append(Hit(i, max(0, text.find(value)), 1, "yesno-json"))
    return out


_TRUE_WORD = r"(?<!not\s)(?<!n't\s)\b(?:true|right|correct)\b"  # "isn't right" is no "right"
_BOTH_WAYS = re.compile(_TRUE_WORD + r"[^.!?]*\b(?:false|wrong|incorrect)\b|\b(?:false|wrong|"
                        r"incorrect)\b[^.!?]*" + _TRUE_WORD, re.I)
# A conditional sentence states no verdict ("If it means the Western Empire, it's true; …").
_CONDITIONAL = re.compile(r"^\W*(?:if|unless|assuming|provided|when)\b", re.I)
_ASKS = re.compile(r"^\W*(?:\w+\W*$|(?:is|are|was|were|does|do|did|can|could|would|will|"
                   r"right|true|correct|really)\b)", re.I)


_CONDITION_CLAUSE = re.compile(r"^\W*(?:if|since|given\s+that|assuming)\s+(?P<cond>[^,;:\u2014\u2013]{3,120}?)"
                               r"\s*(?:,\s*(?:then\s+)?|\s+then\s+)(?P<rest>\S.*)$", re.I | re.S)
_FUNCTION = frozenset({"if", "she", "he", "it", "they", "the", "a", "an", "is", "are", "was", "were", "that",
                       "this", "and", "of", "in", "on", "to", "does", "did", "do", "has", "have", "had",
                       "his", "her", "their", "its", "all", "we", "you", "i"})


def _given_condition(sentence: str, question: str) -> str:
    """A condition that only restates what the question gives ("If she reads every evening
    without exception, then yes, …" for "Lisa reads every evening without exception. Did she
    read last night?") is no condition: the sentence is read from what follows it."""
    m = _CONDITION_CLAUSE.match(sentence)
    if m is None or not question:
        return sentence
    said = {w[:5] for w in re.findall(r"[a-z0-9]+", m.group("cond").lower()) if w not in _FUNCTION}
    given = {w[:5] for w in re.findall(r"[a-z0-9]+", question.lower())}
    return m.group("rest") if said and said <= given else sentence


def _clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r"[,;:\u2014\u2013\uff0c]|\s-\s|\bbut\b", sentence) if c.strip()]


def claim_of(question: str) -> str:
    """The claim a yes/no item asks about: its "Statement: …" line when it has a passage
    ("Passage: … Statement: Lena is taller than Ravi. True, False, or …?"), else the question."""
    m = re.search(r"\bstatement\s*:\s*(.+?)(?:\s*(?:is\s+it\s+right|true,\s*false)[^\n]*)?(?:\n|$)",
                  question, re.I)
    claim = m.group(1).strip() if m else question
    # "Is it right that X?", "X, is it right?": the claim is X
    claim = re.sub(r"^\s*is\s+it\s+(?:right|true|correct)\s+that\s+|,?\s*is\s+it\s+(?:right|true|correct)\s*\??\s*$",
                   "", claim, flags=re.I)
    return claim.strip()


def yes_no(text: str, options: list[str], question: str = "") -> tuple[int | None, str]:
    """yes/right/true/correct and their negations, or "cannot be determined": (displayed
    position or None, the rule that decided)."""
    question = claim_of(question)
    words = {w.lower() for w in re.findall(r"\w+", text)}
    if len(words) == 1 and signals.degenerate(text):  # a loop of one verdict: "No no no no no"
        said = polarity.opener(text)
        i = polar_index(options, said) if said in ("yes", "no") else None
        if i is not None:
            return (i, "yesno-" + str(said))
    hedged = partial = False
    for _, sentence in sentences(text):
        if sentence.rstrip(" *_\"'").endswith("?") and _ASKS.match(sentence):
            continue  # "Right? No — …": a question asks, it does not answer
        sentence = _given_condition(sentence, question)
        if _CONDITIONAL.match(sentence):
            hedged = hedged or bool(_BOTH_WAYS.search(sentence))
            continue
        for clause in _clauses(sentence):
            if polarity.undetermined(clause) and (polarity.opener(clause) not in ("yes", "no")
                                                  or polarity.opens_undetermined(clause)):
                break  # "The passage doesn't say whether it was correct.", "Nie je možné určiť"
            if polarity.conceded(sentence[sentence.find(clause):]):
                partial = True  # "True that it was his, but …": the rest decides
                continue
            found = polarity.opener(clause)
            if found in ("hedge", "refusal"):
                hedged = True
                continue
            if found in ("yes", "no"):  # "No, there's nothing wrong with it": the error decides
                after = sentence[sentence.find(clause) + len(clause):]
                found = "partial" if polarity.conditional(after) else (
                    polarity.error_framed(after) or found)
            if found == "no" and against_claim.denies_then_asserts(sentence, question):
                return (None, "hedge")  # "False — it flows north.": the words say the claim
            if found is None:  # after a hedge only a verdict stated in words decides
                found = polarity.statement(clause) or (None if hedged else (
                    against_claim.affirms_part(clause, question) or (
                        "yes" if against_claim.intensifies(clause, question) else None)))
            if found == "partial" or (partial and found == "yes"):
                partial = True  # "Not quite. … So the statement is false." reads on
                continue
            rest = text[text.find(clause) + len(clause):]
            if found == "yes" and (polarity.correction(rest) or against_claim.sets_aside(rest, question)
                                   or against_claim.corrects_after_turn(rest, question)):
                found = "no"  # "Yes, except that it was 1945, not 1944.", "Yes, in Paris, not Berlin"
            if found in ("yes", "no"):
                i = polar_index(options, found)
                return (i, "yesno-" + found) if i is not None else (None, "unparsed")
    if polarity.undetermined(text):
        i = polar_index(options, "undetermined")
        if i is not None:
            return (i, "yesno-undetermined")
    if not hedged and against_claim.negates_claim(text, question):  # "They're native to Asia, not Africa."
        i = polar_index(options, "no")
        if i is not None:
            return (i, "yesno-correction")
    if not (hedged or partial or re.search(ANSWER_CUE, text, re.I)) and against_claim.asserts_claim(
            text, question):
        i = polar_index(options, "yes")  # "Whales are mammals." for "Is a whale a mammal?"
        if i is not None:
            return (i, "yesno-restated")
    return (None, "hedge" if hedged or partial else "unparsed")


def prose_verdict(text: str, options: list[str], question: str = "") -> int | None:
    """The option the reply's own words state before its letter ("… so the statement is
    right. Answer: A", "Sydney is the largest city, but Canberra is the capital. Answer: B",
    "So True. A"): an explicit verdict statement, else a correction of the claim by name in
    the sentence right before the letter. None when the words give none (a letter alone needs no agreement)."""
    hits = [h for h in polar_statements(text, options) if not h.ambiguous]
    if hits:
        return max(hits, key=lambda h: (-h.tier, h.start)).index
    last = sentences(text)[-1:]
    index, how = yes_no(last[0][1], options, question) if last else (None, "unparsed")
    return index if how == "yesno-correction" else None
