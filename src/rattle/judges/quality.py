"""Response quality of long answers (factoid paper Table 1, Appendix B).

- FActScore (Min et al. 2023; paper Eq. 2): the answer is split into atomic facts (by the
  judge model; offline, into sentences), each checked against the knowledge source (BM25 over
  the knowledge corpus and the claims' source sentences): by the judge model, or offline by
  lexical support (at least half of the fact's content words in one retrieved passage; a
  named stand-in, not NLI).
- Citation recall/precision (Eq. 3-4): statements are sentences; ``[n]`` markers point into
  the answer's citation list; a citation supports its statement when the cited text (a
  knowledge entry, a claim's source, a retrieved document id) supports it, judged as above.
  Citations whose text rattle cannot see count as not supporting and are counted.
- Fluency and utility: 1-5 Likert scores by the judge model with the paper's rubrics
  (Appendix B); only with a judge model. ``likert`` reads a whole number 1-5 standing alone,
  anything else is unmeasured (None).
"""

from __future__ import annotations

import re
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from rattle.items import Item, Message
from rattle.models.base import ChatRequest, Completion, GenParams

RUBRIC_VERSION = 1
# Appendix B, verbatim scale descriptions.
FLUENCY_RUBRIC = (
    "5: The answer is very fluent and effortless to understand\n"
    "4: The answer is quite fluent and easy to understand\n"
    "3: The answer is relatively fluent, but with some incoherent word order and a few sentences "
    "that are difficult to understand\n"
    "2: The answer is relatively incoherent, with many instances of incoherent word order and "
    "confused logical relations, making many sentences difficult to understand\n"
    "1: The answer is very incoherent, almost unreadable, and nearly impossible to understand")
UTILITY_RUBRIC = (
    "5: The answer is extremely helpful, sentences are concise and to the point, perfectly "
    "addressing the question\n"
    "4: The answer is quite helpful, sentences are relatively concise, easily addressing the "
    "question\n"
    "3: The answer is somewhat helpful, but contains some irrelevant statements, can somewhat "
    "address the question\n"
    "2: The answer is not very helpful, sentences are long and complex with quite a lot of "
    "irrelevant content, making it difficult to address the question\n"
    "1: The answer is hardly helpful at all, sentences are obscure and difficult to understand, "
    "containing a lot of redundant content, not closely related to the question, failing to "
    "address the question")
LIKERT = ("Rate the answer of a search engine on a 1-5 scale.\n{rubric}\n\nInput: {question}\n"
          "Answer: {answer}\n\nReply with the number only.")
FACTS = ("Break the following text into independent atomic facts, one short sentence per "
         "line, with no numbering and nothing else.\n\nText: {text}")
SUPPORT = ("Passages:\n{passages}\n\nIs the following statement supported by the passages? "
           "Reply Yes or No.\nStatement: {fact}")

_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_MARK = re.compile(r"\s*\[(\d{1,3})\]")  # with the space before it
_WORD = re.compile(r"[A-Za-z0-9]+")
_STOP = set(["a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "and", "or", "but", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these", "those", "as", "from", "which", "who", "whom", "what", "when", "where", "how", "than", "then", "there", "their", "has", "have", "had", "not", "no", "yes", "do", "does", "did", "so", "such", "can", "could", "would", "should", "will", "also"])
_CHATTER = re.compile(r"^(?:yes|no|you are (?:right|correct)|that'?s (?:right|correct)|correct|"
                      r"feel free|i hope|let me know)\b", re.I)


_OUT_OF = re.compile(r"(?<![\d.])([1-5])\s*(?:points?\s*)?(?:/|out\s+of|of)\s*5(?![\d.])", re.I)
_LABELLED = re.compile(r"\b(?:score|rating|rated|rate|fluency|utility|grade|mark)\b[^\d\n]{0,12}?"
                       r"(?<![\d.])([1-5])(?![\d.]|\s*(?:/|out\s+of)\s*(?!5)\d)", re.I)
_INTEGER = re.compile(r"(?<![\d.,/])(\d+)(?![\d]|\.\d|/\d|,\d)")


def likert(reply: str) -> int | None:
    """A 1-5 judge score: a whole number 1-5 standing alone ("4", "Fluency: 4", "4/5", "Score: 3
    out of 5", "**4**"), else None (unmeasured). "10" is not 1, "4.5" is not 4, and a reply
    naming two different scores ("3 or 4") gives none."""
    from rattle.judges.reply import prepare

    text = prepare(reply)
    for pattern in (_OUT_OF, _LABELLED):
        found = {int(m.group(1)) for m in pattern.finditer(text)}
        if len(found) == 1:
            return found.pop()
        if len(found) > 1:
            return None
    numbers = {int(m.group(1)) for m in _INTEGER.finditer(text)}
    if len(numbers) == 1:
        value = numbers.pop()
        return value if 1 <= value <= 5 else None
    return None


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(text.strip()) if s.strip()]


