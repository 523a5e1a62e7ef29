"""Claim attacks measured, not assumed (issue 15): labelled variants, coverage and valid rate.

``python -m rattle.attacks.claims.quality generate IN.jsonl OUT.jsonl`` writes every variant of
the nine claim attacks (seven + question + cloze) for a JSONL of ``{"id", "claim"}`` sentences,
ready to label: each row carries the attack, the original, the variant as a reader sees it,
what the attack intends (``claim_true``, ``answers``, ``correction``), its fluency drop (the
gate's score; ``kept`` says whether the shipped thresholds keep it) and empty labels::

    "labels": {"fluent": null, "plausible": null, "label_correct": null}

A labeller sets each to true or false: *fluent*, it reads as natural English; *plausible*, a
reader who does not know this fact could believe it (nothing in the sentence is absurd);
*label_correct*, the intended label is right (the claim is true or false as ``claim_true``
says, the answers answer the question, the correction is true).

``report LABELLED.jsonl`` prints, per attack, coverage (share of the file's sentences with a
kept variant) and valid rate (share of labelled kept variants that are fluent, plausible and
label-correct). ``fit DEV.jsonl`` sets the fluency thresholds from labelled rows and writes
them to ``data/fluency.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattle.attacks.claims.fluency import THRESHOLDS, FluencyGate, Thresholds, gated_text, load_thresholds
from rattle.errors import DataError
from rattle.files import atomic_write_text, jsonl_objects
from rattle.flows import FlowRunner

ATTACK_NAMES = ("multihop", "temporal", "semantic", "distraction", "exaggeration", "reversal",
                "numerical", "question", "cloze")
LABELS = ("fluent", "plausible", "label_correct")
LABELS_DIR = Path(__file__).parent / "data" / "labels"
# ``generate --scorer none``: no fluency scores (a quick count of what the rules write; rows
# carry a null fluency_drop and are not kept).
NO_SCORER = "none"
# The fit keeps a variant unless the labels say dropping it pays: one variant that is not
# fluent costs as much as this many fluent ones, so a kept set stays at least 90% fluent
# (the valid-rate target of issue 15: 0.9 = 9 / (9 + 1)).
COST = 9.0
# Fewer labelled variants than this for an attack: it takes the pooled threshold.
MIN_LABELLED = 8


def read_sentences(path: str | Path) -> list[tuple[str, str]]:
    """(id, claim) of each line of a JSONL of ``{"id", "claim"}``."""
    p = Path(path)
    out: list[tuple[str, str]] = []
    for n, row in jsonl_objects(p):
        claim = row.get("claim")
        if not isinstance(claim, str) or not claim.strip():
            raise DataError("missing or empty claim", path=str(p), line=n, field="claim",
                            fix='give each line a "claim" string')
        out.append((str(row.get("id") or f"s{n}"), claim.strip()))
    return out


def read_labelled(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a labelled file; every label is true, false or null (not yet labelled)."""
    p = Path(path)
    rows = []
    for n, row in jsonl_objects(p):
        for key in ("attack", "sentence_id", "variant"):
            if not isinstance(row.get(key), str):
                raise DataError(f"missing {key!r}", path=str(p), line=n, field=key)
        labels = row.get("labels")
        if not isinstance(labels, dict) or any(
                labels.get(k) not in (True, False, None) for k in LABELS):
            raise DataError("labels must map fluent, plausible and label_correct to true, "
                            "false or null", path=str(p), line=n, field="labels")
        drop = row.get("fluency_drop")
        if drop is not None and not isinstance(drop, (int, float)):
            raise DataError("fluency_drop must be a number or null", path=str(p), line=n,
                            field="fluency_drop")
        rows.append(row)
    return rows


