"""The ``rattle`` command: a thin Typer app over the library.

Errors from rattle (bad input, unknown names, unreachable servers) print one line and exit 2;
everything already answered stays in the store, so rerunning resumes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from rattle import __version__
from rattle.errors import ConfigError, RattleError, RunAborted
from rattle.files import atomic_write

app = typer.Typer(
    add_completion=False,
    no_args_is_help=False,
    help="Stress-test LLMs and RAG systems: perturbed and adversarial variants, automatic "
    "judging, robustness metrics with confidence intervals.",
    pretty_exceptions_enable=False,
)
cache_app = typer.Typer(help="Inspect or clear the workspace store (response cache).")
app.add_typer(cache_app, name="cache")


def _err(message: str) -> None:
    typer.echo(f"rattle: error: {message}", err=True)


def _parse_params(values: list[str] | None, flag: str = "--param") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for raw in values or []:
        key, sep, value = raw.partition("=")
        if not sep or not key:
            raise ConfigError(f"{flag} {raw!r} must look like key=value")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    return out


# "\\[" keeps the help's rich markup from reading the filter brackets as style tags.
FAIL_IF_HELP = ("Gate for CI, repeatable: METRIC\\[key=value,...] OP NUMBER, e.g. 'asr>0.3', "
                "'accuracy\\[attack=original]<0.6', 'ci_low(accuracy)<0.5'. The run exits with "
                "status 4 when any matching metric row satisfies it.")


@app.command()
def run(
    ctx: typer.Context,
    suite: Annotated[str, typer.Argument(help="Suite to run (see `rattle suites`), or an "
                                         "experiment file (.yaml): models × suites × datasets.")] = "quick",
    model: Annotated[str, typer.Option(help="provider/name: embedded, openai/<model>, "
                                       "llamacpp/<path.gguf>, transformers/<dir>, scripted/...")] = "embedded",
    system: Annotated[str, typer.Option(help="System under test: llm, rag (an llm reading "
                                        "retrieved documents) or http.")] = "llm",
    dataset: Annotated[str | None, typer.Option(help="Dataset file or built-in set "
                                                   "(mini-mc, mini-qa); default: the suite's.")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Use only the first N items.")] = None,
    seed: Annotated[int, typer.Option(help="Run seed: same seed, same variants.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Run folder (default runs/<suite>-<id>).")] = None,
    workspace: Annotated[Path, typer.Option(help="Folder of the store (cache and resume point).")] = Path(".rattle"),
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible server URL.")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Env variable holding the API key "
                                                       "(default OPENAI_API_KEY).")] = None,
    concurrency: Annotated[int | None, typer.Option(min=1, help="Requests in flight.")] = None,
    max_tokens: Annotated[int, typer.Option(min=1, help="Max tokens per answer.")] = 32,
    system_prompt: Annotated[str | None, typer.Option(help="System prompt of the llm system.")] = None,
    param: Annotated[list[str] | None, typer.Option(help="Suite option key=value "
                                                       "(e.g. samples=4, protocol=single).")] = None,
    corpus: Annotated[Path | None, typer.Option(help="Passage corpus (JSONL id/title/text or "
                                                "DPR TSV) to retrieve from (ralm suites).")] = None,
    retriever: Annotated[str, typer.Option(help="bm25 or dense (with --corpus).")] = "bm25",
    attacker: Annotated[str | None, typer.Option(help="Model that writes attacks (GenADV, "
                                                 "conflict passages); offline rules if unset.")] = None,
    judge: Annotated[str | None, typer.Option(help="Judge model for free-form answers and response "
                                             "quality (factoid suites); offline rules if unset.")] = None,
    url: Annotated[str | None, typer.Option(help="http system: the service URL.")] = None,
    template: Annotated[str | None, typer.Option(help="http system: JSON body template.")] = None,
    answer_path: Annotated[str, typer.Option(help="http system: dotted path of the answer.")] = "answer",
    citations_path: Annotated[str | None, typer.Option(help="http system: path of citations.")] = None,
    header: Annotated[list[str] | None, typer.Option(help="http system: 'Name: value' "
                                                        "(values may use ${ENV_VAR}).")] = None,
    max_requests: Annotated[int | None, typer.Option(min=1, help="Stop after sending N requests.")] = None,
    max_cost: Annotated[float | None, typer.Option(min=0.0, help="Stop when the run has cost this "
                                                   "many USD (needs a known or given price).")] = None,
    price: Annotated[str | None, typer.Option(help="USD per million tokens 'PROMPT,COMPLETION' "
                                              "for cost estimates and --max-cost.")] = None,
    max_unmeasured: Annotated[float, typer.Option(min=0.0, max=1.0, help="Exit 3 when a larger "
                                                  "share of cases is unmeasured.")] = 0.5,
    skip_invalid: Annotated[bool, typer.Option(help="Skip malformed dataset lines (counted) "
                                               "instead of stopping.")] = False,
    executor: Annotated[str, typer.Option(help="local, or ray (request batches on a Ray cluster).")] = "local",
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster address (ray://head:10001); "
                                                    "a local Ray instance when unset.")] = None,
    replicas: Annotated[int, typer.Option(min=1, help="Model replicas (Ray actors) for local models.")] = 2,
    dry_run: Annotated[bool, typer.Option(help="Count requests and tokens; send nothing.")] = False,
    verbose: Annotated[bool, typer.Option(help="Log what rattle does, and let local engines "
                                          "(llama.cpp) print their own log.")] = False,
    fail_if: Annotated[list[str] | None, typer.Option("--fail-if", help=FAIL_IF_HELP)] = None,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here (a test case per "
                                               "gate and per suite part).")] = None,
) -> None:
    """Run a suite against a model or system and write a run folder; or run an experiment
    file's matrix (one folder per cell under --out, plus matrix.html)."""
    from rattle.run.experiment import is_experiment_file
    from rattle.run.gates import parse_gates
    from rattle.run.runner import RunConfig, run_suite

    experiment = is_experiment_file(suite)
    try:
        if experiment:
            _check_experiment_flags(ctx)
        gates = parse_gates(fail_if or [], allow_delta=experiment)
        system_options: dict[str, Any] = {}
        if system == "http":
            if not url:
                raise ConfigError("--system http needs --url")
            system_options = {"url": url, "answer_path": answer_path,
                              "citations_path": citations_path, "headers": header or []}
            if template:
                system_options["template"] = template
            if concurrency:
                system_options["concurrency"] = concurrency
        suite_options = _parse_params(param)
        if corpus is not None:
            suite_options["corpus"] = str(corpus)
            suite_options["retriever"] = retriever
        if attacker:
            suite_options["attacker"] = attacker
        if judge:
            suite_options["judge"] = judge
        config = RunConfig(
            suite=suite, model=model, system=system, dataset=dataset, limit=limit, seed=seed,
            out=str(out) if out else None, workspace=str(workspace), base_url=base_url,
            api_key_env=api_key_env, concurrency=concurrency, max_tokens=max_tokens,
            system_prompt=system_prompt, suite_options=suite_options,
            system_options=system_options, max_requests=max_requests, skip_invalid=skip_invalid,
            max_cost=max_cost, price=price, executor=executor, ray_address=ray_address,
            replicas=replicas, verbose=verbose,
        )
        if verbose:
            import logging

            logging.basicConfig(level=logging.INFO, format="rattle: %(name)s: %(message)s")
        if experiment:
            from rattle.cli_workflow import run_experiment_file

            code = run_experiment_file(Path(suite), config, gates, out=out, junit=junit,
                                       dry_run=dry_run, max_unmeasured=max_unmeasured)
            if code:
                raise typer.Exit(code)
            return
        from rattle.cli_progress import ProgressView

        with ProgressView(enabled=not dry_run) as view:
            outcome = run_suite(config, dry_run=dry_run, progress=view.update,
                                on_total=view.set_total)
    except KeyboardInterrupt:
        _err("interrupted; every answer received so far is kept in the store; rerun the same "
             "command to resume")
        raise typer.Exit(130) from None
    except RunAborted as exc:
        _err(str(exc))
        raise typer.Exit(3) from None
    except RattleError as exc:
        _err(str(exc))
        raise typer.Exit(2) from None
    from rattle.cli_progress import print_summary

    print_summary(outcome)
    if outcome.dry_run:
        return
    from rattle.cli_workflow import check_run

    code = check_run(outcome, gates, junit=junit, max_unmeasured=max_unmeasured)
    if code:
        raise typer.Exit(code)