def statements(text: str, citations: Sequence[str]) -> list[tuple[str, list[str]]]:
    """(statement, cited ids) per sentence; system chatter ("You are right!") is removed first,
    as the paper does before citation recall."""
    out = []
    for s in sentences(text):
        marks = [int(m) for m in _MARK.findall(s)]
        clean = _MARK.sub("", s).strip()
        if not clean or (_CHATTER.match(clean) and len(clean.split()) <= 4):
            continue
        out.append((clean, [citations[m - 1] for m in marks if 0 < m <= len(citations)]))
    return out


def content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _STOP}


def lexical_support(fact: str, passages: Sequence[str], threshold: float = 0.5) -> bool:
    words = content_words(fact)
    if not words:
        return False
    return any(len(words & content_words(p)) / len(words) >= threshold for p in passages)


class QualityScorer:
    """``flow(record)`` scores one answer (the value for ``record["quality"]``), asking the
    judge model (a model spec) when one is given; the caller drives the flows."""

    def __init__(self, judge: str | None, *, knowledge: str | None = None,
                 items: Sequence[Item] = (), documents: Mapping[str, str] | None = None) -> None:
        from rattle.attacks.claims.base import load_knowledge

        self.judge = judge
        kb = load_knowledge(knowledge)
        self.passages: dict[str, str] = {}
        for name, facts in kb.by_entity.items():
            self.passages[name] = f"{name}: " + ". ".join(f.true for f in facts)
        for item in items:
            text = item.claim or item.passage or ""
            self.passages[item.id] = text
            if item.meta.get("source"):
                self.passages[str(item.meta["source"])] = text
        self.passages.update(documents or {})
        self._keys = list(self.passages)
        self._index: Any = None
        self.judge_name = (f"quality.llm@{RUBRIC_VERSION}[{judge}]" if judge is not None
                           else "quality.lexical@1 (sentences as facts, content-word overlap)")

    def retrieve(self, text: str, k: int = 3) -> list[str]:
        import bm25s

        if self._index is None:
            self._index = bm25s.BM25()
            self._index.index(bm25s.tokenize([self.passages[key] for key in self._keys],
                                             show_progress=False), show_progress=False)
        docs, _ = self._index.retrieve(bm25s.tokenize([text], show_progress=False),
                                       k=min(k, len(self._keys)), show_progress=False)
        return [self.passages[self._keys[int(i)]] for i in docs[0]]

    @staticmethod
    def wants(record: dict[str, Any]) -> bool:
        """An answer to score: the request succeeded and said something."""
        return record["error"] is None and bool(record["response"].strip())

    def _ask(self, prompt: str, tokens: int) -> Generator[Any, Completion, str | None]:
        completion = yield ChatRequest((Message("user", prompt),), GenParams(max_tokens=tokens))
        return completion.text if completion.ok else None

    def _supported(self, fact: str, passages: Sequence[str]) -> Generator[Any, Completion, bool]:
        if self.judge is None:
            return lexical_support(fact, passages)
        reply = yield from self._ask(SUPPORT.format(passages="\n".join(passages), fact=fact), 4)
        return reply is not None and reply.strip().lower().startswith("yes")

    def flow(self, r: dict[str, Any]) -> Generator[Any, Completion, dict[str, Any]]:
        answer = r["response"]
        if self.judge is None:
            facts = [_MARK.sub("", s).strip() for s in sentences(answer)]
        else:
            listed = yield from self._ask(FACTS.format(text=answer), 256)
            facts = [f.strip(" -*\t") for f in (listed or "").splitlines() if f.strip(" -*\t")]
        support = []
        for fact in facts:
            ok = yield from self._supported(fact, self.retrieve(fact))
            support.append(ok)
        stated = []
        unresolved = 0
        for text, cited in statements(answer, r["citations"]):
            marks = []
            for c in cited:
                passage = self.passages.get(c)
                if passage is None:
                    unresolved += 1
                    marks.append(False)
                else:
                    ok = yield from self._supported(text, [passage])
                    marks.append(ok)
            stated.append({"text": text, "citations": cited, "supports": marks})
        out: dict[str, Any] = {"judge": self.judge_name, "facts": support, "statements": stated,
                               "links": bool(re.search(r"https?://", answer)),
                               "unresolved_citations": unresolved}
        if self.judge is not None:
            for name, rubric in (("fluency", FLUENCY_RUBRIC), ("utility", UTILITY_RUBRIC)):
                reply = yield from self._ask(LIKERT.format(rubric=rubric, question=r["claim"],
                                                           answer=answer), 4)
                out[name] = likert(reply or "")
        return out