# -- generating variants to label --------------------------------------------------------------
def generate_rows(sentences: Sequence[tuple[str, str]], *, seed: int = 0,
                  attacker: str | None = None, scorer: str = "embedded",
                  flows: FlowRunner | None = None, attacks: Sequence[str] = ATTACK_NAMES,
                  thresholds: Thresholds | None = None,
                  per_attack: int | None = None) -> tuple[list[dict[str, Any]], Counter[str]]:
    """Every variant of ``attacks`` for ``sentences`` (rows ready to label) and the drops by
    "attack: reason" (validation; the fluency gate does not drop here: every variant is
    scored and marked ``kept`` or not, so the labels can set the thresholds). With
    ``per_attack``, a seeded sample of that many variants of each attack is kept and scored;
    each row records how many sentences were given and how many the attack made a variant
    for, so coverage is still measured on all of them. ``scorer="none"`` scores nothing
    (rows carry a null ``fluency_drop``; a quick count of what the rules write)."""
    from rattle import registry
    from rattle.attacks.claims.generators import ClaimContext, run_attacks
    from rattle.items import Item
    from rattle.seeding import rng_for

    ctx = ClaimContext(attacker=bool(attacker))
    jobs = []
    items = {sid: Item(id=sid, questions=(), claim=claim) for sid, claim in sentences}
    for name in attacks:
        gen = registry.get("attack", f"claims.{name}").factory()
        for sid, item in items.items():
            jobs.append(((sid, name), item, gen, rng_for(seed, sid, gen.qualified, gen.options)))
    outcomes = run_attacks(jobs, ctx, attacker=attacker, flows=flows)
    from rattle.attacks.claims.base import ClaimAttack

    made = {tag: out for tag, out in outcomes.items() if isinstance(out, ClaimAttack)}
    dropped: Counter[str] = Counter(f"{tag[1]}: {out.reason}" for tag, out in outcomes.items()
                                    if not isinstance(out, ClaimAttack))
    attacked = Counter(name for _, name in made)
    if per_attack is not None:
        pick = random.Random(seed)
        chosen = set()
        for name in attacks:
            tags = sorted(tag for tag in made if tag[1] == name)
            chosen.update(pick.sample(tags, min(per_attack, len(tags))))
        made = {tag: out for tag, out in made.items() if tag in chosen}
    gate = FluencyGate(scorer, thresholds)
    drops = {} if scorer == NO_SCORER else gate.scores(
        [(tag, items[tag[0]].claim or "", gated_text(out)) for tag, out in made.items()], flows)
    rows = []
    order = {name: i for i, name in enumerate(attacks)}
    for (sid, name), out in sorted(made.items(), key=lambda kv: (kv[0][0], order[kv[0][1]])):
        drop = drops.get((sid, name))
        rows.append({
            "id": f"{sid}/{name}", "sentence_id": sid, "attack": name, "mode": out.mode,
            "seed": seed, "original": items[sid].claim, "variant": gated_text(out),
            "declarative": out.declarative, "question": out.question,
            "claim_true": out.claim_true, "answers": list(out.answers),
            "correction": out.correction,
            "span": {"before": out.before, "after": out.after, "start": out.start},
            "details": dict(out.details), "fluency_drop": drop,
            "kept": drop is not None and drop <= gate.thresholds.of(name),
            "sentences": len(items), "attacked": attacked[name],
            "labels": {k: None for k in LABELS}, "note": ""})
    return rows, dropped


# -- thresholds from labels ------------------------------------------------------------------
def _fit(scored: Sequence[tuple[float, bool]]) -> float | None:
    """The threshold keeping the most fluent variants at COST per kept non-fluent one: the
    smallest fluent score reaching the best utility (None without a fluent variant)."""
    best: tuple[float, float] | None = None
    for t in sorted({s for s, fluent in scored if fluent}):
        utility = sum(1.0 if fluent else -COST for s, fluent in scored if s <= t)
        if best is None or utility > best[0]:
            best = (utility, t)
    return None if best is None else best[1]


def fit_thresholds(rows: Sequence[Mapping[str, Any]], *, scorer: str = "embedded",
                   source: str = "") -> Thresholds:
    """Per-attack thresholds on the fluency drop from rows labelled ``fluent``."""
    scored: dict[str, list[tuple[float, bool]]] = {}
    for r in rows:
        fluent = r["labels"].get("fluent")
        if fluent is None or r.get("fluency_drop") is None:
            continue
        scored.setdefault(r["attack"], []).append((float(r["fluency_drop"]), bool(fluent)))
    pooled = _fit([x for xs in scored.values() for x in xs])
    if pooled is None:
        raise DataError("no labelled fluent variant with a fluency score to fit thresholds on",
                        path=source or None)
    attacks = {}
    for name, xs in sorted(scored.items()):
        t = _fit(xs) if len(xs) >= MIN_LABELLED else None
        attacks[name] = pooled if t is None else t
    return Thresholds(pooled, attacks, scorer, source)


# -- coverage and valid rate -------------------------------------------------------------------
@dataclass(frozen=True)
class AttackQuality:
    """Coverage and valid rate of one attack on one labelled file."""

    attack: str
    sentences: int  # sentences given to the attack
    attacked: int  # sentences it made a variant for (before the fluency gate)
    scored: int  # variants in the file
    kept: int  # variants the fluency gate keeps
    labelled: int  # kept variants with all three labels
    valid: int
    fluent: int
    plausible: int
    label_correct: int

    @property
    def coverage(self) -> float:
        """Share of sentences with a kept variant (the gate's keep rate in the file applied to
        the sentences the attack made a variant for, when the file is a sample)."""
        if not self.sentences or not self.scored:
            return 0.0
        return self.attacked / self.sentences * self.kept / self.scored

    @property
    def valid_rate(self) -> float | None:
        return self.valid / self.labelled if self.labelled else None


