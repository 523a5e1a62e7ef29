"""Goal-directed search: greedy and beam against random best-of-N at equal query budgets.

Runs ``search.mc`` (RCC single-turn prompt, goal ``flip``, the default transformations and
constraints) over mini-mc and an RCC dataset for each method and budget (10, 25, 50) in one
process, and prints the attack success rate and the queries per success of each. Every query
goes through one store, so a budget's searches reuse the answers a larger budget already got
(searches are deterministic; a smaller budget asks a prefix of the same queries).

The target is the embedded model (SmolLM2-135M through rattle's ``embedded`` backend); where
it cannot run, a deterministic lexical stand-in (``--model lexical``: options voted for by
the passage's words; artificial, for plumbing only). The table says which one ran.

Usage: python bench/search.py [--rcc PATH] [--limit 10] [--budgets 10,25,50]
                              [--methods greedy,beam,random] [--model auto]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rattle import registry
from rattle.models.base import ChatRequest, Completion, GenParams
from rattle.run.executor import Executor
from rattle.run.store import Store
from rattle.systems.llm import LLMSystem



def default_rcc() -> str:
    """CREAK's RCC primitive from the test-data manifest (shared copy, cache or download)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.external_data import locate

    return str(locate("LLMRiskEval_RCC", "Datasets", "Generator_out", "Creak.json"))
PROBE = ("import asyncio; from rattle.models import load_model; from rattle.models.base import "
         "ChatRequest; from rattle.items import Message; m = load_model('embedded'); "
         "print(asyncio.run(m.generate([ChatRequest((Message('user', 'Hi'),))]))[0].text)")


def embedded_runs() -> tuple[bool, str]:
    """Whether rattle's embedded backend answers here (probed in a child process: a crash
    of the native library must not take the benchmark down)."""
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode == 0:
        return True, ""
    signal = -proc.returncode if proc.returncode < 0 else proc.returncode - 128
    return False, f"exit {proc.returncode}" + (" (SIGILL: Illegal instruction)" if signal == 4 else "")


_OPTION = re.compile(r"^\(([A-I])\)(.*)$", re.M)


class LexicalStandIn:
    """A deterministic plumbing stand-in: every word of the prompt before the options votes
    for the option its hash names; words shared with an option text vote for that option
    three times. It answers the most voted option, and scores options by their votes (so the
    log-likelihood protocol gives the search graded scores). Artificial: it shows the search
    machinery, not a model's robustness."""

    identity = "bench/lexical@1"
    display_name = "lexical stand-in (deterministic, not a model)"
    capabilities: frozenset[str] = frozenset({"loglikelihood"})
    batch_size = 64
    concurrency = 1

    @staticmethod
    def votes(head: str, options: Sequence[str]) -> list[float]:
        votes = [0.0] * len(options)
        texts = [set(re.findall(r"\w+", o.lower())) for o in options]
        for word in re.findall(r"\w+", head.lower()):
            h = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big")
            votes[h % len(options)] += 1.0
            for k, t in enumerate(texts):
                votes[k] += 3.0 * (word in t)
        return votes

    def reply(self, prompt: str) -> str:
        options = _OPTION.findall(prompt)
        if not options:
            return "unknown"
        votes = self.votes(prompt[: prompt.find("(A)")], [o for _, o in options])
        best = max(range(len(options)), key=lambda k: (votes[k], -k))
        return f"({options[best][0]})"

    async def generate(self, requests: Sequence[ChatRequest]) -> list[Completion]:
        return [Completion(self.reply(r.messages[-1].content)) for r in requests]

    async def loglikelihood(self, requests: Sequence[Any]) -> list[list[float]]:
        out = []
        for r in requests:
            prompt = r.messages[-1].content
            options = [c[3:] for c in r.continuations]
            out.append(self.votes(prompt[: prompt.find("(A)")], options))
        return out

    async def aclose(self) -> None:
        return None


def backend_for(name: str, threads: int | None = None) -> tuple[Any, str]:
    if name in ("auto", "embedded"):
        ok, why = embedded_runs()
        if ok:
            from rattle.models import load_model

            model = load_model("embedded" + (f"?n_threads={threads}" if threads else ""))
            return model, model.display_name
        if name == "embedded":
            raise SystemExit(f"the embedded backend cannot run here: {why}")
        print(f"# embedded backend unavailable here ({why}); using the lexical stand-in",
              flush=True)
    made_l = LexicalStandIn()
    return made_l, made_l.display_name


