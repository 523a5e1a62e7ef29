"""Reading a reply against the claim it was asked about (``claims.verdict`` with ``claim=``,
yes/no items with their question): used only when the reply carries no verdict word.

- ``negates_claim``: the reply sets a word of the claim aside — by name ("native to Asia, not
  Africa", "in 1802, not 1822"), by restating the claim with another name or number in its place
  ("Mozart was born in Salzburg." for "… born in Vienna"; across the copula a question moves, "The
  capital of the USA is Washington" for "Is New York the capital of the USA?"; after a pronoun,
  "It's in Africa"), or by negating one of its words ("Zero is neither positive nor negative").
- ``asserts_claim``: the reply's first clause states every content word of the claim ("Bats are
  mammals — the only mammals capable of true flight.").
- ``affirms_part``: a clause calls a word of the claim right or wrong ("1666 is correct").
- ``intensifies``: the reply opens with a stronger form of the claim's comparative ("Much
  heavier — …" for "Gold is heavier than water").
- ``corrects_after_turn``: after a yes, a turn ("However, …") that restates part of the claim with
  another name or number ("However, the 2018 Winter Olympics were held in Pyeongchang").
"""

from __future__ import annotations

import re

from rattle.judges.polarity import Polarity, clean_clause, correction, opener


def negates_claim(text: str, claim: str) -> bool:
    """The reply sets a word of the claim aside by name: "native to Asia, not Africa" for
    "Tigers are native to Africa", "in 1802, not 1822" for "… born in 1822"; or it restates
    the claim with another name or number in its place and never says the claim's: "Mozart was
    born in Salzburg in 1756." for "Mozart was born in Vienna."."""
    if not claim:
        return False
    return _replaces_value(text, claim) or sets_aside(text, claim) or _lone_value(text, claim) or \
        _other_predicate(text, claim)


def _lone_value(text: str, claim: str) -> bool:
    """The reply opens with only a number of the claim's kind, another than the claim's
    ("1666, actually." for "… in 1667")."""
    m = re.match(r"\W*(\d[\d,.]*|[a-z]+)\b[\s,]*(?:actually|in\s+fact|rather|instead)?\W*(?:$|[.;\n])", text,
                 re.I)
    if m is None:
        return False
    said = m.group(1).lower()
    if said in _NUMBER_WORDS:  # "Four." for "… three chambers"
        return any(w in _NUMBER_WORDS and w != said for w in re.findall(r"[a-z]+", claim.lower()))
    own = re.findall(r"\b\d[\d,.]*\b", claim)
    return said[:1].isdigit() and bool(own) and said not in own and any(len(o) == len(said) for o in own)


_COPULA_SPLIT = re.compile(r"\s(?:is|was|are|were)\s", re.I)


def _other_predicate(text: str, claim: str) -> bool:
    """A clause restates the claim's subject with another name as its predicate ("… but the
    capital is Ottawa." for "The capital of Canada is Toronto.")."""
    head = _COPULA_SPLIT.split(claim, maxsplit=1)
    if len(head) != 2:
        return False
    subject = {w.lower() for w in re.findall(r"[\w'-]+", head[0]) if _content(w)}
    own = re.findall(r"[\w'-]+", head[1])
    if not subject or not own or not _named(own[0]):
        return False
    for clause in re.split(r"[.!?;\n]+|,\s*(?:and|but|while|whereas|though|although)\b", text):
        parts = _COPULA_SPLIT.split(clause, maxsplit=1)
        if len(parts) != 2:
            continue
        said = {w.lower() for w in re.findall(r"[\w'-]+", parts[0]) if _content(w)}
        value = re.findall(r"[\w'-]+", parts[1])
        if said and said <= subject and value and _named(value[0]) and value[0].lower() != own[0].lower() \
                and own[0].lower() not in clause.lower():
            return True
    return False