def quality(rows: Sequence[Mapping[str, Any]], thresholds: Thresholds | None = None,
            *, sentences: int | None = None) -> dict[str, AttackQuality]:
    """Per attack: coverage and valid rate among the labelled kept variants. The numbers of
    sentences given and attacked come from the rows (``sentences``, ``attacked``), else from
    the distinct sentence ids in ``rows``."""
    limits = thresholds or load_thresholds()
    ids = len({r["sentence_id"] for r in rows})
    out = {}
    for name in sorted({r["attack"] for r in rows}, key=_order):
        mine = [r for r in rows if r["attack"] == name]
        n = sentences if sentences is not None else int(mine[0].get("sentences") or ids)
        attacked = int(mine[0].get("attacked") or len({r["sentence_id"] for r in mine}))
        kept = [r for r in mine if r.get("fluency_drop") is not None
                and float(r["fluency_drop"]) <= limits.of(name)]
        done = [r for r in kept if all(r["labels"].get(k) is not None for k in LABELS)]
        out[name] = AttackQuality(
            name, n, attacked, len(mine), len(kept), len(done),
            sum(all(r["labels"][k] for k in LABELS) for r in done),
            sum(bool(r["labels"]["fluent"]) for r in done),
            sum(bool(r["labels"]["plausible"]) for r in done),
            sum(bool(r["labels"]["label_correct"]) for r in done))
    return out


def _order(name: str) -> tuple[int, str]:
    return (ATTACK_NAMES.index(name) if name in ATTACK_NAMES else len(ATTACK_NAMES), name)


def table(results: Mapping[str, AttackQuality]) -> str:
    """A plain-text table of coverage and valid rate per attack."""
    lines = [f"{'attack':<13} {'coverage':>8} {'attacked':>9} {'kept':>9} {'valid rate':>17} "
             f"{'fluent':>7} {'plausible':>9} {'label':>6}"]
    for q in results.values():
        rate = "-" if q.valid_rate is None else f"{q.valid_rate:.3f} ({q.valid}/{q.labelled})"
        lines.append(f"{q.attack:<13} {q.coverage:>8.3f} {q.attacked:>4}/{q.sentences:<4} "
                     f"{q.kept:>4}/{q.scored:<4} {rate:>17} {q.fluent:>7} {q.plausible:>9} "
                     f"{q.label_correct:>6}")
    return "\n".join(lines)


# -- command line ----------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rattle.attacks.claims.quality",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="variants of all nine attacks, ready to label")
    gen.add_argument("sentences", type=Path)
    gen.add_argument("output", type=Path)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--attacker", default=None, help="a model that writes the attacks")
    gen.add_argument("--scorer", default="embedded",
                     help="the fluency gate's model; 'none' writes no scores (a quick count)")
    gen.add_argument("--workspace", type=Path, default=Path(".rattle"),
                     help="store folder (cache of the scores and attacker answers)")
    gen.add_argument("--per-attack", type=int, default=None,
                     help="a seeded sample of this many variants per attack (default: all)")
    rep = sub.add_parser("report", help="coverage and valid rate per attack")
    rep.add_argument("labelled", type=Path, nargs="+")
    rep.add_argument("--thresholds", type=Path, default=None)
    fit = sub.add_parser("fit", help="set the fluency thresholds from labelled rows")
    fit.add_argument("labelled", type=Path)
    fit.add_argument("--out", type=Path, default=THRESHOLDS)
    fit.add_argument("--scorer", default="embedded")
    args = parser.parse_args(argv)
    try:
        if args.command == "generate":
            from rattle.run.executor import StoreFlows
            from rattle.run.store import Store

            with Store(args.workspace) as store:
                rows, dropped = generate_rows(read_sentences(args.sentences), seed=args.seed,
                                              attacker=args.attacker, scorer=args.scorer,
                                              flows=StoreFlows(store), per_attack=args.per_attack)
            atomic_write_text(args.output, "".join(json.dumps(r, ensure_ascii=False) + "\n"
                                                   for r in rows))
            print(f"wrote {len(rows)} variants to {args.output}")
            made = {r["attack"]: r["attacked"] for r in rows}
            print("made (validated, before the fluency gate): " + ", ".join(
                f"{name} {made.get(name, 0)}" for name in ATTACK_NAMES))
            for reason, count in sorted(dropped.items()):
                print(f"dropped {count}: {reason}")
        elif args.command == "report":
            limits = load_thresholds(args.thresholds)
            for path in args.labelled:
                print(f"{path} (thresholds for {limits.scorer})")
                print(table(quality(read_labelled(path), limits)))
        else:
            found = fit_thresholds(read_labelled(args.labelled), scorer=args.scorer,
                                   source=args.labelled.name)
            atomic_write_text(args.out, json.dumps(found.as_json(), indent=2) + "\n")
            print(json.dumps(found.as_json(), indent=2))
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
