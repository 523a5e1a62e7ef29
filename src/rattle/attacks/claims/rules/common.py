"""What every rule-based claim attack shares: the subject, protected name spans, word
boundaries, inserting a clause, inflecting a verb or an adjective, sentence forms.

Protected spans (issue 15): an attack edits nothing inside a name ("Apollo 11", "Ninth
Symphony", "Stratford-upon-Avon") unless that name is what it targets (a temporal attack may
change the year of "9 November 1989"), and it never edits part of a hyphenated word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# spaCy entity labels that name something (OntoNotes): protected from every attack that does
# not target them. DATE/TIME and the quantity labels are not names: temporal and numerical
# attacks target them.
NAME_LABELS = frozenset({"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT",
                         "WORK_OF_ART", "LAW", "LANGUAGE"})
TIME_LABELS = frozenset({"DATE", "TIME"})
# Lower-case words that join the capitalised words of one name ("Count of Monte Cristo",
# "Stratford-upon-Avon", "Leonardo da Vinci", "Pride and Prejudice", "To Kill a Mockingbird").
_JOINERS = {"of", "de", "da", "di", "du", "van", "von", "der", "del", "la", "le", "upon", "on",
            "and", "the", "&", "y", "al", "bin", "ibn", "a", "an", "for"}
_YEAR_TOKEN = re.compile(r"^(1\d{3}|20\d{2})$")
# Events and structures spaCy's small model labels WORK_OF_ART: "The Battle of Waterloo" is
# "the Battle of Waterloo" inside a sentence, not a title (round 3: "Is it true that The
# Battle of ...", "Was The Statue of Liberty dedicated ...").
_EVENT_HEADS = {"battle", "war", "siege", "treaty", "peace", "revolution", "fire", "massacre",
                "rebellion", "uprising", "crisis", "congress", "council", "conference", "invasion",
                "statue", "tower", "bridge", "wall", "canal", "palace", "cathedral", "temple",
                "pyramid", "museum", "castle", "church", "abbey", "dam"}


def sentence_count(doc: Any) -> int:
    return sum(1 for _ in doc.sents)


def lower_first(text: str, doc: Any) -> str:
    """``text`` with its first letter lower-cased unless it starts a name ("The" before a
    name is lower-cased too, except in a title: "the Panama Canal", "The Hobbit")."""
    first = doc[0] if len(doc) else None
    if first is None or not text[:1].isupper() or not (text[1:2].islower() or text[1:2] == " "):
        return text
    if first.lower_ == "the":
        ent = next((e for e in doc.ents if e.start == 0), None)
        title = (ent is not None and ent.label_ == "WORK_OF_ART" and ent[-1].tag_ not in ("NNS", "NNPS")
                 and not (len(ent) > 1 and ent[1].lower_ in _EVENT_HEADS))
        return text if title else text[0].lower() + text[1:]
    if first.tag_ == "NN" and _bare_title(doc):
        return text  # "Girl with a Pearl Earring is ...": a title, not "girl with a ..."
    if first.tag_ in ("NN", "NNS") and not _proper_noun(first.lemma_):
        return text[0].lower() + text[1:]  # a common noun spaCy took for a name ("Tigers")
    if first.ent_type_ or first.pos_ == "X" or _proper_noun(first.text):
        return text
    plural = first.tag_ == "NNPS" or (first.text.endswith("s") and first.lemma_.lower() != first.lower_)
    if first.pos_ == "PROPN" and not (plural and _common_plural(first.text)):
        return text  # a name; but "Ravens", a plural the tagger took for one, is a noun
    return text[0].lower() + text[1:]


def _bare_title(doc: Any) -> bool:
    """A singular noun for a person with no article, opening a phrase that goes on to a
    capitalised word before the verb ("Girl with a Pearl Earring", "Woman with a Parasol"):
    English takes no bare "girl" as a subject, so it is a title (round 3, held-back labels)."""
    from rattle.attacks.claims.rules.entities import wordnet_person

    verb = next((t.i for t in doc if t.pos_ in ("VERB", "AUX")), len(doc))
    return wordnet_person(doc[0].lower_, noun=True) and any(
        t.text[:1].isupper() for t in doc[1:verb] if t.is_alpha)


def _common_plural(word: str) -> bool:
    from rattle.nlp.wordnet import reader

    synsets = reader().synsets(word.lower(), "n")
    return bool(synsets) and not synsets[0].instance_hypernyms()


def _proper_noun(word: str) -> bool:
    """Whether WordNet knows ``word`` only as a name ("Saturn", which the tagger calls a
    noun), not as a common word ("Water")."""
    from rattle.nlp.wordnet import reader

    synsets = reader().synsets(word.lower(), "n")
    return bool(synsets) and bool(synsets[0].instance_hypernyms())


def as_sentence(text: str) -> str:
    """``text`` as one declarative sentence: trimmed, capitalised, ending with a full stop."""
    body = text.strip().rstrip(" ,;:")
    if not body:
        return ""
    if body[-1] not in ".!?":
        body += "."
    elif body[-1] != ".":
        body = body[:-1] + "."
    return body[0].upper() + body[1:]


def subject(doc: Any) -> Any:
    """The nominal subject of the main verb, or None."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None:
        return None
    return next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)


