"""Agreement of every rule extractor with its hand-labelled replies (issue 14, item 4).

Each labelled set lives in ``judges/data/labels/<set>.<half>.jsonl``: the ``dev`` half the
rules were developed on (every ``<set>.dev*.jsonl`` file together: ``dev``, ``dev-b``, …,
``dev-g``), and, when present, a ``heldout`` half (``<set>.heldout.jsonl``) written by someone
else that no rule was tuned on; a set without a held-back file reports its dev half only. A
set maps to one extractor, which turns a labelled row into a label of the set's vocabulary
(``None`` = the extractor leaves the reply unmeasured):

| set | extractor | labels |
|---|---|---|
| ``choice.letter`` / ``choice.yesno`` / ``choice.numeric`` | ``extract_choice`` | displayed letter |
| ``verdict`` | ``verdict`` | accept / reject |
| ``abstain`` | ``classify_reply(..., prompt="unans")`` | abstain / answer |
| ``conflict`` | ``classify_reply(..., prompt="conflict")`` | conflict / answer / abstain |

``agreement_for`` reports accuracy, Cohen's kappa (unmeasured counts as its own category), the
confusion table and the ids of the misses; ``all_agreements`` covers every set and present half
(the CI gate); ``judge_agreement_metrics`` turns them into ``judge_agreement`` metric values
for a run's metrics.json.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rattle.errors import ConfigError, DataError

LABELS_DIR = Path(__file__).parent / "data" / "labels"
SETS = ("choice.letter", "choice.yesno", "choice.numeric", "verdict", "abstain", "conflict")
HALVES = ("dev", "heldout")
MODES = ("broad", "paper")
GATE = 0.97  # issue 14: every extractor must agree with the labels on at least 97%
# Which labelled sets measure the extractor a suite uses (keys name the extractor).
EXTRACTOR_SETS: Mapping[str, tuple[str, ...]] = {
    "choice": ("choice.letter", "choice.yesno", "choice.numeric"),
    "verdict": ("verdict",),
    "ralm.abstain": ("abstain",),
    "ralm.conflict": ("conflict",),
}
_REQUIRED = {
    "choice": ("id", "question", "options", "reply", "label"),
    "verdict": ("id", "claim", "reply", "label"),
    "abstain": ("id", "question", "gold", "reply", "label"),
    "conflict": ("id", "question", "gold", "reply", "label"),
}
_VOCAB = {
    "verdict": {"accept", "reject", None},
    "abstain": {"abstain", "answer", None},
    "conflict": {"conflict", "answer", "abstain", None},
}

Row = dict[str, Any]
Predict = Callable[[Row], "str | None"]


@dataclass(frozen=True)
class Agreement:
    """One extractor on one half of one labelled set."""

    set_name: str
    half: str
    extractor: str
    n: int
    accuracy: float
    kappa: float
    confusion: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # gold -> predicted
    misses: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"set": self.set_name, "half": self.half, "extractor": self.extractor, "n": self.n,
                "accuracy": self.accuracy, "kappa": self.kappa,
                "confusion": {g: dict(p) for g, p in self.confusion.items()},
                "misses": list(self.misses)}


def _family(set_name: str) -> str:
    if set_name not in SETS:
        raise ConfigError(f"unknown labelled set {set_name!r}; use one of: {', '.join(SETS)}")
    return set_name.split(".")[0]


def label_paths(set_name: str, half: str = "dev", *, part: str | None = None,
                directory: Path = LABELS_DIR) -> list[Path]:
    """The files of one half: ``dev`` is every ``<set>.dev*.jsonl`` (``dev``, ``dev-b``, …,
    ``dev-g``; ``dev`` first), ``heldout`` is ``<set>.heldout.jsonl``. ``part`` picks one file of
    the half by its middle name (``"dev"``, ``"dev-g"``), to measure it alone. Absent files are
    left out (a set with no held-back file has an empty ``heldout`` half)."""
    _family(set_name)
    if half == "dev":
        paths = sorted((p for p in directory.glob(f"{set_name}.dev*.jsonl") if p.is_file()),
                       key=lambda p: (p.name != f"{set_name}.dev.jsonl", p.name))
    elif half == "heldout":
        path = directory / f"{set_name}.heldout.jsonl"
        paths = [path] if path.is_file() else []
    else:
        raise ConfigError(f"unknown half {half!r}; use one of: {', '.join(HALVES)}")
    if part is None:
        return paths
    return [p for p in paths if p.name == f"{set_name}.{part}.jsonl"]


def dev_parts(set_name: str, *, directory: Path = LABELS_DIR) -> list[str]:
    """The dev files of a set by part name, e.g. ``["dev", "dev-b", …, "dev-g"]``."""
    prefix = f"{set_name}."
    return [p.name[len(prefix):-len(".jsonl")] for p in label_paths(set_name, "dev",
                                                                      directory=directory)]


def load_labels(set_name: str, half: str = "dev", *, part: str | None = None,
                directory: Path = LABELS_DIR) -> list[Row]:
    """The labelled rows of one half (all its files; or its file ``part`` alone), checked
    against the set's schema. Ids are unique within a file; an id that an earlier file of the
    half already used is qualified by its file's part name ("dev-c:verdict-1"), so that files
    written independently can share an id scheme and every miss still names one row."""
    family = _family(set_name)
    paths = label_paths(set_name, half, part=part, directory=directory)
    if not paths:
        path = directory / f"{set_name}.{part or half}.jsonl"
        raise DataError("no such labelled set", path=str(path),
                        fix=f"write {path.name} or pick a present half")
    rows: list[Row] = []
    seen: dict[str, str] = {}
    for path in paths:
        earlier = set(seen)  # ids of the half's earlier files
        part_name = path.name[len(set_name) + 1:-len(".jsonl")]
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON: {exc.msg}", path=str(path),
                                line=lineno) from None
            if not isinstance(row, dict):
                raise DataError("a labelled row must be a JSON object", path=str(path),
                                line=lineno)
            for key in _REQUIRED[family]:
                if key not in row:
                    raise DataError("missing field", path=str(path), line=lineno, field=key)
            _check_label(row, family, path, lineno)
            where = f"{path.name}:{lineno}"
            if str(row["id"]) in earlier:  # files written independently reuse ids: qualify
                row = {**row, "id": f"{part_name}:{row['id']}"}
            if str(row["id"]) in seen:
                raise DataError(f"duplicate id {row['id']!r} (first at {seen[str(row['id'])]})",
                                path=str(path), line=lineno, field="id",
                                fix="give every row of a file its own id")
            seen[str(row["id"])] = where
            rows.append(row)
    return rows


def _check_label(row: Row, family: str, path: Path, lineno: int) -> None:
    label = row["label"]
    if family == "choice":
        options = row["options"]
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise DataError("options must be a list of strings", path=str(path), line=lineno,
                            field="options")
        from rattle.judges.choice import LETTERS

        ok = label is None or (isinstance(label, str) and label in LETTERS[:len(options)])
    else:
        ok = label in _VOCAB[family]
    if not ok:
        raise DataError(f"label {label!r} is not allowed here", path=str(path), line=lineno,
                        field="label", fix="use a displayed letter (choice sets) or the set's "
                                            "label vocabulary, or null for unmeasured")


def predictor(set_name: str, *, mode: str = "broad") -> Predict:
    """The rule extractor of a set, as row -> label (None = unmeasured)."""
    family = _family(set_name)
    if mode not in MODES:
        raise ConfigError(f"unknown detection mode {mode!r}; use one of: {', '.join(MODES)}")
    if family == "choice":
        from rattle.judges.choice import LETTERS, extract_choice

        def choose(row: Row) -> str | None:
            got = extract_choice(row["reply"], list(row["options"]), question=row["question"])
            return None if got.index is None else LETTERS[got.index]

        return choose
    if family == "verdict":
        from rattle.judges.claims import verdict

        def judge(row: Row) -> str | None:
            v = verdict(row["reply"], claim=str(row.get("claim", "")))
            return None if v is None else ("accept" if v else "reject")

        return judge
    from rattle.judges.ralm import classify_reply

    prompt = "unans" if family == "abstain" else "conflict"

    def detect(row: Row) -> str | None:
        return classify_reply(row["reply"], prompt=prompt, mode=mode)  # type: ignore[arg-type]

    return detect


def extractor_name(set_name: str, mode: str = "broad") -> str:
    family = _family(set_name)
    return {"choice": "choice.extract@7", "verdict": "claims.verdict@7",
            "abstain": f"ralm.abstain@7[{mode}]", "conflict": f"ralm.conflict@7[{mode}]"}[family]


def score(gold: Sequence[str | None], predicted: Sequence[str | None]) -> tuple[float, float]:
    """Accuracy and Cohen's kappa; unmeasured (None) is a category of its own."""
    n = len(gold)
    if n == 0:
        return float("nan"), float("nan")
    agree = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    cg, cp = Counter(gold), Counter(predicted)
    chance = sum(cg[k] * cp[k] for k in cg) / (n * n)
    kappa = (agree - chance) / (1 - chance) if chance < 1 else 1.0
    return agree, kappa