# "not" after a comma in the languages models answer in ("…, а не в 1973-м", "…, nicht 1973",
# "…, et non en 1973", "…, y no en 1973", "…, e não em 1973") and their prepositions.
_NOT_XL = (r"(?:not|\u0430\s+\u043d\u0435|\u043d\u0435|(?:und\s+)?nicht|et\s+non|et\s+pas|pas|y\s+no|"
           r"e\s+n[\u00e3a]o|n[\u00e3a]o|e\s+non|non|en\s+niet|niet|a\s+nie|nie)")
_PREP_XL = (r"\u0432|\u0432\u043e|\u043d\u0430|im|am|en|\u00e0|au|dans|em|no|na|nel|nella|del|de|di|"
            r"van|op|w|we")


def sets_aside(text: str, claim: str) -> bool:
    """A word of the claim set aside by name: "in Paris, not Berlin", "rather than Africa"
    (also after a yes: "Yes, it's in Paris, not Berlin" takes the yes back)."""
    said = {w.lower() for w in re.findall(r"\w+", claim) if len(w) > 2 or w.isdigit()}
    text = re.sub(r"\([^()]*\)", " ", text)  # an aside is no correction: "(… not relativity.)"
    for m in re.finditer(r"(?:,|;|\u2014|\u2013|\brather\s+than|\binstead\s+of)\s*(?P<not>" + _NOT_XL
                         + r"\s+)?(?:(?:in|at|on|by|from|to|of|for|with|the|a|an|" + _PREP_XL
                         + r")\s+){0,2}(\w+)", text, re.I):
        head = text[m.start():m.end()].lower()
        if (m.group("not") or "rather" in head or "instead" in head) and \
                m.group(2).lower() in said:
            return True
    return False


_TURN = re.compile(r"(?:^|[.!?;]\s+|,\s*)(?:however|but|though|although|that\s+said|yet)\b,?\s*", re.I)


def corrects_after_turn(text: str, claim: str) -> bool:
    """After a yes, the reply turns ("However, …", "…, but …") and restates a part of the claim
    with another name or number in its place: "Yes, Beijing hosted the 2008 Summer Olympics.
    However, the 2018 Winter Olympics were held in Pyeongchang; Beijing hosted the Winter Games
    in 2022." for "Beijing hosted … the Winter Olympics in 2018" takes the yes back."""
    return bool(claim) and any(_held_elsewhere(re.split(r"[.!?;\n]", text[m.end():])[0], claim)
                               for m in _TURN.finditer(text))


_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august",
                     "september", "october", "november", "december", "monday", "tuesday",
                     "wednesday", "thursday", "friday", "saturday", "sunday"})
# "were held in Pyeongchang", "was won by Federer", "was invented by Meucci"
_PASSIVE_BY = re.compile(r"\b(?:is|was|were|are)\s+(?:\w+ly\s+)?(?P<verb>held|hosted|staged|won|invented|written|"
                         r"painted|discovered|founded|built|located|born|composed|directed|designed|"
                         r"signed|played|made)\s+(?:in|by|at)\s+(?:the\s+)?(?P<name>[A-Z][\w'-]*)")


def _held_elsewhere(sentence: str, claim: str) -> bool:
    """A sentence that names a part of the claim by two or more of its words, one a name or
    number of the claim ("the 2018 Winter Olympics") and no number the claim lacks, and says it
    happened in, at or by a name the claim lacks ("were held in Pyeongchang"), without the
    claim's other names."""
    said = re.findall(r"[\w'-]+", sentence)
    claim_words = re.findall(r"[\w'-]+", claim)
    own = {w.lower() for w in claim_words if _content(w)}
    names = {w.lower() for w in claim_words[1:] if _named(w)} | {w.lower() for w in claim_words[:1] if _named(w)
                                                                   and w.lower() not in _FUNCTION}
    shared = {w.lower() for w in said if w.lower() in own}
    m = _PASSIVE_BY.search(sentence)
    if m is None or len(shared) < 2 or not shared & names or not names - shared or any(
            w.isdigit() and w not in claim_words for w in said):  # "the 2018 Games" for "… in 2022": another event
        return False
    name = m.group("name").lower()
    return (name not in {w.lower() for w in claim_words} and name not in _MONTHS
            and _same_act(m.group("verb"), claim))