def run(backend: Any, store: Store, dataset: str, limit: int, method: str, budget: int,
        protocol: str, extra: dict[str, Any] | None = None) -> tuple[dict[str, Any], float]:
    """One search.mc run; its metrics by name (and ``over`` for queries) and its seconds."""
    suite = registry.create("suite", "search.mc", {"dataset": dataset, "limit": limit,
                                                   "method": method, "budget": budget,
                                                   "protocol": protocol, **(extra or {})})
    system = LLMSystem(backend, params=GenParams(max_tokens=16))
    records: list[tuple[str, Any]] = []

    def on_result(case: Any, result: Any) -> None:
        records.extend((case.id, r) for r in suite.records(case, result))

    start = time.perf_counter()
    Executor(backend, store).run(((c, suite.flow(c, system)) for c in suite.cases()), on_result)
    seconds = time.perf_counter() - start
    ordered = [r for _, r in sorted(records, key=lambda x: x[0])]
    out: dict[str, Any] = {}
    for m in suite.metrics(ordered):
        if m.group.get("dataset") == "all":
            continue
        out[m.name + (f":{m.group['over']}" if "over" in m.group else "")] = m
    return out, seconds


# rattle's side of the TextAttack comparison: the edits both have offline, no entity
# protection and no sentence encoder (TextAttack's USE needs TensorFlow Hub).
MATCHED = {"transformations": "chars.delete,chars.insert,words.delete",
           "constraints": "protected?entities=false,max_words", "similarity": False}