def subject_tokens(doc: Any) -> set[int]:
    """Tokens of every subject; a sentence-initial stretch without a comma before the first
    subject counts too (a title the parser split: "Mostly Murder is ...")."""
    out: set[int] = set()
    for t in doc:
        if t.dep_ in ("nsubj", "nsubjpass", "csubj"):
            out.update(x.i for x in t.subtree)
    if out:
        first = min(out)
        if not any(t.text == "," for t in doc[:first]):
            out.update(range(first))
    return out


# -- protected spans ---------------------------------------------------------------------
def _name_like(doc: Any, i: int) -> bool:
    t = doc[i]
    if t.pos_ == "PROPN":
        return True
    if not t.text[:1].isupper() or not t.is_alpha:
        return False
    if i > 0 and doc[i - 1].text not in (".", "!", "?", ":", '"', "“"):
        return True  # a capitalised word inside the sentence
    # sentence-initial: part of a name when a name word follows directly ("Mostly Murder is")
    return i + 1 < len(doc) and doc[i + 1].pos_ == "PROPN" and doc[i + 1].text[:1].isupper()


def _trimmed(ent: Any) -> tuple[int, int] | None:
    """An entity's span without the lower-case words spaCy sometimes swallows at its edges
    ("The American Civil War ended": the verb is not part of the name)."""
    tokens = list(ent)

    def part(t: Any) -> bool:
        return not t.is_alpha or t.text[:1].isupper() or (t.lower_ in _JOINERS and t is not tokens[-1])

    while tokens and not part(tokens[-1]):
        tokens.pop()
    while tokens and not part(tokens[0]):
        tokens.pop(0)
    if not tokens:
        return None
    return tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)


def name_spans(doc: Any, *, targets: Iterable[str] = ()) -> list[tuple[int, int]]:
    """Character spans of the names in ``doc``: spaCy entities with a ``NAME_LABELS`` label,
    runs of capitalised words (joined by "of", "de", "upon", ...), a number right after a name
    ("Apollo 11", "Sputnik 1") and every hyphenated word of a name. Entities whose label is in
    ``targets`` (e.g. DATE for the temporal attack) are not protected, nor a year that opens a
    name when DATE is a target ("the 2008 Summer Olympics")."""
    allowed = set(targets)
    years_free = bool(allowed & TIME_LABELS)
    free = [(e.start_char, e.end_char) for e in doc.ents if e.label_ in allowed]
    spans: list[tuple[int, int]] = [span for e in doc.ents
                                    if e.label_ in NAME_LABELS and e.label_ not in allowed
                                    and (span := _trimmed(e)) is not None]
    n = len(doc)
    i = 0
    while i < n:
        if not _name_like(doc, i):
            i += 1
            continue
        j = i
        while j + 1 < n:
            nxt = doc[j + 1]
            if _name_like(doc, j + 1) or (nxt.idx == doc[j].idx + len(doc[j].text)
                                          and nxt.text in ("-", "'s", "’s", ".")):
                j += 1
            elif (nxt.lower_ in _JOINERS and j + 2 < n and _name_like(doc, j + 2)
                  and nxt.text.islower()):
                j += 2
            elif nxt.text[:1].isdigit() and nxt.like_num and doc[j].pos_ == "PROPN" \
                    and not (years_free and _YEAR_TOKEN.match(nxt.text)):
                j += 1  # "Apollo 11", "Sputnik 1"
            else:
                break
        spans.append((doc[i].idx, doc[j].idx + len(doc[j].text)))
        i = j + 1
    out = []
    for a, b in spans:
        if any(fa <= a and b <= fb for fa, fb in free):
            continue  # a name inside a targeted entity ("November" in "9 November 1989")
        if years_free:
            m = re.match(r"(?:the\s+)?(1\d{3}|20\d{2})\s+", doc.text[a:b], re.I)
            if m:
                a += m.end()  # "the 2008 Summer Olympics": the year is not part of the name
        out.append((a, b))
    return sorted(set(out))


