"""The fluency gate every claim attack passes, rule-based or model-written (issue 15).

A variant no reader would believe tests nothing the paper tests: the target rejects it for its
grammar, not for its facts. Two checks:

- ``parse_problem``: the variant must parse as well as the original (no more sentences, no
  more words the parser cannot attach, no repeated word or stray punctuation, a main verb).
- ``FluencyGate``: a language model scores the original and the variant; the score is the
  mean log-likelihood per character of the sentence as an assistant's reply to
  ``SCORE_PROMPT``, and the gate drops a variant whose score falls below the original's by
  more than the attack's threshold. The scores are ``ScoreRequest`` flows, so they go through
  the store like every request (cached, resumable) and the scorer is any model that scores
  log-likelihoods (the embedded one by default; tests pass a model object).

Per character, not per token: the scoring protocol returns summed log-probabilities without
token counts, and characters make the score independent of the scorer's tokenizer. The
thresholds are fitted on labelled variants (``quality.py fit``), not set by hand, and stored
in ``data/fluency.json`` with the scorer they were fitted for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rattle.attacks.claims.base import ClaimAttack, Outcome
from rattle.attacks.documents.base import Dropped
from rattle.errors import DataError
from rattle.flows import FlowRunner, OfflineFlows
from rattle.items import Message
from rattle.models.base import Completion, ScoreRequest

DATA = Path(__file__).parent / "data"
THRESHOLDS = DATA / "fluency.json"
SCORE_VERSION = 1
# The context the scorer reads each sentence in: encyclopedic prose, as the claims are.
SCORE_PROMPT = "Write one true sentence from an encyclopedia article."
DROPPED = "fluency gate: much less fluent than the original"
FAILED = "fluency gate: the scorer failed"

_REPEATED = re.compile(r"\b(\w+)\s+\1\b", re.I)
_STRAY = re.compile(r",\s*[,.;:]|\s[,.;:!?]|\.\.|\(\s*\)|,\s*$")


def parse_problem(original: str, text: str, parse: Callable[[str], Any], *,
                  inserted: bool = False) -> str | None:
    """Why ``text`` parses worse than ``original`` does, or None. With ``inserted`` (a clause
    was only added), the parser's attachments are not compared: the small spaCy model loses
    the main verb of sentences with stacked appositives that read well."""
    question = text.rstrip().endswith("?")
    before, after = parse(original), parse(text)
    if not question and sum(1 for _ in after.sents) > sum(1 for _ in before.sents):
        return "the sentence falls apart when parsed (more sentences than the claim)"
    if len(_REPEATED.findall(text)) > len(_REPEATED.findall(original)):
        return "a word is repeated"
    if len(_STRAY.findall(text.rstrip(".?!") + ".")) > len(_STRAY.findall(original.rstrip(".?!") + ".")):
        return "stray punctuation"
    if any(text.count(a) != text.count(b) for a, b in (("(", ")"), ("[", "]"))):
        return "unbalanced brackets"
    if inserted or question:  # a question parses unlike its declarative claim
        return None
    lost = sum(t.dep_ == "dep" or t.pos_ == "X" for t in after)
    if lost > sum(t.dep_ == "dep" or t.pos_ == "X" for t in before):
        return "the parser cannot attach every word"
    root = next((t for t in before if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ not in ("VERB", "AUX"):
        return None
    if re.search(rf"(?<!\w){re.escape(root.text)}(?!\w)", text):
        return None  # the main verb is still there (the parser may just read it otherwise)
    if not any(t.pos_ in ("VERB", "AUX") for t in after if t.dep_ == "ROOT"):
        return "no main verb"
    return None


# -- scoring ---------------------------------------------------------------------------------
def score_request(text: str) -> ScoreRequest:
    return ScoreRequest((Message("user", SCORE_PROMPT),), (text,))


def score_flow(text: str) -> Generator[ScoreRequest, Completion, float | None]:
    """Mean log-likelihood per character of ``text`` (None when the scorer failed)."""
    completion = yield score_request(text)
    if not completion.ok:
        return None
    try:
        total = float(json.loads(completion.text)[0])
    except (ValueError, TypeError, IndexError):
        return None
    return total / max(1, len(text))


def drop_flow(original: str, text: str, *,
              count_both: bool = False) -> Generator[ScoreRequest, Completion, float | None]:
    """How much less likely per character ``text`` is than ``original`` (positive: worse).
    ``count_both`` (a dry run, whose answers are placeholders): ask for ``text`` even when
    the original's score failed, so that both requests are counted."""
    a = yield from score_flow(original)
    if a is None and not count_both:
        return None
    b = yield from score_flow(text)
    return None if a is None or b is None else round(a - b, 6)