def textattack_rows(python: str, dataset: str, limit: int, budget: int) -> list[dict[str, Any]]:
    """TextAttack's GreedyWordSwapWIR on the same units (bench/search_textattack.py, run by
    ``python``, the interpreter of a virtualenv with TextAttack)."""
    import json
    import os

    from spacy.lang.en.stop_words import STOP_WORDS

    here = Path(__file__).resolve().parent
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(sorted(STOP_WORDS), fh)
    env = {**os.environ, "PYTHONPATH": f"{here.parent / 'src'}{os.pathsep}{here}"}
    proc = subprocess.run([python, str(here / "search_textattack.py"), dataset, str(limit),
                           str(budget), fh.name], capture_output=True, text=True, env=env,
                          check=True)
    os.unlink(fh.name)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def compare_textattack(python: str, backend: Any, store: Store, datasets: list[tuple[str, str]],
                       limit: int, budgets: list[int], protocol: str) -> None:
    print("# TextAttack GreedyWordSwapWIR vs rattle greedy, same units, target and edits",
          flush=True)
    for name, path in datasets:
        for budget in budgets:
            m, _ = run(backend, store, path, limit, "greedy", budget, protocol, MATCHED)
            rows = textattack_rows(python, path, limit, budget)
            wins = [r["queries"] for r in rows if r["outcome"] == "success"]
            tried = [r for r in rows if r["outcome"] != "skipped"]
            ta_rate = len(wins) / len(tried) if tried else None
            ta_q = sum(wins) / len(wins) if wins else None
            ours = m["attack_success_rate"].value
            print(f"{name:<10} budget {budget:>3} rattle greedy success {_pct(ours)} queries/success "
                  f"{_num(m['queries_mean:success'].value)} | TextAttack success {_pct(ta_rate)} "
                  f"queries/success {_num(ta_q)} (of {len(tried)})", flush=True)
            print(f"RATIO search.textattack.{name}.b{budget} "
                  f"{_ratio(ta_q, m['queries_mean:success'].value)} TextAttack/rattle queries "
                  f"per success; success {_pct(ta_rate)} vs {_pct(ours)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rcc", default=None, help="an RCC primitive JSON file (default: CREAK "
                        "from tests/external-data.json)")
    parser.add_argument("--limit", type=int, default=10, help="items per dataset")
    parser.add_argument("--budgets", default="10,25,50")
    parser.add_argument("--methods", default="greedy,beam?width=2,random")
    parser.add_argument("--model", default="auto", choices=("auto", "embedded", "lexical"))
    parser.add_argument("--threads", type=int, default=None,
                        help="llama.cpp threads of the embedded model (1 on a busy machine)")
    parser.add_argument("--workspace", default=None, help="store folder (default: a temp dir)")
    parser.add_argument("--textattack", default=None, metavar="PYTHON",
                        help="python of a venv with TextAttack: compare its greedy WIR "
                             "(lexical stand-in only)")
    parser.add_argument("--skip-methods", action="store_true",
                        help="only the TextAttack comparison")
    parser.add_argument("--protocol", default="auto", choices=("auto", "letter", "loglik", "single"),
                        help="how questions are asked (auto: option-letter probabilities on a "
                             "model that scores, option log-likelihoods on the stand-in, else "
                             "generated replies)")
    args = parser.parse_args()
    backend, shown = backend_for(args.model, args.threads)
    # Scores where the backend gives them: graded scores, as TextAttack's classifiers give (its
    # setting); a generated letter only says whether it changed. On a language model the option
    # letters' probabilities cost one decoding step per query, the options' log-likelihoods one
    # prompt evaluation per option; the stand-in scores option texts.
    protocol = args.protocol
    if protocol == "letter" and isinstance(backend, LexicalStandIn):
        raise SystemExit("the lexical stand-in scores option texts, not letters: use --protocol "
                         "loglik (or auto) with --model lexical")
    if protocol == "auto":
        scores = "loglikelihood" in backend.capabilities
        protocol = ("single" if not scores else
                    "loglik" if isinstance(backend, LexicalStandIn) else "letter")
    budgets = sorted((int(b) for b in args.budgets.split(",")), reverse=True)
    methods = [m for m in args.methods.split(",") if m]
    rcc = args.rcc or default_rcc()
    datasets = [("mini-mc", "mini-mc"), (Path(rcc).stem, rcc)]
    print(f"# target: {shown}; protocol {protocol}; {args.limit} items per dataset; "
          f"budgets {budgets}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.workspace or tmp)
        rows = []
        if args.textattack:
            if not isinstance(backend, LexicalStandIn):
                raise SystemExit("--textattack compares on the lexical stand-in: add --model lexical")
            compare_textattack(args.textattack, backend, store, datasets, args.limit, budgets,
                               protocol)
        for name, path in datasets if not args.skip_methods else ():
            for budget in budgets:  # largest first: smaller budgets reuse its answers
                for method in methods:
                    m, seconds = run(backend, store, path, args.limit, method, budget, protocol)
                    asr = m["attack_success_rate"]
                    rows.append((name, budget, method, asr, m["queries_mean:success"],
                                 m["queries_mean:attacked"], m["skip_rate"], seconds))
                    print(f"{name:<10} budget {budget:>3} {method:<14} success "
                          f"{_pct(asr.value)} [{_pct(asr.ci_low)}, {_pct(asr.ci_high)}] "
                          f"of {asr.n:>3}  queries/success {_num(m['queries_mean:success'].value)}"
                          f"  queries/search {_num(m['queries_mean:attacked'].value)}"
                          f"  skipped {_pct(m['skip_rate'].value)}  {seconds:6.1f} s", flush=True)
        store.close()
    for name, _ in datasets if not args.skip_methods else ():
        for budget in budgets:
            by = {r[2]: r for r in rows if r[0] == name and r[1] == budget}
            base = by.get("random")
            for method, row in by.items():
                if method == "random" or base is None:
                    continue
                print(f"RATIO search.{name}.b{budget}.{method.split('?')[0]} "
                      f"{_ratio(row[3].value, base[3].value)} success vs random "
                      f"({_pct(row[3].value)} vs {_pct(base[3].value)}); queries/success "
                      f"{_num(row[4].value)} vs {_num(base[4].value)} [{shown}]")


def _pct(x: float | None) -> str:
    return "  -  " if x is None else f"{100 * x:5.1f}%"


def _num(x: float | None) -> str:
    return "  -" if x is None else f"{x:5.1f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "n/a" if a is None or not b else f"{a / b:.2f}x"


if __name__ == "__main__":
    main()
