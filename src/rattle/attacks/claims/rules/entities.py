"""What kind of thing a name is: spaCy's entity label checked against the parse and WordNet.

spaCy's small model mislabels often ("Usain Bolt" a GPE, "Machu Picchu" a PERSON, "The First
World War" an ORG). A question word (reversal) or a fabricated clause (distraction) written for
the wrong kind reads as nonsense ("Machu Picchu, who ..."), so both ask this module, which
accepts a label only where the sentence or WordNet agrees with it.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

_PERSON = {"person.n.01"}
_PLACE = {"location.n.01", "region.n.03", "district.n.01", "geographic_point.n.01"}
_FACILITY = {"structure.n.01", "way.n.06", "facility.n.01", "building.n.01"}
_ORGANISATION = {"organization.n.01", "institution.n.01", "company.n.01", "musical_organization.n.01",
                 "team.n.01", "party.n.05"}
_WORK = {"creation.n.02", "writing.n.02", "musical_composition.n.01", "movie.n.01",
         "work_of_art.n.01", "publication.n.01", "album.n.02", "song.n.01"}
# Lower-case particles of names ("Vincent van Gogh"): not nouns that say what a name is.
_PARTICLES = {"van", "von", "de", "da", "di", "du", "der", "del", "la", "le", "bin", "ibn", "al"}
_LOCATIVE = {"in", "at", "near", "from", "to", "across", "through", "into", "outside", "around"}
_WORK_VERBS = {"write", "publish", "paint", "compose", "release", "direct", "record", "film",
               "sing", "star", "complete", "premiere", "finish"}


def _key(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().replace(" ", "_")


@lru_cache(maxsize=8192)
def wordnet_ancestors(name: str, *, noun: bool = False) -> frozenset[str]:
    """Hypernyms of ``name``: of a common noun's most frequent sense, or of a proper name's
    instance senses among its first two ("Rembrandt": an old master, a painter, a person)."""
    from rattle.nlp.wordnet import reader

    synsets = reader().synsets(_key(name), "n")[: 1 if noun else 2]
    if not noun:
        synsets = [s for s in synsets if s.instance_hypernyms()]
    return frozenset(h.name() for s in synsets for path in s.hypernym_paths() for h in path)


def wordnet_person(name: str, *, noun: bool = False) -> bool:
    return bool(wordnet_ancestors(name, noun=noun) & _PERSON)


@lru_cache(maxsize=8192)
def is_noun(word: str) -> bool:
    from rattle.nlp.wordnet import reader

    return bool(reader().synsets(word, "n"))


def kind_noun(head: Any) -> Any:
    """A common noun that says what a name is: "the film Casablanca", "novel Frankenstein"."""
    for c in head.children:
        if (c.dep_ in ("compound", "amod", "appos") and c.text.islower() and not c.ent_type_
                and c.pos_ == "NOUN" and c.lower_ not in _PARTICLES and is_noun(c.lower_)):
            # a noun, not an adjective WordNet also has as a noun ("the first modern Olympic
            # Games": "modern", a contemporary person, made the question "Who was held ...")
            return c
    if head.dep_ == "appos" and head.head.pos_ == "NOUN":
        return head.head
    return None


def _name_words(ent: Any) -> bool:
    """Whether every word of the entity could be part of a person's name: capitalised
    letters, or a name particle ("van", "da"); no number, no other lower-case word."""
    return all(t.is_punct or t.lower_ in _PARTICLES or t.lower_ in ("'s", "’s")
               or (t.text[:1].isupper() and not any(c.isdigit() for c in t.text)) for t in ent)


def _locative(head: Any) -> bool:
    return head.dep_ == "pobj" and head.head.lower_ in _LOCATIVE


def kind_of(doc: Any, ent: Any) -> str | None:
    """person, place, facility, organisation or work for a spaCy entity, or None where the
    sentence and WordNet do not bear its label out."""
    head = ent.root
    name = ent.text[4:] if ent.text.lower().startswith("the ") else ent.text
    noun = kind_noun(head)
    if noun is not None:
        ancestors = wordnet_ancestors(noun.lemma_.lower(), noun=True)
        for kind, marks in (("person", _PERSON), ("work", _WORK), ("facility", _FACILITY),
                            ("organisation", _ORGANISATION)):
            if ancestors & marks:
                return kind
        return None
    label = ent.label_
    last = ent[-1].lemma_.lower()
    if label == "PERSON" and not _name_words(ent):
        return None  # "0 kelvin", "the 1900s": spaCy's PERSON on a quantity or a lower-case word
    if label == "PERSON" or wordnet_person(name):
        known = wordnet_ancestors(name)
        if _locative(head) or (known and not known & _PERSON):
            return None  # "in Washington", or a name WordNet knows as something else
        if len(ent) == 1 and is_noun(name.lower()) and not known & _PERSON:
            return None  # a one-word "name" that is a common noun ("Sunrise")
        root = head.head
        attr = next((c for c in root.children if c.dep_ == "attr" and c.pos_ == "NOUN"), None)
        if head.dep_ == "nsubj" and root.lemma_ == "be" and attr is not None:
            return "person" if wordnet_person(attr.lemma_.lower(), noun=True) else None
        return "person" if label == "PERSON" or wordnet_person(name) else None
    if label == "GPE" and (_locative(head) or wordnet_ancestors(name) & _PLACE):
        return "place"
    if label == "FAC" and wordnet_ancestors(last, noun=True) & _FACILITY:
        return "facility"
    if label == "ORG" and wordnet_ancestors(last, noun=True) & _ORGANISATION:
        return "organisation"
    if label == "WORK_OF_ART" and head.dep_ in ("dobj", "nsubjpass") and head.head.lemma_ in _WORK_VERBS:
        return "work"
    return None
