"""The RCC data primitive (the authors' ``Generator_out/*.json``), read and written losslessly.

A file is one JSON object keyed by ids ``"0"``, ``"1"``, …; each record has ``passage`` (a
string, ``""`` or ``null``) and ``sub-qa``: questions with ``answer``, ``options``
(``option_type``/``option_describe``, GroundTruth first) and ``input`` (the display order).
Option-type strings are kept verbatim, typos included (reference-implementations.md §2.2).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rattle.errors import DataError
from rattle.items import AnswerType, Item, Option, Question

GROUND_TRUTH = "GroundTruth"
_NUMBER = re.compile(r"^[-+]?\d+(\.\d+)?$")


def answer_type(answer: Any) -> AnswerType:
    """RCC's ``opt_type`` (reference-implementations.md §2.4), with 'yes'/'no' as T/F."""
    if isinstance(answer, bool):
        return "tf"
    if isinstance(answer, (int, float)):
        return "number"
    text = str(answer)
    if text.lower() in ("true", "false", "yes", "no"):
        return "tf"
    if _NUMBER.match(text):
        return "number"
    if text.isalpha():
        return "word"
    return "text"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def item_from_record(key: str, record: Any, *, dataset: str, path: str) -> Item:
    if not isinstance(record, dict):
        raise DataError("record is not an object", path=path, field=key)
    subs = record.get("sub-qa")
    if not isinstance(subs, list) or not subs:
        raise DataError("missing or empty 'sub-qa' list", path=path, field=f"{key}.sub-qa",
                        fix="each record needs at least one sub-question")
    questions = []
    raw_subs = []
    for j, sub in enumerate(subs):
        where = f"{key}.sub-qa[{j}]"
        if not isinstance(sub, dict) or "question" not in sub:
            raise DataError("sub-question needs 'question'", path=path, field=where)
        options_raw = sub.get("options") or []
        if not isinstance(options_raw, list):
            raise DataError("'options' must be a list", path=path, field=f"{where}.options")
        options = []
        for k, opt in enumerate(options_raw):
            if not isinstance(opt, dict) or "option_describe" not in opt:
                raise DataError("option needs 'option_describe'", path=path,
                                field=f"{where}.options[{k}]")
            options.append(Option(_text(opt["option_describe"]), str(opt.get("option_type", ""))))
        order_raw = sub.get("input")
        order: tuple[int, ...] = ()
        if order_raw is not None:
            if (not isinstance(order_raw, list) or sorted(order_raw) != list(range(len(options)))):
                raise DataError("'input' must be a permutation of the option indices", path=path,
                                field=f"{where}.input")
            order = tuple(int(i) for i in order_raw)
        correct = next((k for k, o in enumerate(options) if o.kind == GROUND_TRUTH), None)
        if options and correct is None:
            correct = 0
        answer = sub.get("answer")
        questions.append(Question(
            text=_text(sub["question"]),
            answers=(_text(answer),) if answer is not None else (),
            options=tuple(options),
            correct=correct,
            order=order,
            answer_type=answer_type(answer),
        ))
        raw_subs.append({
            "keys": list(sub.keys()),
            "extra": {k: v for k, v in sub.items() if k not in ("question", "options", "input")},
            "options": [{k: v for k, v in o.items()} for o in options_raw],
            "question": sub["question"],
        })
    passage = record.get("passage")
    return Item(
        id=f"{dataset}-{key}",
        questions=tuple(questions),
        passage=None if passage is None else str(passage),
        dataset=dataset,
        meta={"rcc": {"key": key, "passage": passage, "keys": list(record.keys()),
                      "extra": {k: v for k, v in record.items() if k not in ("passage", "sub-qa")},
                      "subs": raw_subs}},
    )


def read_primitive(path: str | Path, *, dataset: str | None = None) -> list[Item]:
    p = Path(path)
    name = dataset or p.stem
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=str(p)) from None
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=str(p), line=exc.lineno) from None
    if not isinstance(data, dict):
        raise DataError("an RCC primitive file is a JSON object keyed by item id", path=str(p))
    return [item_from_record(k, v, dataset=name, path=str(p)) for k, v in data.items()]


def record_from_item(item: Item) -> tuple[str, dict[str, Any]]:
    """The primitive record of ``item``; exact for items read by ``read_primitive``."""
    raw: Mapping[str, Any] = item.meta.get("rcc") or {}
    subs_raw = raw.get("subs") or [{} for _ in item.questions]
    subs = []
    for q, sub_raw in zip(item.questions, subs_raw, strict=True):
        opts_raw = sub_raw.get("options")
        if opts_raw is None:
            opts_raw = [{"option_type": o.kind, "option_describe": o.text} for o in q.options]
        sub: dict[str, Any] = {"question": sub_raw.get("question", q.text)}
        extra = dict(sub_raw.get("extra") or {"answer": q.answers[0] if q.answers else None,
                                                "option-number": len(q.options)})
        sub.update(extra)
        sub["options"] = opts_raw
        if q.order or "input" in (sub_raw.get("keys") or ["input"]):
            sub["input"] = list(q.order or range(len(q.options)))
        keys = sub_raw.get("keys")
        if keys:
            sub = {k: sub[k] for k in keys if k in sub} | {k: v for k, v in sub.items() if k not in keys}
        subs.append(sub)
    record: dict[str, Any] = {"passage": raw.get("passage", item.passage), "sub-qa": subs}
    record.update(raw.get("extra") or {})
    keys = raw.get("keys")
    if keys:
        record = {k: record[k] for k in keys if k in record}
    return str(raw.get("key", item.id)), record


def write_primitive(items: Iterable[Item], path: str | Path) -> None:
    out = dict(record_from_item(i) for i in items)
    Path(path).write_text(json.dumps(out, ensure_ascii=False, indent=4), encoding="utf-8")