def _check_experiment_flags(ctx: typer.Context) -> None:
    """Settings an experiment file makes per cell cannot also come from the command line."""
    keys = {"model": "models", "dataset": "datasets", "limit": "limit", "seed": "seed",
            "judge": "judge", "concurrency": "concurrency", "param": "params"}
    for name, key in keys.items():
        source = ctx.get_parameter_source(name)  # typer's own click: compare by name
        if getattr(source, "name", "") == "COMMANDLINE":
            flag = "--" + name.replace("_", "-")
            raise ConfigError(f"{flag} cannot be combined with an experiment file; set "
                              f"`{key}` in the file instead")


@app.command("list")
def list_(kind: Annotated[str | None, typer.Argument(help="perturbation, attack, model, "
                                                       "system, judge, metric, suite, retriever, "
                                                       "dataset_format or executor")] = None,
          brief: Annotated[bool, typer.Option(help="Names and docs only, no options.")] = False,
          ) -> None:
    """List what is registered, with one-line docs and each entry's typed options."""
    from rattle import registry
    from rattle.options import option_specs

    kinds = registry.KINDS if kind is None else (kind,)
    if kind is not None and kind not in registry.KINDS:
        _err(f"unknown kind {kind!r}; use one of: {', '.join(registry.KINDS)}")
        raise typer.Exit(2)
    for k in kinds:
        entries = registry.entries(k)  # type: ignore[arg-type]
        if not entries:
            continue
        typer.echo(f"{k}s:")
        for e in entries:
            typer.echo(f"  {e.qualified:<24} {e.doc}")
            if brief or k == "metric":  # metrics are functions of records, not configured
                continue
            for spec in option_specs(e.factory):
                typer.echo(f"      {spec.describe()}")