def gated_text(out: ClaimAttack) -> str:
    """The sentence a reader sees: the declarative, else the question."""
    return out.declarative if out.declarative is not None else out.question


@dataclass(frozen=True)
class Thresholds:
    """Per-attack thresholds on the fluency drop, and what they were fitted for."""

    default: float
    attacks: Mapping[str, float] = field(default_factory=dict)
    scorer: str = "embedded"
    source: str = ""

    def of(self, attack: str) -> float:
        return self.attacks.get(attack, self.default)

    def as_json(self) -> dict[str, Any]:
        return {"scorer": self.scorer, "prompt": f"claims.fluency.prompt@{SCORE_VERSION}",
                "unit": "mean log-likelihood per character (nats), original minus variant",
                "default": self.default, "attacks": dict(sorted(self.attacks.items())),
                "source": self.source}


def load_thresholds(path: str | Path | None = None) -> Thresholds:
    """The fitted thresholds (``data/fluency.json`` unless ``path``)."""
    p = Path(path) if path else THRESHOLDS
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        return Thresholds(float(data["default"]), {k: float(v) for k, v in data["attacks"].items()},
                          str(data.get("scorer", "")), str(data.get("source", "")))
    except OSError as exc:
        raise DataError(f"cannot read the fluency thresholds: {exc.strerror or exc}", path=str(p)) from None
    except (ValueError, KeyError, TypeError, AttributeError):
        raise DataError("not a thresholds file", path=str(p),
                        fix='write {"default": number, "attacks": {"semantic": number, ...}} '
                            "(python -m rattle.attacks.claims.quality fit)") from None


Tag = Any


class FluencyGate:
    """Scores variants against their originals with a language model and drops those whose
    fluency falls by more than the attack's threshold. ``model`` is a model spec, asked
    through the :class:`~rattle.flows.FlowRunner` each call is given (the run's store)."""

    def __init__(self, model: str = "embedded", thresholds: Thresholds | None = None) -> None:
        self.model = model
        self.thresholds = thresholds or load_thresholds()

    def fitted_for_scorer(self) -> bool:
        """Whether the thresholds were fitted for this scorer (its options aside: threads and
        context do not change what it scores). Log-likelihood scales differ between models,
        so another model's thresholds mean little."""
        return self.model.split("?", 1)[0] == self.thresholds.scorer.split("?", 1)[0]

    def scores(self, pairs: Iterable[tuple[Tag, str, str]],
               flows: FlowRunner | None = None) -> dict[Tag, float | None]:
        """The fluency drop of each (tag, original, text), asked through ``flows``."""
        runner = flows or OfflineFlows()
        pending = [(tag, drop_flow(original, text, count_both=runner.dry_run))
                   for tag, original, text in pairs]
        out: dict[Tag, float | None] = {}
        if pending:
            runner.with_model(self.model, pending, out.__setitem__)
        return out

    def apply(self, outcomes: Mapping[Tag, Outcome], claims: Mapping[Tag, str],
              flows: FlowRunner | None = None) -> dict[Tag, Outcome]:
        """``outcomes`` with each attack's fluency drop in its details, and the attacks over
        their threshold (or not scored) replaced by a ``Dropped``."""
        pairs = [(tag, claims[tag], gated_text(out)) for tag, out in outcomes.items()
                 if isinstance(out, ClaimAttack)]
        drops = self.scores(pairs, flows)
        if flows is not None and flows.dry_run:  # counted, not scored: every variant is kept
            return dict(outcomes)
        result: dict[Tag, Outcome] = {}
        for tag, out in outcomes.items():
            if not isinstance(out, ClaimAttack):
                result[tag] = out
                continue
            drop = drops.get(tag)
            if drop is None:
                result[tag] = Dropped(out.attack, FAILED)
            elif drop > self.thresholds.of(out.attack):
                result[tag] = Dropped(out.attack, DROPPED)
            else:
                result[tag] = replace(out, details={**out.details, "fluency_drop": drop})
        return result
