"""RCC suites (Ye et al. 2023, Assessing Hidden Risks of LLMs: An Empirical Study on Robustness,
Consistency, and Credibility, arXiv:2305.10235).

- ``rcc.robustness``: character, word and visual noise on the passage (or the question when
  there is none); error rate (Eq. 9) and answer-change rate (Eq. 10) per attack and level.
- ``rcc.consistency``: the five prompt wordings (Table 5) and option orders; accuracy per
  wording/order, their standard deviation, answer changes and first-option rate (§4.2).
- ``rcc.credibility``: word insert/delete/replace at rates 0.1…1.0; RTI (Algorithm 1).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rattle.datasets import load_dataset
from rattle.errors import ConfigError
from rattle.items import Item, Judgement, Query, Response, Variant, original
from rattle.judges.choice import ChoiceJudge
from rattle.papers import RCC
from rattle.metrics.core import MetricValue, RateCounts, complement, rate
from rattle.metrics.rcc import (
    RTI_RATES,
    answer_change_rate,
    consistency_std,
    error_rate,
    first_option_rate,
    rti,
    rti_value,
)
from rattle.perturbations.base import Perturbation
from rattle.perturbations.prompts import RCC_TEMPLATE_NAMES, RCC_TEMPLATES
from rattle.registry import register
from rattle.seeding import canonical, rng_for
from rattle.suites.base import Case, Record, base_record, cluster
from rattle.suites.rcc_protocol import multi_turn, single_turn

PAPER = RCC.citation
# The RCC attacker draws each variant's word-selection rate from {0.1, ..., 1.0}
# (reference-implementations.md §2.5: p = randint(1, 11) / 10).
RATES: tuple[float, ...] = RTI_RATES

# (registered name, fixed params, level label). RCC Table 18/19 columns; visual at 10/50/90 %.
ROBUSTNESS_ATTACKS: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("chars.repeat", {}, ""),
    ("chars.delete", {}, ""),
    ("chars.insert", {}, ""),
    ("words.insert", {}, ""),
    ("words.delete", {}, ""),
    ("words.replace", {}, ""),
    ("visual.homoglyph", {"ratio": 0.1}, "10%"),
    ("visual.homoglyph", {"ratio": 0.5}, "50%"),
    ("visual.homoglyph", {"ratio": 0.9}, "90%"),
)
CREDIBILITY_OPS = ("words.insert", "words.delete", "words.replace")

Kind = Literal["robustness", "consistency", "credibility", "patterns"]
TABLES = {
    "robustness": "Tables 19-20 (ER, ACR by dataset x attack); charts of ER/ACR with CIs",
    "consistency": "accuracy by prompt wording (Table 5) and option order, std, first-option rate",
    "credibility": "Table 12 (RTI by dataset and operation)",
    "patterns": "Eq. 11 frequencies and random-forest importance by POS/dependency/phrase/position",
}


@dataclass
class RCCSuite:
    """One RCC experiment over MC items; built by the registered factories below."""

    kind: Kind
    dataset: str | None = None
    limit: int | None = None
    seed: int = 0
    samples: int = 2
    attacks: Sequence[tuple[str, dict[str, Any], str]] = ROBUSTNESS_ATTACKS
    orders: int = 6
    protocol: Literal["multi", "single", "loglik"] = "multi"
    compat: bool = False
    part: str = ""
    default_dataset: str = "mini-mc"
    skip_invalid: bool = False
    notes: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.protocol not in ("multi", "single", "loglik"):
            raise ConfigError(f"protocol must be multi, single or loglik, got {self.protocol!r}")
        self.name = f"rcc.{self.kind}"
        self.tables = TABLES[self.kind]
        # What the metrics read of each record (the rest stays in results.jsonl only).
        self.metric_fields = ("part", "dataset", "item_id", "sub", "attack", "group", "params",
                              "correct", "answer", "position",
                              *(("edits",) if self.kind == "patterns" else ()))
        self.paper = PAPER
        self.description = (__doc__ or "").strip()
        self.judge = ChoiceJudge(compat=self.compat)
        self.judge_name = self.judge.name
        self.datasets = [self.dataset or self.default_dataset]
        self._items: list[Item] | None = None
        self._perturbations: dict[tuple[str, str], Perturbation] = {}

    def _skipped(self) -> list[str]:
        """Where load_dataset records lines skipped by --skip-invalid (reported in the run)."""
        skipped: list[str] = self.notes.setdefault("skipped_invalid", [])
        return skipped

    # -- planning ----------------------------------------------------------------------------
    def items(self) -> list[Item]:
        if self._items is None:
            self._items = load_dataset(self.datasets[0], limit=self.limit,
                                       skip_invalid=self.skip_invalid, skipped=self._skipped())
        return self._items

    def _apply(self, name: str, item: Item, params: dict[str, Any]) -> Variant:
        key = (name, canonical(params))
        perturbation = self._perturbations.get(key)
        if perturbation is None:
            perturbation = self._perturbations[key] = Perturbation(name, params)
        return perturbation.apply(item, self.seed)

    def variants(self, item: Item) -> Iterator[tuple[Variant, dict[str, Any]]]:
        yield original(item), {"attack": "original", "level": ""}
        if self.kind in ("robustness", "patterns"):
            for name, fixed, level in self.attacks:
                for k in range(self.samples):
                    r = rng_for(self.seed, item.id, name, fixed, k).choice(RATES)
                    v = self._apply(name, item, {**fixed, "rate": r})
                    yield v, {"attack": name, "level": level}
        elif self.kind == "consistency":
            for i in range(1, len(RCC_TEMPLATES)):
                v = self._apply("prompts.wording", item, {"index": i})
                yield v, {"attack": "prompts.wording", "level": RCC_TEMPLATE_NAMES[i]}
            for k in range(1, self.orders):
                v = self._apply("options.order", item, {"k": k})
                yield v, {"attack": "options.order", "level": f"order {k}"}
        else:
            for name in CREDIBILITY_OPS:
                for r in RATES:
                    v = self._apply(name, item, {"rate": r})
                    yield v, {"attack": name, "level": f"{r:.1f}"}

    def metric_stream(self) -> RobustnessStream | None:
        """Streaming metrics where they exist (the robustness design); None: keep rows."""
        return RobustnessStream(self.part, self.seed) if self.kind == "robustness" else None

    def count(self) -> int:
        """Number of cases, without perturbing anything (for the progress bar)."""
        per_item = 1
        if self.kind in ("robustness", "patterns"):
            per_item += len(self.attacks) * self.samples
        elif self.kind == "consistency":
            per_item += len(RCC_TEMPLATES) - 1 + max(0, self.orders - 1)
        else:
            per_item += len(CREDIBILITY_OPS) * len(RATES)
        if self.protocol == "multi":
            return per_item * len(self.items())
        return per_item * sum(len(i.questions) for i in self.items())

    def cases(self) -> Iterator[Case]:
        for item in self.items():
            for variant, group in self.variants(item):
                if self.protocol == "multi":
                    yield Case(f"{variant.id}", variant, Query(multi_turn(variant.item)),
                               group, self.part)
                else:
                    for j, q in enumerate(variant.item.questions):
                        choices: tuple[str, ...] = ()
                        if self.protocol == "loglik":
                            choices = tuple(f"({chr(65 + k)}){o.text}"
                                            for k, o in enumerate(q.displayed))
                        yield Case(f"{variant.id}#{j}", variant,
                                   Query((single_turn(variant.item, j),), question=q.text,
                                         choices=choices),
                                   {**group, "sub": j}, self.part)

    # -- judging -----------------------------------------------------------------------------
    def records(self, case: Case, responses: tuple[Response, ...]) -> list[Record]:
        item = case.variant.item
        if self.protocol == "multi":
            pairs = list(enumerate(responses[1:]))  # responses[0] answers the description
        else:
            pairs = [(int(case.group["sub"]), responses[0])]
        out = []
        for j, response in pairs:
            q = item.questions[j]
            judgement: Judgement = self.judge(q, response)
            rec = base_record(case, j, q.text, response, judgement)
            rec["answer"] = judgement.labels.get("option")
            rec["position"] = judgement.labels.get("position")
            rec["gold"] = q.correct_letter
            out.append(rec)
        return out

    # -- metrics -----------------------------------------------------------------------------
    def metrics(self, records: Sequence[Record]) -> list[MetricValue]:
        mine = [r for r in records if r["part"] == self.part]
        if self.kind != "patterns":
            return rcc_metrics(self.kind, mine, seed=self.seed)
        from rattle.analysis.patterns import analyse
        from rattle.nlp.spacy_pos import pipeline

        texts = {f"{i.dataset}|{i.id}": (i.passage or i.question) for i in self.items()}
        return [*rcc_metrics("robustness", mine, seed=self.seed),
                *analyse(mine, texts, pipeline(), seed=self.seed)]


def _by(records: Sequence[Record], *keys: str) -> dict[tuple[Any, ...], list[Record]]:
    out: dict[tuple[Any, ...], list[Record]] = defaultdict(list)
    for r in records:
        out[tuple(r["group"].get(k, r.get(k)) for k in keys)].append(r)
    return out


def rcc_metrics(kind: str, records: Sequence[Record], *, seed: int = 0) -> list[MetricValue]:
    out: list[MetricValue] = []
    baseline = {(r["dataset"], r["item_id"], r["sub"]): r["answer"]
                for r in records if r["attack"] == "original"}

    def pairs(rs: Sequence[Record]) -> list[tuple[str, Any, Any]]:
        return [(cluster(r), baseline.get((r["dataset"], r["item_id"], r["sub"])), r["answer"])
                for r in rs]

    datasets = sorted({r["dataset"] for r in records})
    scopes: list[tuple[str, Sequence[Record]]] = [(d, [r for r in records if r["dataset"] == d])
                                                  for d in datasets]
    if len(datasets) > 1:
        scopes.append(("all", records))
    for dataset, rs in scopes:
        if kind in ("robustness", "consistency"):
            for (attack, level), group in sorted(_by(rs, "attack", "level").items()):
                g = {"dataset": dataset, "attack": attack, "level": level}
                outcomes = [(cluster(r), r["correct"]) for r in group]
                out.append(rate("accuracy", outcomes, group=g, seed=seed))
                out.append(error_rate(outcomes, group=g, seed=seed))
                if attack != "original":
                    out.append(answer_change_rate(pairs(group), group=g, seed=seed))
                if kind == "consistency":
                    out.append(first_option_rate(
                        [(cluster(r), r["position"] if r["correct"] is not None else None)
                         for r in group], group=g, seed=seed))
        if kind == "consistency":
            accs = {(m.group["attack"], m.group["level"]): m.value for m in out
                    if m.name == "accuracy" and m.group["dataset"] == dataset}
            for family in ("prompts.wording", "options.order"):
                values = {"original": accs.get(("original", ""))}
                values.update({lvl: v for (a, lvl), v in accs.items() if a == family})
                out.append(consistency_std(values, group={"dataset": dataset, "attack": family}))
        if kind == "credibility":
            per_op: dict[str, list[tuple[str, float | None]]] = defaultdict(list)
            answers: dict[tuple[str, str, int, str], dict[float, Any]] = defaultdict(dict)
            for r in rs:
                if r["attack"] in CREDIBILITY_OPS:
                    key = (r["dataset"], r["item_id"], r["sub"], r["attack"])
                    answers[key][float(r["params"]["rate"])] = r["answer"]
            for (ds, item_id, sub, op), by_rate in sorted(answers.items()):
                value = rti_value(baseline.get((ds, item_id, sub)), by_rate)
                per_op[op].append((f"{ds}|{item_id}", value))
            all_values: list[tuple[str, float | None]] = []
            for op in CREDIBILITY_OPS:
                if per_op.get(op):
                    out.append(rti(per_op[op], group={"dataset": dataset, "attack": op}, seed=seed))
                    all_values.extend(per_op[op])
            if all_values:
                out.append(rti(all_values, group={"dataset": dataset, "attack": "mean"}, seed=seed))
            originals = [(cluster(r), r["correct"]) for r in rs if r["attack"] == "original"]
            g = {"dataset": dataset, "attack": "original", "level": ""}
            out.append(rate("accuracy", originals, group=g, seed=seed))
    return out


class RobustnessStream:
    """``rcc.robustness`` metrics computed while records stream in (flat memory).

    Exactly :func:`rcc_metrics` for the robustness kind, without keeping records: per group,
    per-item counts of correct and of changed answers. Records arrive in case order and every
    item's unperturbed cases come first, so only the current item's baseline answers are kept.
    """

    def __init__(self, part: str, seed: int) -> None:
        self.part = part
        self.seed = seed
        self.acc: dict[tuple[str, str, str], RateCounts] = {}
        self.acr: dict[tuple[str, str, str], RateCounts] = {}
        self.datasets: set[str] = set()
        self._item: tuple[str, str] | None = None
        self._baseline: dict[int, Any] = {}

    def add(self, r: Record) -> None:
        if r["part"] != self.part:
            return
        dataset = r["dataset"]
        item = (dataset, r["item_id"])
        if item != self._item:
            self._item, self._baseline = item, {}
        self.datasets.add(dataset)
        attack, level = r["group"].get("attack", r["attack"]), r["group"].get("level", "")
        c = cluster(r)
        if attack == "original":
            self._baseline[r["sub"]] = r["answer"]
        before = self._baseline.get(r["sub"])
        for scope in (dataset, "all"):
            key = (scope, attack, level)
            self.acc.setdefault(key, RateCounts()).add(c, r["correct"])
            if attack != "original":
                changed = None if before is None or r["answer"] is None else before != r["answer"]
                self.acr.setdefault(key, RateCounts()).add(c, changed)

    def metrics(self) -> list[MetricValue]:
        out: list[MetricValue] = []
        scopes = sorted(self.datasets) + (["all"] if len(self.datasets) > 1 else [])
        for scope in scopes:
            for key in sorted(k for k in self.acc if k[0] == scope):
                g = {"dataset": scope, "attack": key[1], "level": key[2]}
                accuracy = self.acc[key].metric("accuracy", group=g, seed=self.seed)
                out.append(accuracy)
                out.append(complement("er", accuracy))
                if key in self.acr:
                    out.append(self.acr[key].metric("acr", group=g, seed=self.seed))
        return out


def _suite(kind: Kind, **options: Any) -> RCCSuite:
    return RCCSuite(kind=kind, **options)


@register("suite", "rcc.robustness")
def robustness(**options: Any) -> RCCSuite:
    """Char/word/visual noise on MC QA: ER (Eq. 9) and ACR (Eq. 10) by attack (RCC Tables 6, 19, 20)."""
    return _suite("robustness", **options)


@register("suite", "rcc.consistency")
def consistency(**options: Any) -> RCCSuite:
    """Five prompt wordings (Table 5) and option orders: accuracy, std, first-option rate (RCC §4.2)."""
    return _suite("consistency", **options)


@register("suite", "rcc.patterns")
def patterns(**options: Any) -> RCCSuite:
    """Which edited words change answers: POS, dependency, phrase, position (RCC §3.6, Eq. 11-12)."""
    return _suite("patterns", **options)


@register("suite", "rcc.credibility")
def credibility(**options: Any) -> RCCSuite:
    """Word ops at rates 0.1..1.0: the RTI memorisation index, Algorithm 1 (RCC §3.5)."""
    return _suite("credibility", **options)