def word_start(text: str, i: int) -> int:
    """Start of the whitespace-delimited word around offset ``i`` (hyphens inside words)."""
    while i > 0 and not text[i - 1].isspace() and text[i - 1] not in "(\"“":
        i -= 1
    return i


def word_end(text: str, i: int) -> int:
    """End of the word around offset ``i``: hyphenated words whole, trailing punctuation and a
    possessive "'s" left out."""
    n = len(text)
    while i < n and not text[i].isspace():
        if text[i] in ",;:!?\"”)" or (text[i] == "." and (i + 1 == n or text[i + 1].isspace())):
            break
        if text[i] in "'’" and text[i + 1:i + 2] == "s" and (i + 2 == n or not text[i + 2].isalnum()):
            break
        i += 1
    return i


def edit_problem(claim: str, doc: Any, start: int, end: int, *,
                 targets: Iterable[str] = ()) -> str | None:
    """Why replacing ``claim[start:end]`` is not allowed (inside a protected name, or part of
    a word), or None. An insertion has ``start == end``."""
    if start < end and (word_start(claim, start) != start or word_end(claim, end - 1) != end):
        return "the edit splits a word"
    for a, b in name_spans(doc, targets=targets):
        if (start < b and a < end) if start < end else (a < start < b):
            return "the edit falls inside a name"
    return None


def replace_span(claim: str, start: int, before: str, after: str) -> str:
    """``claim`` with ``before`` at ``start`` replaced by ``after`` (capitalised at the start)."""
    text = claim[:start] + after + claim[start + len(before):]
    if start == 0 and claim[:1].isupper() and text[:1].islower():
        text = text[0].upper() + text[1:]
    return text


def insert_clause(claim: str, end: int, clause: str) -> str:
    """``claim`` with ``, clause`` after offset ``end`` (and a closing comma mid-sentence)."""
    end = word_end(claim, end) if end < len(claim) and not claim[end].isspace() else end
    tail = claim[end:]
    closing = "" if tail[:1] in (".", ",", ";", "!", "?", "") else ","
    return f"{claim[:end]}, {clause}{closing}{tail}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# -- inflection ----------------------------------------------------------------------------
