"""Multiple-choice answers: which displayed option did the reply commit to?

``extract_choice(reply, displayed)`` is an explicit decision procedure (docs/judging.md); the
first step that decides wins and ``Choice.how`` names it:

1. the reply is only a letter or a letter with its option ("B", "c", "**B**", "C. Nitrogen");
2. statements: final labels ("Final answer: C", ``\\boxed{C}``, JSON ``answer``, an "Answer:"
   line) over answer sentences ("the answer is (B)", "I pick C", "(B) is correct", "so it's
   B", a closing line with only a letter), the last of the strongest kind; an option text or
   value right after an answer cue counts too ("The answer is Canberra", "The answer is 42");
   a letter that disagrees with the option text, value or verdict beside it is unmeasured
   (``crosscheck``);
3. a reply that echoes the options, says none fits or leaves the choice open is unmeasured
   (``signals``); the reply opens with one option's text ("Canberra.", "Leaves, because …");
4. exactly one letter is mentioned and not rejected ("Not (A). … (B) Canberra"), or a short
   reply holds exactly one letter (any language);
5. by answer kind, read from the displayed options: yes/no items (True / False / Unable to
   determine) read yes/right/true/correct and their negations, and "cannot be determined";
   numeric items the value the worked reply ends on ("$1,200", "= 3/4"); other items the
   option text. A reply cut off mid-sentence is not read by its last number or option.

Letters must stand as letters (never the article "a" or "e.g."), negated letters and options
never count ("not (A)", "(B) is wrong"), a reply that revises itself is read from its last
revision, and reasoning blocks are dropped. Refusals, hedges, several options at once and
values that are no option are unmeasured (``index=None``), not wrong (STYLE.md 7). Fixes to
the RCC extractor (reference-implementations.md §2.7), each deliberate: letters beyond E are
recognised (QASC has up to 9 options), and there is no first-character fallback.
``compat=True`` counts unparsed replies as wrong, as the RCC scorer did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rattle.items import Judgement, Question, Response
from rattle.judges import choice_extra, crosscheck, letters, numbers, polarity, signals, yesno
from rattle.judges.letters import LETTERS, Hit
from rattle.judges.option_text import choose_text, equals_option, options_in_a_row
from rattle.judges.reply import (ANSWER_CUE, OR_WORD, after_revision, clause_negated, first_item,
                                 json_answer, normalise, prepare, retracts, sentences, tool_call)
from rattle.registry import register

__all__ = ["LETTERS", "Choice", "ChoiceJudge", "answer_kind", "extract_choice"]

Kind = Literal["yesno", "numeric", "general"]
_VALUE_CUE = re.compile(ANSWER_CUE + r"(?:(?:approximately|about|around|roughly|\u2248|~|x\s*=|"
                        r"[a-z]\s*=)\s*)?", re.I)
_AMBIGUOUS_VALUES = re.compile(r"\beither\b|\d\S*(?:\s+[A-Za-z/.]+){0,2},?\s+" + OR_WORD + r"\s+(?:maybe\s+|perhaps\s+|"
                               r"possibly\s+)?\$?\d|^\W*\$?\d[\d.,]*\s*(?:and|&)\s*\$?\d[\d.,]*\W*$", re.I)  # "14 and 16"


@dataclass(frozen=True)
class Choice:
    """The display position a reply chose (None: unmeasured) and the rule that decided."""

    index: int | None
    how: str


def answer_kind(displayed: list[str]) -> Kind:
    """yes/no items (True/False/Unable to determine), numeric options, or general."""
    texts = {o.strip().lower().rstrip(".") for o in displayed}
    kinds = {yesno.YES_OPTIONS.get(t) for t in texts}
    if texts and None not in kinds and {"yes", "no"} <= kinds:
        return "yesno"
    if numbers.numeric_options(displayed) is not None:
        return "numeric"
    return "general"


def extract_choice(reply: str, displayed: list[str], *, question: str = "") -> Choice:
    """The display position the reply chose, and which rule found it. ``question`` (optional)
    only breaks ties between several option texts restated without a letter."""
    options = [normalise(str(o)) for o in displayed]
    text = prepare(reply or "")
    if not text or not options:
        return Choice(None, "empty")
    if signals.stopped_thinking(reply, text):
        return Choice(None, "unfinished")
    if tool_call(text):
        return Choice(None, "tool-call")
    if choice_extra.declines_to_verify(text):
        return Choice(None, "refusal")  # "I'm sorry, but I can't verify historical facts."
    text = _without_prompt(first_item(text), normalise(question), options)
    if not text:
        return Choice(None, "echo-options")
    kind = answer_kind(options)
    revised = after_revision(text)
    if revised is not None:
        got = _decide(revised, options, kind, question)
        if got.index is not None and choice_extra.closing_doubt(text):
            return Choice(None, "revised-hedge")  # "Yes. Wait, was it 1905? No, … So maybe."
        if got.index is not None or got.how in _OPEN_CHOICE:
            return Choice(got.index, "revised-" + got.how)  # "… so A. Wait — either A or B"
        if kind == "yesno" and retracts(text) and yesno.yes_no(
                text[:len(text) - len(revised)], options, question)[1] == "yesno-yes":
            return Choice(yesno.polar_index(options, "no"), "revised-yesno-no")  # "Yes — well, no: …"
    got = _decide(text, options, kind, question)
    if got.index is not None and choice_extra.closing_doubt(text):
        return Choice(None, "hedge")  # "… could be true for Cython. Hard to say."
    if got.index is not None or got.how not in ("unparsed",):
        return got
    blank = choice_extra.fills_blank(text, options, question)
    if blank is not None:
        return Choice(blank, "fills-blank")  # "A hour ago." for "___ hour ago"
    if polarity.REFUSAL.search(text) or re.search(r"\bnone of the (?:above|options)\b|"
                                                  r"\bunable to (?:determine|answer)\b", text, re.I):
        return Choice(None, "refusal")
    if polarity.HEDGE.search(text):
        return Choice(None, "hedge")
    return got


_OPEN_CHOICE = frozenset({"hedge", "ambiguous", "none-fits", "refusal"})


def _without_prompt(text: str, question: str, options: list[str]) -> str:
    """A reply that opens by repeating the prompt (the question, then every option one per
    line; or every option alone) is read from what follows the repetition."""
    words = re.findall(r"\S+", question)
    m = re.match(r"\s*" + r"\s+".join(map(re.escape, words)) + r"\s*", text, re.I) if words else None
    lines = text[m.end() if m else 0:].split("\n")
    listed = 0
    while listed < min(len(lines), len(options)) and (m_line := re.match(
            r"\s*[(\[]?" + LETTERS[listed] + r"[)\].:]\s*(.*?)\s*$", lines[listed])) and \
            normalise(m_line.group(1)).lower() == options[listed].strip().lower():
        listed += 1  # "(A)10", "B. Iron": the option's own text, not "A: No" (a table row)
    if m is None and listed < len(options):
        return text
    return "\n".join(lines[listed if listed == len(options) else 0:]).strip()


def _pick(hits: list[Hit]) -> Hit | None:
    if not hits:
        return None
    best = min(h.tier for h in hits)
    return [h for h in hits if h.tier == best][-1]


# Rules that read a letter: the letter must agree with what the reply says beside it.
_LETTER_RULES = frozenset({"only", "final", "label", "boxed", "answer-is", "correct-option",
                           "choose", "so", "my-pick", "believe", "it-is", "letter-is", "bold",
                           "json", "last-line", "conclusion", "mention", "lone-letter", "colon",
                           "arrow", "not-but"})


def _decide(text: str, options: list[str], kind: Kind, question: str = "") -> Choice:
    original = text
    text = re.sub(r"(?<![\w'])['\"]([A-Za-z])['\"](?![\w'])",  # 'B' -> (B), not the option "a"
                  lambda m: m.group(0) if m.group(1) in letters.as_text(options) else f"({m.group(1)})",
                  text)
    text = letters.ordinal_letters(text, len(options), numeric=kind == "numeric")
    qa = re.match(r"A:\s+(\S.*)", text, re.S)  # "A: The capital is Canberra" (Q/A style prefix)
    if qa and not re.match(re.escape(options[0].strip()) + r"(?!\w)", qa.group(1), re.I) and not \
            re.search(r"(?m)^\s*[B-Z]\s*:", text):  # "A: ✗\nB: ✓" is a table of the options
        text = qa.group(1)
    values = numbers.numeric_options(options) if kind == "numeric" else None

    def checked(index: int, start: int, how: str) -> Choice:
        if how == "json" and choice_extra.json_disagrees(original, index, options):
            return Choice(None, "conflicting")  # {"answer": "B", "answer_text": "Silver"}
        if how in _LETTER_RULES and crosscheck.disagrees(text, start, index, options,
                                                         question=question, values=values):
            return Choice(None, "conflicting")
        if kind == "yesno" and crosscheck.opens_otherwise(text, index, options):
            return Choice(None, "conflicting")  # "Yes, sharks are mammals. Answer: False"
        if kind == "yesno" and how in _LETTER_RULES and yesno.prose_verdict(
                _before_statement(text, start), options, question) not in (None, index):
            return Choice(None, "conflicting")  # "… so the statement is right. Answer: A (False)"
        if how in _LETTER_RULES and values is not None and (any(  # "C. 4 … A triangle has 3 sides"
                h.index != index for h in _restated_values(text, values, question, counts=True))
                or choice_extra.counted(text, values, question) - {index}):
            return Choice(None, "conflicting")  # "… — four of them. Answer: D" (D = 5)
        return Choice(index, how)

    only = letters.only_letter(text, options)
    if only is not None:
        at = re.search(r"(?<![A-Za-z])[\(\[]?\s*[A-Za-z]\s*[\)\]]?(?![A-Za-z])", text)
        return checked(only, at.start() if at else 0, "only")
    hits = letters.statements(text, options)
    if values is not None:
        hits += _value_statements(text, values, question)
    elif kind == "yesno":
        hits += yesno.polar_statements(text, options)
    hits += _text_statements(text, options, values)
    hits += choice_extra.either_or(text, options) + choice_extra.false_named(text, options, question) + \
        choice_extra.not_but(text, options)
    hit = _pick(sorted(hits, key=lambda h: h.start))
    if hit is not None and hit.tier > 1 and letters.letter_run(text, options):
        return Choice(None, "echo-options")  # "A B C D chloro mito A A nucleus … B? D"
    if hit is not None and hit.tier > 1 and (signals.word_salad(text) or choice_extra.option_salad(text, options)):
        return Choice(None, "cut-off")  # "Egypt Egypt … the the answer answer B"
    if hit is not None and hit.tier > 1 and signals.cut_off(text) and re.search(
            r"\b(?:is|are|was|were|equals|be)\s*$", text, re.I) and not _repeats_itself(text):
        return Choice(None, "cut-off")  # "… n = 14. The larger number is": stopped at its answer
    if hit is not None:
        if signals.cut_off(text) and re.match(r"[(\[]?\w[)\]]?\s+(?:is|are|was|were|would|could|might|"
                                              r"seems?|looks?|has|can)\b(?:\s+\w+){0,2}\W*$",
                                              text[hit.start:]):
            return Choice(None, "cut-off")  # "…, so C is": stopped before it said what C is
        if hit.ambiguous:
            return Choice(None, "ambiguous")
        if hit.index < 0:
            return Choice(None, "not-an-option")
        if letters.listing_follows(text, hit.start, options):
            return Choice(None, "echo-options")  # "The answer is: B) 7 C) 8 D) 9 E) 56 …"
        if signals.second_guess(text[hit.start:]):
            return Choice(None, "hedge")  # "…, which is B. Or maybe A, I always mix these up."
        return checked(hit.index, hit.start, hit.how)
    if letters.option_lines(text, options) or (values is None and options_in_a_row(text, options)):
        return Choice(None, "echo-options")
    if kind != "yesno":  # no explicit statement: a reply that leaves the choice open
        if signals.none_fits(text) and not any(re.match(r"\W*none\b", o, re.I) for o in options):
            return Choice(None, "none-fits")
        if signals.undecided(text):
            return Choice(None, "hedge")
        if signals.declines(text):
            return Choice(None, "refusal")
    lead = equals_option(text, options) if kind != "yesno" else None  # yes/no: read as verdicts
    if lead is not None:  # "81, or maybe 90 — I'm not certain." leaves it open
        return Choice(None, "hedge") if signals.second_guess(text) else Choice(lead, "lead")
    spans = [s for s in letters.mention_spans(text, options) if not choice_extra.counterfactual(text, s[1])]
    positive = {i for i, _, rejected in spans if not rejected}
    chopped = signals.cut_off(text) or signals.degenerate(text)
    if len(positive) == 1:
        i = positive.pop()
        start = next(st for j, st, rejected in spans if j == i and not rejected)
        line_start = text.rfind("\n", 0, start) + 1
        first = re.match(r"[^.!?\n]*[.!?]", text)  # "**The GCD is 12 (B).** … gives 2² × 3 ="
        if chopped and text[line_start:start].strip(" \t*#>-") and not (first and start < first.end()):
            return Choice(None, "cut-off")  # cut off while it discussed the options
        return checked(i, start, "mention")
    if len(positive) > 1:
        return Choice(None, "ambiguous")
    lone = letters.lone_letter(text, options)
    if lone is not None and polarity.HEDGE.search(text):
        return Choice(None, "hedge")  # "Not sure, maybe B?"
    if lone is not None and signals.word_salad(text):
        return Choice(None, "cut-off")  # "Egypt Egypt … the the answer answer )( ..B A"
    if lone is not None:
        spot = next((m.start() for m in re.finditer(letters.TOKEN, text)
                     if letters.token_index(text, m, options) == lone), 0)
        return checked(lone, spot, "lone-letter")
    if kind == "yesno":
        if signals.degenerate(text) and len(set(re.findall(r"\w+", text.lower()))) > 1:
            return Choice(None, "cut-off")  # a loop of one verdict ("No no no") still says it
        open_choice = choice_extra.leaves_open(text, options)
        if open_choice is not None:
            return Choice(None, open_choice)  # "I'm torn between B and A.", "I'd rather not pick one"
        got = Choice(*yesno.yes_no(text, options, question))
        return Choice(None, "hedge") if got.index is not None and signals.unsure(text) else got
    if choice_extra.option_salad(text, options):
        return Choice(None, "cut-off")  # "100 45 the answer 55 is 65 A B … the C"
    if chopped:
        return _loop(text, options, values)
    got = _last_value(text, values) if values is not None else Choice(None, "unparsed")
    if got.index is not None and any(i == got.index and rejected for i, _, rejected in spans):
        return Choice(None, "conflicting")  # "B (24) is not …; neither is D (30)." ends on a rejected value
    if got.index is None and got.how == "unparsed":
        if all(s.rstrip(" *_\"'").endswith("?") for _, s in sentences(text)):
            return Choice(None, "hedge")  # "Maybe the bald eagle? Or was it the turkey?"
        got = Choice(*choose_text(text, options, frozenset(
            i for i, v in enumerate(values or []) if v is not None), question))
    if got.index is not None and (signals.unsure(text) or signals.second_guess(text)):
        return Choice(None, "hedge")  # "= 63. Hmm, or is it 73? I think 63 but I'm not sure."
    return got


def _repeats_itself(text: str) -> bool:
    """The unfinished last sentence begins one the reply already finished (a loop: "The answer
    is C. The answer is C. The answer is")."""
    said = [s.lower() for _, s in sentences(text)]
    return len(said) > 1 and any(s.startswith(said[-1]) for s in said[:-1])


def _before_statement(text: str, start: int) -> str:
    """The reply's words before the statement of a letter at ``start`` ("… is right. Answer:
    A" -> "… is right.")."""
    head = text[:start]
    label = re.search(r"(?:\b(?:final\s+)?(?:answer|option|choice)\b[\s*_]*(?:is)?[\s*_:=\-]*|[\u2192=>-]+\s*|"
                      r"[(\[*\s]+)$", head, re.I)
    return head[:label.start()] if label else head


def _loop(text: str, options: list[str], values: list[numbers.Value | None] | None) -> Choice:
    """A reply cut off or looping is unmeasured, unless it loops on one statement that names
    one option only ("The capital of France is Paris. … The capital of France is Paris. The
    capital of"): every finished sentence that names an option names that one; on numeric
    items the sentences it repeats state one option's value."""
    stated = numbers.values(text) if values is not None else []
    if len(stated) >= 3 and len({v.value for v in stated}) == 1 and choice_extra.few_words_repeated(
            text):  # "0.25 0.25 0.25 0.25", "28 days 28 days February …": a loop of one value
        index = numbers.match(stated[0], values or [])
        return Choice(index, "loop") if index is not None else Choice(None, "not-an-option")
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if len(lines) >= 3 and len(set(lines)) == 1:  # "17+26=43" on every line: a loop of one line
        got = _decide(lines[0], options, "numeric" if values is not None else "general")
        if got.index is not None:
            return Choice(got.index, "loop")
    said_words = set(re.findall(r"[^\W\d_]+", text.lower()))
    own = [i for i, o in enumerate(options) if said_words and said_words <= set(
        re.findall(r"[^\W\d_]+", o.lower()))]
    if values is None and len(own) == 1 and len(re.findall(r"\w+", text)) >= 3:
        return Choice(own[0], "loop")  # "wind wind wind wind": a loop of one option's words
    finished = text[:max(text.rfind("."), text.rfind("!"), text.rfind("?")) + 1]
    said = [s.lower() for _, s in sentences(finished)]
    looped = " ".join(s for s in said if said.count(s) >= 2)
    if not looped or not signals.degenerate(text):
        return Choice(None, "cut-off")
    if values is not None:  # "… 3 spiders have 24 legs. … 3 spiders have 24 legs. Spiders have"
        named = {i for v in numbers.values(looped) if (i := numbers.match(v, values)) is not None}
        return Choice(named.pop(), "loop") if len(named) == 1 else Choice(None, "cut-off")
    index, how = choose_text(finished, options)
    if how == "text" and index is not None and choose_text(looped, options)[0] == index:
        return Choice(index, "loop")
    return Choice(None, "cut-off")


def _text_statements(text: str, options: list[str],
                     values: list[numbers.Value | None] | None) -> list[Hit]:
    """An option's text right after an answer cue ("The answer is the Eagles")."""
    out = []
    for m in re.finditer(ANSWER_CUE + r"(?:(?:the|a|an)\s+)?", text, re.I):
        rest = text[m.end():m.end() + 120]
        best = None
        for i, opt in enumerate(options):
            if values is not None and values[i] is not None:
                continue
            o = opt.strip().rstrip(".")
            if len(o) >= 2 and re.match(re.escape(o) + r"(?!\w)", rest, re.I) and (
                    best is None or len(o) > len(options[best])):
                best = i
        if best is not None and not clause_negated(text, m.end()):
            out.append(Hit(best, m.end(), 2, "text-answer"))
    return out


def _value_statements(text: str, values: list[numbers.Value | None],
                      question: str = "") -> list[Hit]:
    out = []
    for var in sorted(numbers.unknowns(question)):  # "Solve for x": "… x = 7"
        for m in re.finditer(r"(?<![\w^])" + var + r"\s*=\s*", text):
            clause = re.split(r"[;,\n(]|\.(?:\s|$)|\s(?:and|so|but|which|because|since)\b",
                              text[m.end():m.end() + 60])[0]
            last = clause.split("=")[-1].strip()
            stated = numbers.values(last)
            if len(stated) == 1 and stated[0].start == 0 and len(last) - stated[0].end <= 8:
                i = numbers.match(stated[0], values)
                if i is not None and not clause_negated(text, m.start()):
                    either = bool(re.search(r"\bor\b", clause)) or _alternative(
                        text, m.start(), m.end() + len(clause), i, values)
                    out.append(Hit(i, m.start(), 2, "value-answer", either))
    json_value = json_answer(text)
    if json_value is not None:
        found = numbers.values(json_value)
        if len(found) == 1:
            i = numbers.match(found[0], values)
            out.append(Hit(-1 if i is None else i, max(0, text.find(json_value)), 1, "json-value"))
    for m in _VALUE_CUE.finditer(text):
        stated = [v for v in numbers.values(text[m.end():m.end() + 40]) if v.start == 0]
        if not stated or clause_negated(text, m.end()):
            continue
        i = numbers.match(stated[0], values)
        tier = 1 if re.match(r"final|####|\\boxed", m.group(0).strip(), re.I) else 2
        either = i is not None and _alternative(text, m.start(), m.end() + stated[0].end, i, values)
        out.append(Hit(-1 if i is None else i, m.end(), tier, "value-answer", either))
    out += _restated_values(text, values, question)
    for m in re.finditer(r"\*\*\s*([^*\n]{1,30}?)\s*\*\*", text):  # **120**
        stated = numbers.values(m.group(1))
        if len(stated) == 1 and stated[0].start == 0:
            i = numbers.match(stated[0], values)
            if i is not None:
                out.append(Hit(i, m.start(), 2, "value-bold"))
    return out


def _alternative(text: str, start: int, end: int, index: int,
                 values: list[numbers.Value | None]) -> bool:
    """Is the value stated at ``start``..``end`` one of several ("x = 7 or x = -7", "Answer:
    18 km/h, 40.5 km/h, 15 km/h")? After "or" any value counts; after a comma, another
    option's value."""
    if re.search(r"\b" + OR_WORD + r"\s+(?:[a-z]\s*=\s*)?$", text[max(0, start - 12):start]):
        return True
    m = re.match(r"[ \t]*(?:[^\W\d]+(?:/[^\W\d]+)?)?[ \t]*(?P<sep>,|\b" + OR_WORD + r"\b|\band/or\b)[ \t]*"
                 r"(?:[a-z][ \t]*=[ \t]*)?(?=[-$\u20ac\u00a3\d])", text[end:end + 40])
    if m is None:
        return False
    if m.group("sep") != ",":
        return True
    following = numbers.values(text[end + m.end():end + m.end() + 20])
    other = numbers.match(following[0], values) if following and following[0].start == 0 else None
    return other is not None and other != index


_RESTATED = re.compile(r"(?:^|[.!?;]\s+|,\s+so\s+)(?P<subj>(?:the\s+)?(?:[a-z0-9]+\s+){0,3}[a-z]+)\s+(?:is|was|are|"
                       r"were|has|have|had|equals|comes\s+to|works\s+out\s+to)\s+(?:about\s+|approximately\s+|"
                       r"roughly\s+|exactly\s+)?(?=[$\u20ac\u00a3\u2212-]?\d)", re.I | re.M)
_STOPWORDS = frozenset({"the", "what", "which", "how", "many", "much", "its", "this", "that",
                        "of", "is", "was", "are", "if", "and", "a", "an", "in", "on", "for"})


def _restated_values(text: str, values: list[numbers.Value | None], question: str, *,
                     counts: bool = False) -> list[Hit]:
    """"The original price was $50" for "… what was the original price?": the clause that
    names what the question asks for, with the most words of the question. With ``counts``,
    instead the count a "how many" question asks for ("A triangle has 3 sides" for "How many
    sides does a triangle have?"; only to check a letter against, never an answer itself)."""
    asked = {w[:5] for w in re.findall(r"[a-z]+", question.lower()) if w not in _STOPWORDS}
    given = {v.value for v in numbers.values(question)}  # "Tom has 2 pens" restates a premise
    counted = re.search(r"\bhow\s+many\s+(\w+)", question, re.I)
    found = []
    for m in _RESTATED.finditer(text):
        said = {w[:5] for w in re.findall(r"[a-z]+", m.group("subj").lower()) if w not in _STOPWORDS}
        after = text[m.end():m.end() + 30]
        stated = numbers.values(after)
        if not stated or stated[0].start != 0 or stated[0].value in given or re.match(
                r"\s*(?:[-+*/\u00d7\u00f7=^]|,\s*\d|and\s+\d)", after[stated[0].end:]):
            continue  # a premise, an expression ("2 + 3 = 5") or a list ("23, 24 and 25")
        if bool(re.search(r"\bha(?:s|ve|d)\s*$", m.group(0), re.I)) != counts or (counts and not (
                counted and re.match(r"(?:\s+\w+){0,2}?\s+" + re.escape(counted.group(1)[:5]),
                                     after[stated[0].end:], re.I))):
            continue
        if said & asked and not clause_negated(text, m.end()):
            i = numbers.match(stated[0], values)
            found.append((len(said & asked), Hit(-1 if i is None else i, m.end(), 2, "value-answer")))
    top = max((n for n, _ in found), default=0)
    return [h for n, h in found if n == top and h.index >= 0]


def _last_value(text: str, values: list[numbers.Value | None]) -> Choice:
    """The last value the reply states that nothing negates ("…, so x = 300")."""
    last = numbers.answer_value(text)
    if last is None:
        return Choice(None, "unparsed")
    tail = text[max(0, last.start - 40):last.end + 10]
    if _AMBIGUOUS_VALUES.search(tail):
        return Choice(None, "ambiguous")
    i = numbers.match(last, values)
    return Choice(i, "value-last") if i is not None else Choice(None, "not-an-option")


@dataclass(frozen=True)
class ChoiceJudge:
    """Judges a multiple-choice reply by the option ``extract_choice`` reads from it."""

    compat: bool = False
    name: str = "choice@7"

    def __call__(self, question: Question, response: Response) -> Judgement:
        if not response.ok:
            return Judgement(None, None, {"status": "error"}, response.error or "", self.name)
        displayed = [o.text for o in question.displayed]
        found = extract_choice(response.text, displayed, question=question.text)
        if found.index is None:
            correct = False if self.compat else None
            return Judgement(correct, None, {"status": found.how}, "", self.name)
        order = question.order or tuple(range(len(question.options)))
        chosen = order[found.index]
        kind = question.options[chosen].kind
        return Judgement(
            chosen == question.correct,
            LETTERS[found.index],
            {"status": "parsed", "how": found.how, "option": chosen, "option_type": kind,
             "position": found.index},
            "",
            self.name,
        )


@register("judge", "choice", version=7)
def choice(*, compat: bool = False) -> ChoiceJudge:
    """Which option a reply chose: letters, option text, yes/no and numeric values; refusals
    and hedges unmeasured."""
    return ChoiceJudge(compat=compat)