def agreement_for(set_name: str, half: str = "dev", *, mode: str = "broad",
                  predict: Predict | None = None, extractor: str | None = None,
                  part: str | None = None, directory: Path = LABELS_DIR) -> Agreement:
    """Agreement of the set's extractor (or ``predict``) with the labels of one half, or of
    one file of it (``part="dev-b"``; the result's ``half`` is then the part's name)."""
    rows = load_labels(set_name, half, part=part, directory=directory)
    fn = predict or predictor(set_name, mode=mode)
    predicted = [fn(r) for r in rows]
    return agreement_from(set_name, part or half, extractor or extractor_name(set_name, mode),
                          rows, predicted)


def agreement_from(set_name: str, half: str, extractor: str, rows: Sequence[Row],
                   predicted: Sequence[str | None]) -> Agreement:
    """Agreement of predicted labels with the rows' labels (any extractor or judge)."""
    gold = [r["label"] for r in rows]
    accuracy, kappa = score(gold, predicted)
    confusion: dict[str, dict[str, int]] = {}
    for g, p in zip(gold, predicted, strict=True):
        cell = confusion.setdefault(str(g), {})
        cell[str(p)] = cell.get(str(p), 0) + 1
    misses = tuple(str(r["id"]) for r, p in zip(rows, predicted, strict=True) if r["label"] != p)
    return Agreement(set_name, half, extractor, len(rows), accuracy, kappa, confusion, misses)