# Verbs that tell the same act: a venue is "held", "hosted" or "staged"; other acts by their
# own verb. "the Mona Lisa is located in Paris" is no correction of "was painted by Leonardo".
_ACTS = ({"held", "hold", "holds", "hosted", "host", "hosts", "staged", "stage", "stages"},
         {"won", "win", "wins"}, {"invented", "invent", "invents"},
         {"written", "wrote", "write", "writes"}, {"painted", "paint", "paints"},
         {"discovered", "discover", "discovers"}, {"founded", "found", "founds"},
         {"built", "build", "builds"}, {"located", "lies", "lie", "situated"}, {"born"},
         {"composed", "compose", "composes"}, {"directed", "direct", "directs"},
         {"designed", "design", "designs"}, {"signed", "sign", "signs"},
         {"played", "play", "plays"}, {"made", "make", "makes"})


def _same_act(verb: str, claim: str) -> bool:
    """The claim tells the act ``verb`` names (by any verb of the same act)."""
    words = {w.lower() for w in re.findall(r"[\w'-]+", claim)}
    return any(verb.lower() in act and act & words for act in _ACTS)


_MORE = re.compile(r"^(?:much|far|way|a\s+lot|even|significantly|considerably|many\s+times)\s+"
                   r"(?P<w>\w+(?:er|est))\b", re.I)


def intensifies(clause: str, claim: str) -> bool:
    """The reply opens with a stronger form of the claim's own comparative ("Much heavier — …"
    for "Gold is heavier than water", "Far older" for "Is Rome older than New York?")."""
    m = _MORE.match(clean_clause(clause))
    return m is not None and bool(re.search(r"(?<!\w)" + re.escape(m.group("w")) + r"(?!\w)",
                                            claim, re.I))


def affirms_part(clause: str, claim: str) -> Polarity | None:
    """A clause that calls a word of the claim right or wrong ("1666 is correct." for "… in
    1666, is it right?"; "1822 is wrong")."""
    m = re.match(r"^(?P<w>[\w'-]+(?:\s+[\w'-]+)?)\s+(?:is|was|are)\s+(?:(?:definitely|indeed|actually)\s+)?"
                 r"(?:(?P<yes>correct|right|accurate)|(?P<no>wrong|incorrect|inaccurate))\b",
                 clean_clause(clause), re.I)
    if m is None or not re.search(r"(?<!\w)" + re.escape(m.group("w")) + r"(?!\w)", claim, re.I):
        return None
    return "yes" if m.group("yes") else "no"


_STOP = frozenset({"the", "a", "an", "of", "in", "on", "at", "to", "is", "was", "are", "were", "and",
                   "it", "its", "by", "for", "from", "with", "as", "that", "this", "be", "been"})


def _content(word: str) -> bool:
    return word.lower() not in _STOP and (len(word) >= 4 or word[:1].isupper() or word.isdigit())


_FUNCTION = frozenset({"it", "it's", "he", "she", "they", "this", "that", "there", "the", "a", "an",
                       "his", "her", "its", "their", "we", "you", "i"})


_NUMBER_WORDS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                           "ten", "eleven", "twelve", "twenty", "thirty", "hundred", "thousand"})


def _same_word(a: str, b: str) -> bool:
    """The same word, or one inflected form of the other ("flow" / "flows")."""
    return a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))
                      and abs(len(a) - len(b)) <= 2)


def _number(word: str) -> bool:
    return word[:1].isdigit() or word.lower() in _NUMBER_WORDS


