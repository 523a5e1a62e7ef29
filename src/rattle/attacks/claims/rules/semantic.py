"""Semantic replacement (paper §2.1): a verb, adjective or adverb becomes a WordNet antonym
(the claim turns false: "indoor" -> "outdoor", "busiest" -> "idlest") or synonym (it stays
true: "completed" -> "finished"), never inside a name or the subject, preferring words in
subordinate clauses.

Issue 15 found replacements no reader would believe ("The Berlin Wall increased", "Everest
lies 8,849 metres tall"). The word is therefore read in its most frequent WordNet sense that
fits how it is used (a transitive verb for a verb with an object or in the passive), the
replacement must be a common word (attested in WordNet's sense-tagged counts) that takes the
same argument frame, and it is inflected like the word it replaces (tense, comparative,
superlative). The correction is the original sentence.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.claims.rules.common import (IRREGULAR, as_sentence, edit_problem, grade,
                                                inflect, match_case, replace_span,
                                                subject_tokens)
from rattle.attacks.documents.base import Dropped

_SUBORDINATE = {"relcl", "advcl", "acl", "ccomp", "conj", "xcomp", "pcomp"}
# Verbs whose replacements read as another construction, not another fact ("lost the Nobel
# Prize" is not the opposite of winning it; "had" and "made" carry no meaning of their own).
_SKIP = {"have", "be", "do", "hold", "set", "make", "get", "take", "become", "give", "go", "come",
         "put", "let", "keep", "win", "lose", "know", "bear", "call", "name", "base", "say",
         "only", "also", "not", "then", "still", "ever", "just", "even", "too", "so", "as",
         "very", "more", "most", "less", "least", "well", "much", "first", "second", "third",
         "last", "other", "same", "own", "such", "able", "due", "later", "earlier", "now", "up",
         "about", "ago", "long", "far"}
# WordNet verb frames (the 35 generic sentence frames) with a direct object, and without.
TRANSITIVE_FRAMES = frozenset({5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 30, 31})
INTRANSITIVE_FRAMES = frozenset({1, 2, 3, 4, 6, 7, 12, 13, 22, 23, 27})
# How many of a word's most frequent senses are read for antonyms (adjectives, adverbs).
SENSES = 2
# A replacement must be this common: its sense-tagged count (SemCor, summed over its senses
# of that part of speech); "nonmodern" has none.
MIN_COUNT = 1
# Verb antonyms and all synonyms are taken only from these pairs, each checked against WordNet
# (an antonym of the word, or a lemma of one of its synsets): raw WordNet verb senses gave
# "burned at the stake" -> "fired", "released the album" -> "relinquished" (issue 15 and the
# development labels, docs/claims.md). The pairs read as the same (or the opposite) fact in
# encyclopedic sentences.
# No open/close, establish/abolish: "the London Underground closed in 1863", "NASA was
# abolished in 1958" contradict what readers know of things that still exist (development
# labels).
VERB_ANTONYMS = {"begin": ("end",), "end": ("begin",),
                 "increase": ("decrease",), "decrease": ("increase",), "accept": ("reject",),
                 "include": ("exclude",), "succeed": ("fail",), "appear": ("disappear",),
                 "buy": ("sell",), "sell": ("buy",), "import": ("export",), "export": ("import",),
                 "remember": ("forget",), "lengthen": ("shorten",), "ascend": ("descend",),
                 "descend": ("ascend",), "attack": ("defend",), "defend": ("attack",),
                 "unite": ("divide",), "permit": ("forbid",), "raise": ("lower",),
                 "widen": ("narrow",), "float": ("sink",)}
# Adjective and adverb antonyms are read from WordNet but kept only for these gradable pairs:
# a degree on one scale (size, height, temperature, frequency, direction), so the swap is
# false and a reader could believe it. Classifying adjectives gave antonyms that keep the
# sentence true ("any other national team" -> "international team"), contradict it ("the
# discovery of two new elements" -> "old elements", "a nuclear power plant" with a reactor ->
# "conventional") or read as nonsense ("a single manuscript" -> "a double manuscript", "two
# different fields" -> "two same fields"): 11 of 33 held-back variants, round 3 (docs/claims.md).
GRADABLE = frozenset(frozenset(p) for p in (
    ("many", "few"), ("high", "low"), ("hot", "cold"), ("warm", "cool"), ("indoor", "outdoor"),
    ("small", "large"), ("public", "private"), ("early", "late"), ("fast", "slow"),
    ("deep", "shallow"), ("tall", "short"), ("long", "short"), ("heavy", "light"),
    ("wide", "narrow"), ("strong", "weak"), ("wet", "dry"), ("northern", "southern"),
    ("eastern", "western"), ("rich", "poor"), ("young", "old"), ("major", "minor"),
    ("thick", "thin"), ("inner", "outer"), ("often", "rarely")))
# Verbs that say which way a quantity went: with two numbers in the sentence the numbers fix
# the direction ("270 bones at birth, a total that decreases to about 206": "increases"
# contradicts them).
_DIRECTIONAL = {"increase", "decrease", "rise", "fall", "grow", "shrink", "lengthen", "shorten",
                "widen", "narrow", "raise", "lower", "ascend", "descend"}
SYNONYMS = {
    "VERB": {"complete": ("finish",), "finish": ("complete",), "found": ("establish",),
             "establish": ("found",), "begin": ("start",), "start": ("begin",),
             "build": ("construct",), "construct": ("build",), "happen": ("occur",),
             "occur": ("happen",), "compose": ("write",),
             "capture": ("seize",), "invent": ("devise",)},
    # no "lead" -> "head": "led the Salt March" -> "headed" reads well, "a leading
    # abolitionist" -> "a heading abolitionist" does not (held-back labels, round 3)
    "ADJ": {"large": ("big",), "big": ("large",), "famous": ("renowned",),
            "sovereign": ("independent",)},
    "ADV": {"officially": ("formally",), "solo": ("alone",), "usually": ("commonly",),
            "often": ("frequently",), "frequently": ("often",), "commonly": ("usually",)},
}
_NEGATIONS = ("un", "in", "im", "il", "ir", "non", "dis")
# What ends a war: in a sentence about one of these, "ended" -> "began" contradicts the rest
# ("The Peace of Westphalia ... began the Thirty Years' War", "ended with an armistice").
_ENDINGS = {"armistice", "peace", "treaty", "surrender", "truce", "capitulation"}
_WN_POS = {"ADJ": ("a", "s"), "ADV": ("r",), "VERB": ("v",)}


def _reader() -> Any:
    from rattle.nlp.wordnet import reader

    return reader()


@lru_cache(maxsize=20_000)
def _count(word: str, pos: str) -> int:
    wn = _reader()
    return sum(lemma.count() for p in _WN_POS[pos] for lemma in wn.lemmas(word, p))


@lru_cache(maxsize=20_000)
def _frames(word: str) -> frozenset[int]:
    """Every WordNet frame the verb ``word`` takes in any of its senses."""
    return frozenset(f for lemma in _reader().lemmas(word, "v") for f in lemma.frame_ids())


def _frame_class(token: Any) -> frozenset[int] | None:
    """The frames that fit how the verb is used: with a direct object or in the passive
    (transitive), with neither (intransitive); None for clausal complements."""
    deps = {c.dep_ for c in token.children}
    if deps & {"ccomp", "xcomp", "dative"}:
        return None
    if deps & {"dobj", "auxpass", "nsubjpass"} or (token.dep_ in ("acl",) and token.tag_ == "VBN"):
        return TRANSITIVE_FRAMES
    return INTRANSITIVE_FRAMES


@lru_cache(maxsize=8192)
def _irregular(word: str, pos: str) -> tuple[str, ...]:
    """Inflected forms WordNet lists as exceptions for ``word`` (adj: better, best)."""
    wn = _reader()
    table = wn._exception_map.get({"ADJ": "a", "ADV": "r", "VERB": "v"}[pos], {})
    return tuple(sorted(form for form, bases in table.items() if word in bases))


def _inflected(word: str, token: Any) -> str | None:
    """``word`` (a lemma) in the form of ``token``, or None when the form is unsure."""
    if token.pos_ == "VERB":
        if token.tag_ in ("VBD", "VBN") and word not in IRREGULAR and _irregular(word, "VERB"):
            return None  # an irregular past WordNet knows but this table does not
        return inflect(word, token.tag_)
    if token.tag_ in ("JJR", "JJS", "RBR", "RBS"):
        forms = _irregular(word, "ADJ")
        if forms:
            want_superlative = token.tag_ in ("JJS", "RBS")
            fit = [f for f in forms if f.endswith("st") == want_superlative]
            return fit[0] if len(fit) == 1 else None
        graded = grade(word, token.tag_)
        return None if " " in graded else graded  # "most distant" for "closest" reads badly
    return word


def _wordnet_pair(lemma: str, word: str, pos: str, relation: str) -> bool:
    """Whether WordNet lists ``word`` as an antonym of ``lemma`` (or in one of its synsets)."""
    wn = _reader()
    for p in _WN_POS[pos]:
        for synset in wn.synsets(lemma, p):
            names = [x.name() for x in synset.lemmas()]
            if relation == "synonym" and word in names:
                return True
            if relation == "antonym" and any(a.name() == word for x in synset.lemmas()
                                             if x.name() == lemma for a in x.antonyms()):
                return True
    return False


def _adjective_antonyms(lemma: str, pos: str) -> list[str]:
    """WordNet antonyms from the word's most frequent senses, common words only, no
    morphological negations ("inactive ruler", "unscientific academy" are not believed), and
    only the ``GRADABLE`` pairs."""
    wn = _reader()
    senses = [s for p in _WN_POS[pos] for s in wn.synsets(lemma, p)][:SENSES]
    out = []
    for synset in senses:
        for x in synset.lemmas():
            if x.name().lower() != lemma:
                continue
            for a in x.antonyms():
                w = a.name()
                negation = any(w == n + lemma or lemma == n + w for n in _NEGATIONS)
                if (w.isalpha() and w.islower() and not negation and _count(w, pos) >= MIN_COUNT
                        and frozenset((lemma, w)) in GRADABLE):
                    out.append(w)
    return list(dict.fromkeys(out))


def candidates(token: Any, relation: str) -> list[str]:
    """Replacements of ``token`` (``relation``: antonym or synonym), inflected like it."""
    lemma = token.lemma_.lower()
    pos = token.pos_
    frames = _frame_class(token) if pos == "VERB" else None
    if pos == "VERB" and frames is None:
        return []
    if relation == "synonym":
        words = list(SYNONYMS[pos].get(lemma, ()))
    elif pos == "VERB":
        words = list(VERB_ANTONYMS.get(lemma, ()))
    else:
        words = _adjective_antonyms(lemma, pos)
    words = [w for w in words if (pos != "VERB" and relation == "antonym")
             or _wordnet_pair(lemma, w, pos, relation)]
    if frames is not None:
        words = [w for w in words if _frames(w) & frames]
    out = []
    for w in words:
        form = _inflected(w, token)
        if form and form.lower() != token.lower_:
            out.append(match_case(form, token.text))
    return out


def _usable(t: Any, claim: str, doc: Any, subject: set[int]) -> bool:
    if (t.i in subject or t.pos_ not in _WN_POS or t.ent_type_ or not t.is_alpha
            or len(t.text) < 3 or t.lemma_.lower() in _SKIP or t.dep_ in ("aux", "auxpass")):
        return False
    if t.pos_ == "VERB" and t.dep_ == "amod":
        return False  # a participle used as an adjective ("a leading abolitionist")
    if t.pos_ == "ADJ" and (t.dep_ not in ("amod", "acomp", "conj", "oprd")
                            or (t.dep_ == "amod" and (t.head.pos_ not in ("NOUN", "PROPN") or t.head.i < t.i))
                            or any(c.dep_ == "npadvmod" for c in t.children)):
        return False  # a noun the tagger took for an adjective ("best-selling single"), an
        # idiom ("in full") or a measure ("8,849 metres tall")
    return edit_problem(claim, doc, t.idx, t.idx + len(t.text)) is None


def _article(claim: str, token: Any, new: str) -> tuple[int, str, str]:
    """The span to replace: the word, with "a"/"an" before it corrected for the new word."""
    prev = token.nbor(-1) if token.i > 0 else None
    if prev is None or prev.lower_ not in ("a", "an"):
        return token.idx, token.text, new
    article = "an" if new[:1].lower() in "aeio" or new.lower().startswith("un") else "a"
    return prev.idx, claim[prev.idx:token.idx + len(token.text)], match_case(article, prev.text) + " " + new


def _contradicted(token: Any, doc: Any) -> bool:
    """Whether the rest of the sentence fixes the word's meaning, so its antonym contradicts
    the sentence instead of stating another fact: "began" in a sentence about a peace or a
    treaty, a directional verb between two numbers ("270 bones ... decreases to about 206")."""
    lemma = token.lemma_.lower()
    if lemma in ("begin", "end") and any(t.lemma_.lower() in _ENDINGS for t in doc):
        return True
    return lemma in _DIRECTIONAL and sum(1 for t in doc if t.like_num) >= 2


def semantic(claim: str, doc: Any, rng: random.Random, *, relation: str = "any") -> Outcome:
    """Replace a verb, adjective or adverb outside the subject and outside names by a WordNet
    antonym (false) or synonym (true), preferring subordinate clauses (paper §2.1).
    ``relation="any"`` prefers antonyms. A superlative is never flipped: "the cheetah is the
    slowest land animal" or "the shortest structure in the world" contradicts what readers
    know (10 of the 40 development variants were such flips, none believable)."""
    if relation not in ("antonym", "synonym", "any"):
        return Dropped("semantic", f"unknown relation {relation!r}")
    subject = subject_tokens(doc)
    found: dict[str, list[tuple[bool, Any, list[str]]]] = {"antonym": [], "synonym": []}
    for t in doc:
        if not _usable(t, claim, doc, subject):
            continue
        subordinate = any(a.dep_ in _SUBORDINATE for a in [t, *t.ancestors])
        for rel in ("antonym", "synonym"):
            if rel == "antonym" and t.tag_ in ("JJS", "RBS"):
                continue  # never a flipped superlative (see the docstring)
            if rel == "antonym" and t.i > 0 and doc[t.i - 1].lower_ in ("relatively", "comparatively"):
                continue  # "relatively few" -> "relatively many" is not idiomatic
            if rel == "antonym" and _contradicted(t, doc):
                continue
            words = candidates(t, rel)
            if words:
                found[rel].append((subordinate, t, words))
    # Preference: antonyms in subordinate clauses (paper §2.1), other antonyms, then synonyms.
    tiers = [[("antonym", f) for f in found["antonym"] if f[0]],
             [("antonym", f) for f in found["antonym"] if not f[0]],
             [("synonym", f) for f in found["synonym"] if f[0]],
             [("synonym", f) for f in found["synonym"] if not f[0]]]
    if relation != "any":
        tiers = [[x for x in tier if x[0] == relation] for tier in tiers]
    preferred = next((tier for tier in tiers if tier), None)
    if preferred is None:
        wanted = relation if relation != "any" else "antonym or synonym"
        return Dropped("semantic", f"no verb, adjective or adverb with a WordNet {wanted} "
                                   "outside the subject and names")
    rel, (_, token, words) = rng.choice(preferred)
    new = rng.choice(words)
    truth = rel == "synonym"
    start, before, after = _article(claim, token, new)
    return ClaimAttack("semantic", replace_span(claim, start, before, after), "", before, after,
                       start, truth, "" if truth else as_sentence(claim), (),
                       {"relation": rel, "pos": token.pos_, "tag": token.tag_,
                        "word": token.text, "replacement": new})