def present_halves(set_name: str, *, directory: Path = LABELS_DIR) -> list[str]:
    """The halves of a set that have files: ``["dev"]``, or ``["dev", "heldout"]`` once a
    held-back file is written."""
    return [h for h in HALVES if label_paths(set_name, h, directory=directory)]


def all_agreements(*, modes: Iterable[str] = ("broad",),
                   directory: Path = LABELS_DIR) -> list[Agreement]:
    """Every set on every present half; the RALM sets once per detection mode in ``modes``."""
    out = []
    for set_name in SETS:
        set_modes = tuple(modes) if _family(set_name) in ("abstain", "conflict") else ("broad",)
        for half in present_halves(set_name, directory=directory):
            for mode in set_modes:
                out.append(agreement_for(set_name, half, mode=mode, directory=directory))
    return out


@lru_cache(maxsize=8)
def _cached(set_name: str, half: str, mode: str) -> Agreement:
    return agreement_for(set_name, half, mode=mode)


def judge_agreement_metrics(extractors: Iterable[str], *, mode: str = "broad") -> list[Any]:
    """``judge_agreement`` metric values (one per labelled set and present half) for the
    extractors a run used, e.g. ``["choice"]`` or ``["ralm.abstain", "ralm.conflict"]``
    (keys of ``EXTRACTOR_SETS``); ``mode`` is the RALM detection mode the run used."""
    from rattle.metrics.core import MetricValue

    out = []
    for name in extractors:
        if name not in EXTRACTOR_SETS:
            raise ConfigError(f"unknown extractor {name!r}; use one of: {', '.join(EXTRACTOR_SETS)}")
        for set_name in EXTRACTOR_SETS[name]:
            for half in present_halves(set_name):
                a = _cached(set_name, half, mode)
                out.append(MetricValue("judge_agreement", a.accuracy, None, None, a.n, 0,
                                       {"extractor": a.extractor, "set": set_name, "half": half,
                                        "kappa": round(a.kappa, 4)}))
    return out