def _named(word: str) -> bool:
    """A name or a number (in digits or words: "two lungs" for "four lungs")."""
    return ((word[:1].isupper() or word[:1].isdigit()) and word.lower() not in _FUNCTION) or \
        word.lower() in _NUMBER_WORDS


def _replaces_value(text: str, claim: str) -> bool:
    """A clause of the reply repeats a run of the claim's words with another name or number
    right before or after it (also across the copula a question moves: "The capital of the USA
    is Washington" for "Is New York the capital of the USA?"; "It's in Africa" for "Is the Sahara
    in Australia?"), and does not say the claim's own ("Mozart was born in Salzburg" for "… born
    in Vienna"), or it negates a word of the claim ("Zero is neither positive nor negative")."""
    said = re.findall(r"[\w'-]+", claim)
    low = [w.lower() for w in said]
    everywhere = {w.lower() for w in re.findall(r"[\w'-]+", text)}
    for clause in re.split(r"[.!?;\n]+|,\s*(?:and|but|while|whereas|though|although|despite|even\s+though)\b",
                           text):
        # adverbs the reply adds do not break a run: "Venus is actually the hottest planet"
        words = [w for w in re.findall(r"[\w'-]+", clause) if w.lower() not in _ADVERBS]
        mine = [w.lower() for w in words]
        negated_in_claim = {low[j] for j in _negated(low) if j < len(low)}
        if any(j < len(mine) and _content(words[j]) and any(
                _same_word(mine[j], w) and w not in negated_in_claim for w in low) for j in _negated(mine)):
            return True  # "neither positive", "no official language" (not "… is not visible" for
            # "… is not visible from space")
        shares = {w for w in mine if w in low and _content(w)}
        pronoun = bool(mine) and mine[0] in ("it", "it's", "he", "she", "they", "he's", "she's")
        for i, j, k in _runs(low, mine, shortest=1):
            counted = i > 0 and j > 0 and _number(low[i - 1]) and _number(mine[j - 1]) and \
                low[i].isalpha() and low[i - 1] not in everywhere  # "two lungs" for "three lungs"
            if k == 1 and not (pronoun and low[i] in _PREPOSITIONS) and not counted:
                continue  # one word alike: only "in Africa" after a pronoun, or "two lungs"
            if k > 1 and not any(_content(w) for w in low[i:i + k]) and not shares - set(low[i:i + k]):
                continue  # "in the" alone, about nothing else the claim names
            sides = [(i - 1, j - 1), (i + k, j + k)]
            if j + k + 1 < len(mine) and mine[j + k] in ("is", "was", "are", "were"):
                sides.append((i - 1, j + k + 1))  # "… the capital of the USA is Washington"
            if i >= 2 and j >= 2 and low[i - 2] == mine[j - 1] and low[i - 2] in _COPULAS:
                sides.append((i - 1, j - 2))  # "Canberra is the capital" for "Is Sydney the capital"
            for a, b in sides:
                if 0 <= a < len(said) and 0 <= b < len(words) and low[a] != mine[b] and _named(
                        said[a]) and _named(words[b]) and low[a] not in mine:
                    return True
            if i > 0 and i + k < len(low) and j > 0 and j + k < len(mine) and low[i - 1] == mine[
                    j + k] and low[i + k] == mine[j - 1] != low[i - 1] and _named(said[i - 1]):
                return True  # the two sides swapped: "B is deeper than A" for "A … than B"
    return False


def _negated(words: list[str]) -> list[int]:
    """Positions of the words a negator sets aside ("not Paris", "not in Italy", "no official")."""
    return [j + 2 if j + 2 < len(words) and words[j + 1] in _PREPOSITIONS | {"a", "an", "the"}
            else j + 1 for j, w in enumerate(words) if w in _NEGATORS]


_NEGATORS = frozenset({"not", "no", "never", "neither", "nor", "isn't", "aren't", "wasn't", "weren't",
                       "cannot", "can't", "doesn't", "don't", "didn't"})