# Past forms of common irregular verbs; the rest inflect by rule (or from WordNet's exception
# list, see semantic.py).
IRREGULAR = {"lose": ("lost", "lost"), "win": ("won", "won"), "rise": ("rose", "risen"),
             "fall": ("fell", "fallen"), "begin": ("began", "begun"), "sink": ("sank", "sunk"),
             "find": ("found", "found"), "keep": ("kept", "kept"), "give": ("gave", "given"),
             "take": ("took", "taken"), "leave": ("left", "left"), "come": ("came", "come"),
             "go": ("went", "gone"), "buy": ("bought", "bought"), "sell": ("sold", "sold"),
             "hold": ("held", "held"), "break": ("broke", "broken"), "forget": ("forgot", "forgotten"),
             "write": ("wrote", "written"), "make": ("made", "made"), "build": ("built", "built"),
             "become": ("became", "become"), "run": ("ran", "run"), "lead": ("led", "led"),
             "set": ("set", "set"), "put": ("put", "put"), "shut": ("shut", "shut"),
             "stand": ("stood", "stood"), "get": ("got", "got"), "see": ("saw", "seen"),
             "know": ("knew", "known"), "show": ("showed", "shown"), "grow": ("grew", "grown"),
             "draw": ("drew", "drawn"), "fly": ("flew", "flown"), "speak": ("spoke", "spoken"),
             "choose": ("chose", "chosen"), "freeze": ("froze", "frozen"), "think": ("thought", "thought"),
             "bring": ("brought", "brought"), "teach": ("taught", "taught"), "fight": ("fought", "fought"),
             "send": ("sent", "sent"), "spend": ("spent", "spent"), "lend": ("lent", "lent"),
             "meet": ("met", "met"), "pay": ("paid", "paid"), "say": ("said", "said"),
             "tell": ("told", "told"), "strike": ("struck", "struck"), "seek": ("sought", "sought"),
             "end": ("ended", "ended"), "open": ("opened", "opened"), "close": ("closed", "closed")}
_VOWELS = "aeiou"


def _double_final(word: str) -> bool:
    """One-syllable consonant-vowel-consonant words double their last letter (stop, big)."""
    return (len(word) >= 3 and word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS
            and word[-3] not in _VOWELS and syllables(word) == 1)


def syllables(word: str) -> int:
    groups = re.findall(r"[aeiouy]+", word.lower())
    n = len(groups)
    if word.lower().endswith("e") and n > 1 and not word.lower().endswith(("le", "ee")):
        n -= 1
    return max(1, n)


def inflect(lemma: str, tag: str) -> str:
    """``lemma`` in the form of Penn tag ``tag`` (VB, VBD, VBN, VBZ, VBP, VBG)."""
    if tag in ("VB", "VBP"):
        return lemma
    if tag in ("VBD", "VBN"):
        if lemma in IRREGULAR:
            return IRREGULAR[lemma][0 if tag == "VBD" else 1]
        if lemma.endswith("e"):
            return lemma + "d"
        if lemma.endswith("y") and lemma[-2:-1] not in _VOWELS:
            return lemma[:-1] + "ied"
        if _double_final(lemma):
            return lemma + lemma[-1] + "ed"
        return lemma + "ed"
    if tag == "VBZ":
        if lemma.endswith("y") and lemma[-2:-1] not in _VOWELS:
            return lemma[:-1] + "ies"
        return lemma + ("es" if lemma.endswith(("s", "sh", "ch", "x", "o", "z")) else "s")
    if tag == "VBG":
        if lemma.endswith("ie"):
            return lemma[:-2] + "ying"
        if lemma.endswith("e") and not lemma.endswith(("ee", "ye", "oe")):
            return lemma[:-1] + "ing"
        if _double_final(lemma):
            return lemma + lemma[-1] + "ing"
        return lemma + "ing"
    return lemma


def grade(adjective: str, tag: str) -> str:
    """An adjective (or adverb) in the degree of Penn tag ``tag``: JJR/RBR comparative,
    JJS/RBS superlative ("shallow" -> "shallowest", "famous" -> "most famous")."""
    if tag not in ("JJR", "JJS", "RBR", "RBS"):
        return adjective
    superlative = tag in ("JJS", "RBS")
    word = adjective.lower()
    if syllables(word) > 2 or (syllables(word) == 2 and not word.endswith(("y", "ow", "le", "er"))) \
            or " " in word or "-" in word:
        return f"{'most' if superlative else 'more'} {adjective}"
    ending = "est" if superlative else "er"
    if word.endswith("e"):
        return adjective + ending[1:]
    if word.endswith("y") and word[-2:-1] not in _VOWELS:
        return adjective[:-1] + "i" + ending
    if _double_final(word):
        return adjective + adjective[-1] + ending
    return adjective + ending


def match_case(new: str, old: str) -> str:
    """``new`` capitalised like ``old`` (first letter)."""
    if old[:1].isupper() and new[:1].islower():
        return new[0].upper() + new[1:]
    return new