@app.command()
def suites() -> None:
    """Describe each suite: what it measures and the paper it implements."""
    from rattle import registry

    for e in registry.entries("suite"):
        suite = e.factory()
        typer.echo(f"{e.name}  ({suite.paper})\n  {e.doc}\n  produces: {suite.tables}\n")


@app.command()
def report(run_dir: Annotated[Path, typer.Argument(help="A finished run folder.")]) -> None:
    """Re-render metrics.csv and report.html of a run folder without calling any model."""
    from rattle.report.render import rerender

    try:
        page = rerender(run_dir)
    except RattleError as exc:
        _err(str(exc))
        raise typer.Exit(2) from None
    typer.echo(str(page))


@app.command()
def compare(
    runs: Annotated[list[Path], typer.Argument(help="Two or more run folders (the first is A, "
                                               "the baseline).")],
    out: Annotated[Path | None, typer.Option(help="Folder for compare.md and compare.html.")] = None,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    fail_if: Annotated[list[str] | None, typer.Option(
        "--fail-if", help="Gate, repeatable: delta(accuracy)<-0.05 fails when a run is more "
        "than 5 points less accurate than the baseline (paired, B − A); "
        "ci_high(delta(accuracy))<0 when it is significantly worse; plain gates "
        "(accuracy<0.6) are checked on every run. Exit status 4 on failure.")] = None,
    junit: Annotated[Path | None, typer.Option(help="Write JUnit XML here (a case per gate).")] = None,
) -> None:
    """Compare runs side by side, with paired bootstrap CIs for accuracy differences."""
    from rattle.report.compare import paired_accuracy, side_by_side, to_html, to_markdown
    from rattle.report.load import load_run
    from rattle.run.gates import parse_gates

    if len(runs) < 2:
        _err("compare needs at least two run folders")
        raise typer.Exit(2)
    try:
        gates = parse_gates(fail_if or [], allow_delta=True)
        loaded = [load_run(r) for r in runs]
    except RattleError as exc:
        _err(str(exc))
        raise typer.Exit(2) from None
    labels = [f"{r.name} ({run.info.get('model', '?')})" for r, run in zip(runs, loaded, strict=True)]
    header, body = side_by_side(loaded, labels)
    diffs = []
    for label, run in zip(labels[1:], loaded[1:], strict=True):
        diffs.extend(paired_accuracy(loaded[0], run, labels[0], label, seed=seed))
    markdown = to_markdown(header, body, diffs)
    typer.echo(markdown)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "compare.md").write_text(markdown, encoding="utf-8")
        (out / "compare.html").write_text(to_html(header, body, diffs, labels), encoding="utf-8")
        typer.echo(f"wrote {out / 'compare.md'} and {out / 'compare.html'}")
    if gates:
        from rattle.cli_workflow import check_compare

        code = check_compare(gates, loaded, labels, diffs, junit=junit)
        if code:
            raise typer.Exit(code)