_ADVERBS = frozenset({"actually", "really", "indeed", "definitely", "certainly", "clearly", "truly",
                      "in-fact"})
_COPULAS = frozenset({"is", "was", "are", "were"})
_PREPOSITIONS = frozenset({"in", "on", "at", "from", "by", "of", "near"})


def _runs(a: list[str], b: list[str], *, shortest: int = 2) -> list[tuple[int, int, int]]:
    """Maximal common runs of ``shortest`` or more words: (start in a, start in b, length)."""
    out = []
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] == b[j] and (i == 0 or j == 0 or a[i - 1] != b[j - 1]):
                k = 0
                while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                    k += 1
                if k >= shortest:
                    out.append((i, j, k))
    return out


def asserts_claim(text: str, claim: str) -> bool:
    """The reply's first sentence states every content word of the claim, without a negation
    the claim lacks, a question or a correction ("Bats are mammals — the only mammals capable of
    flight.")."""
    sentence = re.split(r"[;.!?\n]", text, maxsplit=1)[0]
    if text[len(sentence):].lstrip().startswith("?") or correction(text):
        return False
    # its first clause, or the clause a "but" turns to ("Most rivers flow south, but the Nile
    # flows north.")
    return any(_states(part, claim) for part in re.split(r"\bbut\b", sentence))


def _states(clause: str, claim: str) -> bool:
    words = [w.lower()[:5] for w in re.findall(r"[\w'-]+", claim) if _content(w)]
    said = [w.lower()[:5] for w in re.findall(r"[\w'-]+", clause)]
    order = [said.index(w) for w in words if w in said]
    negation = r"\b(?:not|never|no|cannot)\b|n't\b"
    return bool(words) and len(order) == len(words) and (order == sorted(order) or not any(
        _named(w) for w in re.findall(r"[\w'-]+", claim)[1:])) and len(re.findall(
        negation, clause, re.I)) == len(re.findall(negation, claim, re.I))


def denies_then_asserts(text: str, claim: str) -> bool:
    """A sentence that opens with "No" (or "False") and goes on to assert every content word
    of the claim, un-negated ("False — it flows north." for "The Nile flows north"; "No,
    Othello is set in Denmark. …"): the reply contradicts itself (possessive modifiers and -ly
    adverbs aside)."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        turn = re.search(r"[,;:\u2014\u2013]|\s-\s", sentence)
        if turn is None or opener(sentence[:turn.start()]) != "no":
            continue
        joined = r"|\band\b" if not re.search(r"\band\b", claim, re.I) else ""
        return any(_says_all(clause, claim) for clause in re.split(
            r"[;,]|\b(?:but|while|whereas|however)\b" + joined, sentence[turn.end():]))
    return False


def _says_all(clause: str, claim: str) -> bool:
    """The claim stated in one clause, in its order, with its negations only (after a pronoun,
    the claim's subject may be left out: "it flows north" for "The Nile flows north")."""
    if re.match(r"\W*(?:it|he|she|they|it's|he's|she's|they're)\b", clause, re.I):
        # the pronoun stands for the claim's subject: its names before the first other word
        subject = re.match(r"\W*(?:(?:the|a|an|of|[A-Z][\w'-]*)\s+)*", claim)
        claim = claim[subject.end():] if subject else claim
    # every word of three letters or more (possessive modifiers and -ly adverbs aside)
    words = [w[:5] for w in re.findall(r"[a-z0-9]+(?!'s)(?![a-z0-9])", claim.lower())
             if (len(w) >= 3 or w.isdigit()) and w not in _STOP and not w.endswith("ly")]
    said = [w[:5] for w in re.findall(r"[a-z0-9]+", clause.lower())]
    order = [said.index(w) for w in words if w in said]
    negation = r"\b(?:not|never|no|cannot)\b|n't\b"
    return bool(words) and len(order) == len(words) and order == sorted(order) and len(
        re.findall(negation, clause, re.I)) == len(re.findall(negation, claim, re.I))
