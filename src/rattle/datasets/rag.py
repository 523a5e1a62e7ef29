"""Open-domain QA sets with documents: RGB (counterfactual), PoisonedRAG, and hub QA sets.

- RGB (``en_fact.json``, one JSON object per line): ``query``, ``answer`` (a string, or lists
  of aliases), ``positive`` / ``negative`` passages, and for the counterfactual split
  ``fakeanswer`` and ``positive_wrong`` (the positives with the answer swapped for the fake).
  Positives become documents with the answer, negatives without; the wrong positives and the
  fake answer are kept as conflict material.
- PoisonedRAG (``adv_targeted_results/*.json``: an object of ``{id, question, correct answer,
  incorrect answer, adv_texts}``): questions with ready-made adversarial passages.
- Hub QA sets for users with network access: NQ-open, TriviaQA, WebQuestions, PopQA.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rattle.datasets.qa import parse_json_line, read_lines
from rattle.errors import ConfigError, DataError, MissingExtraError
from rattle.items import Document, Item, Question


def _aliases(answer: Any) -> list[str]:
    if isinstance(answer, str):
        return [answer]
    out: list[str] = []
    if isinstance(answer, list):
        for a in answer:
            out.extend(_aliases(a))
    return out


def read_rgb(path: Path, *, dataset: str | None = None) -> Iterator[Item]:
    name = dataset or path.name.split(".")[0]
    for lineno, line in read_lines(path):
        row = parse_json_line(path, lineno, line)
        query = row.get("query")
        if not isinstance(query, str) or not query.strip():
            raise DataError("missing query", path=str(path), line=lineno, field="query")
        answers = _aliases(row.get("answer"))
        if not answers:
            raise DataError("missing answer", path=str(path), line=lineno, field="answer")
        rid = str(row.get("id", lineno))
        docs = [Document(f"{name}-{rid}-pos{k}", str(t), has_answer=True)
                for k, t in enumerate(row.get("positive") or []) if isinstance(t, str)]
        docs += [Document(f"{name}-{rid}-neg{k}", str(t), has_answer=False)
                 for k, t in enumerate(row.get("negative") or []) if isinstance(t, str)]
        meta: dict[str, Any] = {}
        if row.get("fakeanswer"):
            meta["conflict_answers"] = _aliases(row["fakeanswer"])
            meta["conflict_documents"] = [
                {"id": f"{name}-{rid}-wrong{k}", "text": str(t)}
                for k, t in enumerate(row.get("positive_wrong") or [])]
        yield Item(id=f"{name}-{rid}", questions=(Question(query, tuple(answers)),),
                   documents=tuple(docs), dataset=name, meta=meta)


def read_poisonedrag(path: Path, *, dataset: str | None = None) -> Iterator[Item]:
    name = dataset or f"poisonedrag-{path.stem}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=str(path), line=exc.lineno) from None
    rows = data.values() if isinstance(data, dict) else data
    for k, row in enumerate(rows):
        where = f"{path}[{k}]"
        if not isinstance(row, dict) or "question" not in row or "correct answer" not in row:
            raise DataError("needs 'question' and 'correct answer'", path=where)
        rid = str(row.get("id", k))
        adv = [{"id": f"{name}-{rid}-adv{j}", "text": str(t)}
               for j, t in enumerate(row.get("adv_texts") or [])]
        yield Item(
            id=f"{name}-{rid}",
            questions=(Question(str(row["question"]), (str(row["correct answer"]),)),),
            dataset=name,
            meta={"adversarial_documents": adv,
                  "conflict_answers": [str(row["incorrect answer"])] if row.get("incorrect answer") else []},
        )


# name -> (hub id, config, split, question field, answers extractor)
HUB_QA = {
    "nq-open": ("google-research-datasets/nq_open", None, "validation", "question", "answer"),
    "triviaqa": ("mandarjoshi/trivia_qa", "rc.nocontext", "validation", "question", "answer.aliases"),
    "webq": ("stanfordnlp/web_questions", None, "test", "question", "answers"),
    "popqa": ("akariasai/PopQA", None, "test", "question", "possible_answers"),
}


def _answers_field(row: dict[str, Any], path: str) -> list[str]:
    cur: Any = row
    for part in path.split("."):
        cur = cur.get(part) if isinstance(cur, dict) else None
    if isinstance(cur, str) and cur.startswith("["):
        cur = json.loads(cur)  # PopQA stores a JSON list in a string
    return _aliases(cur)


def read_hub_qa(name: str, *, limit: int | None = None) -> Iterator[Item]:
    if name not in HUB_QA:
        raise ConfigError(f"unknown hub QA set {name!r}; use one of: {', '.join(HUB_QA)}")
    hub_id, config, split, qfield, afield = HUB_QA[name]
    try:
        import datasets as hf
    except ImportError:
        raise MissingExtraError("datasets", "hub", f"loading {hub_id} from the hub") from None
    rows = hf.load_dataset(hub_id, config, split=split)
    for i, row in enumerate(rows):
        if limit is not None and i >= limit:
            break
        yield Item(id=f"{name}-{i}", questions=(Question(str(row[qfield]),
                                                         tuple(_answers_field(row, afield))),),
                   dataset=name)