@app.command()
def perturb(
    input: Annotated[Path, typer.Argument(help="Dataset file (RCC primitive JSON or JSONL; "
                                          "a JSONL of {\"claim\": ...} for claims.* attacks).")],
    output: Annotated[Path, typer.Argument(help="Where to write the variants (JSONL).")],
    attack: Annotated[str, typer.Option(help="Registered perturbation, or a claims.* attack "
                                        "(rule-based).")],
    param: Annotated[list[str] | None, typer.Option(help="key=value, repeatable.")] = None,
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
    fluency: Annotated[str, typer.Option(help="claims.*: the fluency gate's scoring model, or "
                                         "none.")] = "embedded",
    workspace: Annotated[Path, typer.Option(help="claims.*: store folder (cached fluency "
                                            "scores).")] = Path(".rattle"),
) -> None:
    """Write perturbed variants of a dataset as JSONL (claims.* variants pass the fluency gate)."""
    from rattle.datasets import load_dataset
    from rattle.perturbations.base import Perturbation

    try:
        params = _parse_params(param)
        if attack.startswith("claims."):
            _perturb_claims(input, output, attack, params, seed, fluency, workspace)
            return
        perturbation = Perturbation(attack, params)
        items = load_dataset(str(input))
        n = 0
        with output.open("w", encoding="utf-8") as fh:
            for start in range(0, len(items), 4096):  # batched: the char ops vectorise
                for v in perturbation.apply_many(items[start:start + 4096], seed):
                    row = {"id": v.id, "passage": v.item.passage,
                           "questions": [q.text for q in v.item.questions], **v.provenance}
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                    n += 1
    except RattleError as exc:
        _err(str(exc))
        raise typer.Exit(2) from None
    typer.echo(f"wrote {n} variants to {output}")


def _perturb_claims(input: Path, output: Path, attack: str, params: dict[str, Any], seed: int,
                    fluency: str, workspace: Path) -> None:
    """Rule-based claim attacks on a JSONL of sentences, through the fluency gate; drops are
    counted by reason."""
    from collections import Counter

    from rattle.attacks.claims.fluency import FluencyGate
    from rattle.attacks.claims.generators import ClaimContext, generate
    from rattle.attacks.documents.base import Dropped
    from rattle.datasets import load_dataset
    from rattle.run.executor import StoreFlows
    from rattle.run.store import Store

    items = load_dataset(str(input))
    ctx = ClaimContext()
    outcomes = {item.id: generate(attack, item, seed=seed, ctx=ctx, **params) for item in items}
    gated = ""
    if fluency != "none":
        before = sum(not isinstance(o, Dropped) for o in outcomes.values())
        with Store(workspace) as store:
            gate = FluencyGate(fluency)
            outcomes = gate.apply(outcomes, {i.id: i.claim or "" for i in items}, StoreFlows(store))
        kept = sum(not isinstance(o, Dropped) for o in outcomes.values())
        gated = f"fluency gate ({fluency}, thresholds fitted for {gate.thresholds.scorer}): kept {kept} of {before}"
    dropped: Counter[str] = Counter()
    n = 0

    def write(fh: TextIO) -> None:
        nonlocal n
        for item in items:
            out = outcomes[item.id]
            if isinstance(out, Dropped):
                dropped[out.reason] += 1
                continue
            row = {"id": f"{item.id}/{attack}", "parent_id": item.id, "claim": item.claim,
                   "attack": attack, "seed": seed, "params": params, **out.as_label()}
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1

    atomic_write(output, write)
    typer.echo(f"wrote {n} variants to {output}")
    if gated:
        typer.echo(gated)
    for reason, count in dropped.most_common():
        typer.echo(f"dropped {count}: {reason}")


@cache_app.command("stats")
def cache_stats(workspace: Annotated[Path, typer.Option()] = Path(".rattle")) -> None:
    """Responses, failures and runs in the store, by model."""
    from rattle.run.store import Store

    with Store(workspace) as store:
        s = store.stats()
    typer.echo(f"store: {s.path} ({s.size_bytes / 1e6:.1f} MB)")
    typer.echo(f"responses: {s.responses}  failures logged: {s.failures}  runs: {s.runs}")
    for model, n in sorted(s.by_model.items()):
        typer.echo(f"  {n:>8}  {model}")


@cache_app.command("clear")
def cache_clear(
    workspace: Annotated[Path, typer.Option()] = Path(".rattle"),
    model: Annotated[str | None, typer.Option(help="Only this model identity.")] = None,
) -> None:
    """Delete cached responses (all, or one model's)."""
    from rattle.run.store import Store

    with Store(workspace) as store:
        n = store.clear(model)
    typer.echo(f"deleted {n} cached responses")


def version_callback(value: bool) -> None:
    if value:
        typer.echo(f"rattle {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[bool, typer.Option("--version", callback=version_callback,
                                          is_eager=True, help="Show the version.")] = False,
) -> None:
    """rattle: robustness testing for LLMs and RAG systems."""


def main() -> None:
    try:
        app()
    except RattleError as exc:  # pragma: no cover - commands catch their own
        _err(str(exc))
        sys.exit(2)


if __name__ == "__main__":
    main()
