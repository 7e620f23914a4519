"""Commands ``analyzer meta``, ``analyzer build-list`` and ``analyzer balance``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from analyzer.errors import InputError

DEFAULT_SEED = 2026


def _check_seed(seed: int) -> None:
    from analyzer.cli import check_seed

    check_seed(seed)


def round_robin(
    system: str,
    lists: tuple[str, ...],
    *,
    units: str | None,
    matches: int,
    policy: str,
    seed: int,
    options: dict[str, Any],
    threads: int | None,
    out: Path,
) -> Any:
    """``analyzer compare``'s round robin with its progress bar, stored in ``out`` (pairs
    resume) with its tables and charts."""
    from analyzer.analysis.compare import compare_lists, write_comparison
    from analyzer.cli import _check_distinct, check_at_least, check_between
    from analyzer.games import match_engine
    from analyzer.match.cli import announce_compile, progress_bar

    check_between(matches, "--matches", 1)
    check_at_least(threads, "--threads", 1)
    _check_distinct(lists)
    announce_compile(match_engine(system))
    n_pairs = len(lists) * (len(lists) - 1) // 2
    with progress_bar(n_pairs * matches, "match") as bar:
        result = compare_lists(
            system, list(lists), matches, seed, units, policy, options=options,
            threads=threads, out_dir=out, progress=bar.update,
            pairing=lambda label: bar.set_description(label, refresh=False),
        )  # fmt: skip
    write_comparison(result, out)
    return result


def _examples(*lines: str) -> str:
    """A command's epilog: its examples, as the other commands show them."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


def _match_options(first: str, opts: tuple[str, ...]) -> dict[str, Any]:
    from analyzer.analysis.duel import parse_rule_options

    return {"first": first, **parse_rule_options(opts)}


_LISTS = click.option(
    "--lists", "lists", multiple=True, type=click.Path(dir_okay=False),
    help="army list files (repeat --lists)",
)  # fmt: skip
_UNITS = click.option("--units", "units_file", type=click.Path(dir_okay=False), default=None,
                      help="unit cards (default: configs/SYSTEM/units.yaml)")  # fmt: skip
_POLICY = click.option("--policy", default="greedy", show_default=True,
                       help="AI policy of both players")  # fmt: skip
_SEED = click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
                     help="seed of the matches and resamples")  # fmt: skip
_FIRST = click.option("--first", default="rules", show_default=True,
                      help="who takes round 1's first turn (the engine's first modes)")  # fmt: skip
_OPT = click.option("--opt", "match_opts", multiple=True, metavar="KEY=VALUE",
                    help="match option")  # fmt: skip
_THREADS = click.option("--threads", type=int, default=None,
                        help="worker threads (results do not depend on it)")  # fmt: skip
_FORMAT = click.option("--format", "output_format", type=click.Choice(("table", "json")),
                       default="table", help="table (text) or json on stdout")  # fmt: skip


@click.command(epilog=_examples(
    "analyzer meta --from reports/compare-rapture",
    "analyzer meta rapture --lists configs/rapture/lists/*.yaml --matches 2000",
))  # fmt: skip
@click.argument("system", required=False, metavar="[SYSTEM]")
@click.option(
    "--from",
    "from_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="a compare folder (analyzer compare --out); instead of SYSTEM --lists",
)
@_LISTS
@_UNITS
@click.option("--matches", type=int, default=2000, show_default=True, help="matches per pair")
@_POLICY
@_SEED
@_FIRST
@_OPT
@_THREADS
@click.option(
    "--resamples",
    type=int,
    default=1000,
    show_default=True,
    help="posterior resamples of the score matrix",
)
@click.option(
    "--generations",
    type=int,
    default=200,
    show_default=True,
    help="generations of the replicator dynamics",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="folder for tables and charts (default: the --from folder, or reports/meta-SYSTEM)",
)
@_FORMAT  # fmt: skip
def meta(
    system: str | None,
    from_dir: str | None,
    lists: tuple[str, ...],
    units_file: str | None,
    matches: int,
    policy: str,
    seed: int,
    first: str,
    match_opts: tuple[str, ...],
    threads: int | None,
    resamples: int,
    generations: int,
    out_dir: str | None,
    output_format: str,
) -> None:
    """Nash meta of army lists: equilibrium (and max-entropy) mixture, support
    probabilities, transitive vs cyclic share, replicator dynamics.

    Either --from a compare folder, or SYSTEM --lists ... to play the round robin here
    (its pairings are stored in the output folder: an interrupted run resumes)."""
    from analyzer.cli import check_between
    from analyzer.meta.analysis import analyze_meta, load_compare, meta_table, write_meta

    _check_seed(seed)
    check_between(resamples, "--resamples", 10, 1_000_000)
    check_between(generations, "--generations", 1, 1_000_000)
    if from_dir is not None:
        if system is not None or lists:
            raise InputError("give either --from a compare folder or SYSTEM --lists, not both")
        counts, settings = load_compare(from_dir)
        out = Path(out_dir) if out_dir else Path(from_dir)
    else:
        if system is None or len(lists) < 2:
            raise InputError("give SYSTEM and at least two --lists, or --from a compare folder")
        from analyzer.games import match_systems

        if system not in match_systems():
            raise InputError(
                f"{system}: no match engine (systems with one: {', '.join(match_systems())})"
            )
        out = Path(out_dir) if out_dir else Path("reports") / f"meta-{system}"
        round_robin(system, lists, units=units_file, matches=matches, policy=policy,
                    seed=seed, options=_match_options(first, match_opts), threads=threads,
                    out=out)  # fmt: skip
        counts, settings = load_compare(out)
    result = analyze_meta(
        counts, resamples=resamples, seed=seed, generations=generations, settings=settings
    )
    written = write_meta(result, out)
    if output_format == "json":
        from analyzer.match.report import finite

        click.echo(json.dumps(finite(result.summary()), indent=2))
        return
    click.echo(meta_table(result))
    for label, path in written.items():
        click.echo(f"{label}: {path}")


def _load_field(
    arena: Any, cards: Any, field: tuple[str, ...], nash_dir: str | None, counter: str | None
) -> tuple[list[Any], Any, list[Path]]:
    """The field's loaded lists, their weights and files (``--field``, ``--nash`` or
    ``--counter``: exactly one)."""
    import numpy as np

    given = [bool(field), nash_dir is not None, counter is not None]
    if sum(given) != 1:
        raise InputError("give exactly one of --field LIST..., --nash META_DIR, --counter LIST")
    weights: list[float]
    if nash_dir is not None:
        path = Path(nash_dir) / "meta.json"
        if not path.is_file():
            raise InputError(f"{nash_dir}: no meta.json (run analyzer meta --out {nash_dir})")
        data = json.loads(path.read_text(encoding="utf-8"))
        files = (data.get("settings") or {}).get("files")
        if not files:
            raise InputError(f"{path}: the meta names no list files (settings.files)")
        mix = data["max_entropy_nash"]
        chosen = [(f, mix[n]) for n, f in zip(data["lists"], files) if mix[n] > 1e-6]
        paths, weights = [Path(f) for f, _ in chosen], [w for _, w in chosen]
    else:
        paths = [Path(p) for p in (field or (str(counter),))]
        weights = [1.0] * len(paths)
    for p in paths:
        if not p.is_file():
            raise InputError(f"{p}: no such army list file")
    lists = [arena.engine.load_list(p, cards) for p in paths]
    return lists, np.array(weights), paths


@click.command("build-list", epilog=_examples(
    "analyzer build-list rapture --field configs/rapture/lists/*.yaml --points 100 "
    "--template T.yaml",
    "analyzer build-list rapture --counter configs/rapture/lists/icnun_hunters.yaml "
    "--points 100 --search local",
))  # fmt: skip
@click.argument("system", metavar="SYSTEM")
@click.option(
    "--field",
    "field",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="the field's army list files (repeat --field)",
)
@click.option(
    "--nash",
    "nash_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="a meta folder: the field is its max-entropy Nash mixture",
)
@click.option(
    "--counter",
    type=click.Path(dir_okay=False),
    default=None,
    help="the best answer to this one list",
)
@click.option("--points", type=int, required=True, help="points cap of the built list")
@click.option(
    "--min-points",
    type=int,
    default=None,
    help="smallest total considered (default 80% of --points)",
)
@click.option(
    "--template",
    type=click.Path(dir_okay=False),
    default=None,
    help="list file whose fields (faction, caps...) the candidates take "
    "(default: the first field list)",
)
@click.option(
    "--max-copies",
    type=int,
    default=2,
    show_default=True,
    help="copies of one card tried (the system's rules may allow fewer)",
)
@click.option(
    "--search",
    type=click.Choice(("auto", "exhaustive", "local")),
    default="auto",
    show_default=True,
    help="auto: exhaustive up to --max-pool lists, else local",
)
@click.option(
    "--max-pool",
    type=int,
    default=20_000,
    show_default=True,
    help="--search auto: largest number of lists enumerated",
)
@click.option("--keep", type=int, default=5, show_default=True, help="lists reported")
@click.option(
    "--first-matches",
    type=int,
    default=32,
    show_default=True,
    help="matches per opponent in the first racing round",
)
@click.option(
    "--final-matches",
    type=int,
    default=512,
    show_default=True,
    help="matches per opponent of the survivors",
)
@_UNITS
@_POLICY
@_SEED
@_FIRST
@_OPT
@_THREADS
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="folder for the tables and the best list (default: reports/build-SYSTEM)",
)
@_FORMAT  # fmt: skip
def build_list_command(
    system: str,
    field: tuple[str, ...],
    nash_dir: str | None,
    counter: str | None,
    points: int,
    min_points: int | None,
    template: str | None,
    max_copies: int,
    search: str,
    max_pool: int,
    keep: int,
    first_matches: int,
    final_matches: int,
    units_file: str | None,
    policy: str,
    seed: int,
    first: str,
    match_opts: tuple[str, ...],
    threads: int | None,
    out_dir: str | None,
    output_format: str,
) -> None:
    """The legal army list with the best expected score against a field (or the best
    answer to one list): enumeration or local search, successive halving on common
    random numbers; top lists with 95% CIs and the matches spent."""
    import yaml

    from analyzer.cli import check_at_least, check_between
    from analyzer.match.cli import announce_compile
    from analyzer.meta.build import build_list

    _check_seed(seed)
    check_between(points, "--points", 1, 1_000_000)
    check_between(max_copies, "--max-copies", 1, 100)
    check_between(keep, "--keep", 1, 1000)
    check_between(first_matches, "--first-matches", 2)
    check_between(final_matches, "--final-matches", first_matches)
    check_at_least(threads, "--threads", 1)
    arena = _arena(system, policy, first, match_opts, threads)
    cards, _ = arena.engine.load_cards(units_file)
    lists, weights, paths = _load_field(arena, cards, field, nash_dir, counter)
    template_path = Path(template) if template else paths[0]
    if not template_path.is_file():
        raise InputError(f"{template_path}: no such army list file")
    announce_compile(arena.engine)
    with _match_bar(arena) as status:
        result = build_list(
            arena, cards, lists, weights, template=template_path, points=points,
            min_points=min_points, max_copies=max_copies, search=search, keep=keep,
            first=first_matches, final=final_matches, max_pool=max_pool, seed=seed,
            status=status,
        )  # fmt: skip
    out = Path(out_dir) if out_dir else Path("reports") / f"build-{system}"
    out.mkdir(parents=True, exist_ok=True)
    table = result.table()
    table.to_parquet(out / "build_lists.parquet", index=False)
    table.to_csv(out / "build_lists.csv", index=False)
    doc = yaml.safe_load(template_path.read_text(encoding="utf-8"))
    best = result.best_list({k: v for k, v in doc.items() if k not in ("name", "units")})
    (out / "best_list.yaml").write_text(yaml.safe_dump(best, allow_unicode=True, sort_keys=False),
                                        encoding="utf-8")  # fmt: skip
    summary = {
        "system": system, "points": points, "search": result.search,
        "legal_lists_seen": result.legal, "lists_checked": result.checked,
        "matches": result.matches, "local_steps": result.steps,
        "field": {str(p): float(w) for p, w in zip(paths, result.weights)},
        "seed": seed, "policy": policy, "top": table.to_dict("records"),
    }  # fmt: skip
    (out / "build.json").write_text(json.dumps(summary, indent=2, default=str), encoding="utf-8")
    from analyzer.meta.charts import interval_chart

    interval_chart(table["list"], table["score"], table["ci_low"], table["ci_high"],
                   out / "charts" / "build_top.png", f"{system}: best lists found",
                   "expected score against the field (bars: 95% CI)", 0.5)  # fmt: skip
    if output_format == "json":
        click.echo(json.dumps(summary, indent=2, default=str))
        return
    from analyzer.reporting.tables import render_rows

    click.echo(
        f"{system} list builder ({result.search} search), at most {points} points, against "
        f"{len(lists)} list(s); {result.legal:,} legal lists seen, {result.matches:,} "
        f"matches spent"
    )
    click.echo(render_rows(
        ["rank", "list", "pts", "score [95% CI]", "matches/opponent"],
        [[str(r["rank"]), r["list"], str(r["points"]),
          f"{r['score']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
          str(r["matches_per_opponent"])] for r in table.to_dict("records")],
    ))  # fmt: skip
    click.echo(f"best list: {out / 'best_list.yaml'}")


def _arena(
    system: str, policy: str, first: str, match_opts: tuple[str, ...], threads: int | None
) -> Any:
    from analyzer.games import match_systems
    from analyzer.meta.arena import Arena

    if system not in match_systems():
        raise InputError(
            f"{system}: no match engine (systems with one: {', '.join(match_systems())})"
        )
    return Arena(system, (policy, policy), _match_options(first, match_opts), threads=threads)


class _match_bar:
    """A tqdm count of matches (rate; no total: racing decides as it goes) whose
    description is the search's status; on a pipe, a status line every 30 s."""

    def __init__(self, arena: Any) -> None:
        self.arena = arena

    def __enter__(self) -> Any:
        import sys

        from tqdm import tqdm

        tty = sys.stderr.isatty()
        self.bar = tqdm(unit="match", unit_scale=True, file=sys.stderr, leave=False,
                        mininterval=0.5 if tty else 30.0)  # fmt: skip
        self.arena.progress = self.bar.update
        return lambda text: self.bar.set_description(text, refresh=False)

    def __exit__(self, *exc: Any) -> None:
        self.arena.progress = None
        self.bar.close()


@click.command("balance", epilog=_examples(
    "analyzer balance rapture --lists configs/rapture/lists/*.yaml --matches 1000",
    "analyzer balance rapture --lists configs/rapture/lists/*.yaml --fewest-changes",
    "analyzer balance heroscape --criterion duels --trials 5000 --granularity 5",
))  # fmt: skip
@click.argument("system", metavar="SYSTEM")
@click.option(
    "--criterion",
    type=click.Choice(("matches", "duels")),
    default=None,
    help="matches: every list of --lists scores 1/2 against the field; duels: every "
    "unit's value per point (analyzer value) is the same (default: matches where the "
    "system has a match engine, else duels)",
)
@click.option(
    "--lists",
    "lists",
    multiple=True,
    type=click.Path(dir_okay=False),
    help="matches: the field's army list files (repeat --lists)",
)
@click.option(
    "--field",
    "field_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="duels: opponents file, as analyzer value's (default: every other unit)",
)
@click.option("--trials", type=int, default=5000, show_default=True, help="duels: trials per duel")
@click.option(
    "--start", default="melee", show_default=True, help="duels: how a duel starts (as value's)"
)
@click.option(
    "--resamples",
    type=int,
    default=1000,
    show_default=True,
    help="duels: resamples of the duel scores behind the cost intervals",
)
@_UNITS
@click.option(
    "--matches", type=int, default=1000, show_default=True, help="matches per pair and cost table"
)
@click.option(
    "--iterations",
    type=int,
    default=20,
    show_default=True,
    help="matches: steps of the fixed point (duels iterate to convergence)",
)
@click.option(
    "--damping",
    type=float,
    default=0.5,
    show_default=True,
    help="step of the fixed point (log-cost per unit of log-odds misfit)",
)
@click.option(
    "--granularity", type=int, default=1, show_default=True, help="costs are multiples of this"
)
@click.option(
    "--fewest-changes", is_flag=True, help="change as few cards as possible, largest misfits first"
)
@click.option(
    "--max-factor",
    type=float,
    default=2.0,
    show_default=True,
    help="every cost stays within current / F .. current * F",
)
@click.option(
    "--tolerance",
    type=float,
    default=0.05,
    show_default=True,
    help="--fewest-changes: largest list misfit |score - 1/2| accepted",
)
@_POLICY
@_SEED
@_FIRST
@_OPT
@_THREADS
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="folder for the tables (default: reports/balance-SYSTEM)",
)
@_FORMAT  # fmt: skip
def balance_command(
    system: str,
    criterion: str | None,
    lists: tuple[str, ...],
    field_file: str | None,
    trials: int,
    start: str,
    resamples: int,
    units_file: str | None,
    matches: int,
    iterations: int,
    damping: float,
    granularity: int,
    fewest_changes: bool,
    tolerance: float,
    max_factor: float,
    policy: str,
    seed: int,
    first: str,
    match_opts: tuple[str, ...],
    threads: int | None,
    out_dir: str | None,
    output_format: str,
) -> None:
    """Joint point costs of every unit (damped fixed point on common random numbers):
    by matches, every list of a field scores 1/2; by duels, every unit's value per
    point is the same.  Proposed costs with 95% intervals, the spread before and after,
    and a validation run on fresh seeds."""
    from analyzer.cli import _check_distinct, check_at_least, check_between
    from analyzer.games import match_systems
    from analyzer.match.cli import announce_compile
    from analyzer.match.report import finite
    from analyzer.meta.balance import Field, balance

    _check_seed(seed)
    check_between(granularity, "--granularity", 1, 1000)
    if not 0 < tolerance < 0.5:
        raise InputError(f"--tolerance must be between 0 and 0.5 (got {tolerance})")
    criterion = criterion or ("matches" if system in match_systems() else "duels")
    out = Path(out_dir) if out_dir else Path("reports") / f"balance-{system}"
    if criterion == "duels":
        if lists:
            raise InputError("--lists is for --criterion matches (duels use --field)")
        _balance_by_duels(
            system, units_file, field_file, trials, start, first, match_opts, resamples,
            seed, damping=damping, granularity=granularity, fewest_changes=fewest_changes,
            tolerance=tolerance, max_factor=max_factor, out=out, output_format=output_format,
        )  # fmt: skip
        return
    if field_file:
        raise InputError("--field is for --criterion duels (matches use --lists)")
    if len(lists) < 2:
        raise InputError("balance --criterion matches needs at least two --lists")
    check_between(matches, "--matches", 2)
    check_between(iterations, "--iterations", 1, 1000)
    check_at_least(threads, "--threads", 1)
    _check_distinct(lists)
    arena = _arena(system, policy, first, match_opts, threads)
    cards, _ = arena.engine.load_cards(units_file)
    for p in lists:
        if not Path(p).is_file():
            raise InputError(f"{p}: no such army list file")
    armies = [arena.engine.load_list(p, cards) for p in lists]
    announce_compile(arena.engine)
    with _match_bar(arena) as status:
        result = balance(
            Field(arena, cards, armies, matches, seed), damping=damping, iterations=iterations,
            granularity=granularity, fewest_changes=fewest_changes, tolerance=tolerance,
            max_factor=max_factor, status=status,
        )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    costs, scores, history = result.cost_table(), result.list_table(), result.history_table()
    for label, table in (("costs", costs), ("lists", scores), ("history", history)):
        table.to_parquet(out / f"balance_{label}.parquet", index=False)
        table.to_csv(out / f"balance_{label}.csv", index=False)
    summary = {
        "system": system, "criterion": "matches", "matches_per_pair": matches, "seed": seed,
        "policy": policy,
        "damping": damping, "granularity": granularity, "fewest_changes": fewest_changes,
        "max_factor": max_factor,
        "matches": result.matches, "free": result.free,
        "spread": {"current": result.current.spread, "proposed": result.proposed.spread,
                   "validation_current": result.validation_current.spread,
                   "validation_proposed": result.validation.spread},
        "worst": {"current": result.current.worst, "proposed": result.proposed.worst,
                  "validation_current": result.validation_current.worst,
                  "validation_proposed": result.validation.worst},
        "costs": costs.to_dict("records"), "lists": scores.to_dict("records"),
    }  # fmt: skip
    (out / "balance.json").write_text(json.dumps(finite(summary), indent=2), encoding="utf-8")
    from analyzer.meta.charts import balance_charts

    balance_charts(out, f"{system} balance by matches", costs, result.names,
                   result.validation_current.scores, result.validation.scores,
                   "list score against the field (1/2: fair)", 0.5)  # fmt: skip
    if output_format == "json":
        click.echo(json.dumps(finite(summary), indent=2))
        return
    from analyzer.reporting.tables import render_rows

    click.echo(f"{system} joint balance of {len(result.units)} units over {len(armies)} lists "
               f"({result.matches:,} matches)")  # fmt: skip
    click.echo(render_rows(
        ["unit", "now", "proposed", "95% interval (linearised)", "misfit"],
        [[r["unit"], str(r["current_cost"]), str(r["proposed_cost"]),
          f"[{r['ci_low']:.1f}, {r['ci_high']:.1f}]", f"{r['misfit_now']:+.3f}"]
         for r in costs.to_dict("records")],
    ))  # fmt: skip
    click.echo(render_rows(
        ["list", "score now", "proposed", "validation now", "validation proposed"],
        [[r["list"], f"{r['score_current']:.3f}", f"{r['score_proposed']:.3f}",
          f"{r['validation_current']:.3f}", f"{r['validation_proposed']:.3f}"]
         for r in scores.to_dict("records")],
    ))  # fmt: skip
    click.echo(f"largest list misfit |score - 1/2|: now {result.validation_current.worst:.3f}, "
               f"proposed {result.validation.worst:.3f} (validation on fresh seeds); "
               f"spread (SD of list scores) {result.validation_current.spread:.3f} -> "
               f"{result.validation.spread:.3f}")  # fmt: skip


def _balance_by_duels(system: str, units_file: str | None, field_file: str | None, trials: int,
                      start: str, first: str, rule_opts: tuple[str, ...], resamples: int,
                      seed: int, *, out: Path, output_format: str, **settings: Any
                      ) -> None:  # fmt: skip
    """``balance --criterion duels``: value per point of every unit made equal."""
    from analyzer.analysis.duel import load_units, parse_rule_options
    from analyzer.analysis.value import load_field
    from analyzer.cli import _duel_options, check_between
    from analyzer.match.report import finite
    from analyzer.meta.charts import balance_charts
    from analyzer.meta.duel_balance import balance_duels, duel_field
    from analyzer.progress import LazyBar
    from analyzer.reporting.tables import render_rows

    check_between(trials, "--trials", 2)
    check_between(resamples, "--resamples", 0, 1_000_000)
    # the match engines' default first mode is "rules"; a duel's default is "alternate"
    options = _duel_options(start, "alternate" if first == "rules" else first, 12)
    rules = parse_rule_options(rule_opts)
    cards = load_units(system, units_file)
    field = load_field(field_file, cards, system) if field_file else None
    fields = []
    for label, s in (("duels", seed), ("validation duels", seed + 1)):
        with LazyBar("duel", desc=f"balance {system}: {label}") as bar:
            fields.append(duel_field(system, cards, field, trials, s, options, rules, bar.step))
    result = balance_duels(fields[0], fields[1], resamples=resamples, seed=seed, **settings)
    out.mkdir(parents=True, exist_ok=True)
    costs = result.cost_table()
    costs.to_parquet(out / "balance_costs.parquet", index=False)
    costs.to_csv(out / "balance_costs.csv", index=False)
    summary = {
        "system": system, "criterion": "duels", "trials": trials, "seed": seed,
        "resamples": resamples, "field": field or "every other unit", "rule_options": rules,
        **settings, **result.summary(),
        "costs": costs.to_dict("records"),
    }  # fmt: skip
    (out / "balance.json").write_text(json.dumps(finite(summary), indent=2), encoding="utf-8")
    v, w = result.validation_current, result.validation
    balance_charts(
        out,
        f"{system} balance by duels",
        costs,
        result.field.units,
        v.relative + 1,
        w.relative + 1,
        "value per point / median (1: fair)",
        1.0,
    )
    if output_format == "json":
        click.echo(json.dumps(finite(summary), indent=2))
        return
    click.echo(f"{system} joint balance of {len(result.field.units)} units by duels "
               f"(value per point, {trials:,} trials per duel)")  # fmt: skip
    click.echo(render_rows(
        ["unit", "now", "proposed", "fair cost [95% CI]", "vpp/median now", "proposed"],
        [[r["unit"], str(r["current_cost"]), str(r["proposed_cost"]),
          f"{r['fair_cost']:.1f} [{r['ci_low']:.1f}, {r['ci_high']:.1f}]"
          + (" (at --max-factor)" if r["at_bound"] else ""),
          f"{r['misfit_current']:+.1%}", f"{r['misfit_proposed']:+.1%}"]
         for r in costs.to_dict("records")],
    ))  # fmt: skip
    click.echo(
        f"value per point, validation on fresh seeds: spread (SD / mean) {v.spread:.1%} "
        f"-> {w.spread:.1%}; largest |vpp / median - 1| {v.worst:.1%} -> {w.worst:.1%}"
    )
    click.echo(f"tables and charts: {out}")


@click.command("robustness", epilog=_examples(
    "analyzer robustness rapture --lists configs/rapture/lists/*.yaml --strong lookahead",
    "analyzer robustness rapture --weak-from reports/compare-rapture --strong-from DIR",
    "analyzer robustness rapture --check value --trials 2000",
    "analyzer robustness rapture --check fair-cost --unit Steve --field FIELD.yaml",
))  # fmt: skip
@click.argument("system", metavar="SYSTEM")
@click.option(
    "--check",
    type=click.Choice(("lists", "value", "fair-cost")),
    default="lists",
    show_default=True,
    help="lists: compare/meta of --lists; value: analyzer value under two duel policies; "
    "fair-cost: analyzer fair-cost by lists (--unit, --field) under --weak and --strong",
)
@_LISTS
@_UNITS
@click.option("--unit", default=None, help="fair-cost: the unit priced")
@click.option(
    "--field",
    "field_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="fair-cost: field file naming army lists (as analyzer fair-cost's)",
)
@click.option(
    "--trials",
    type=int,
    default=None,
    help="value: duels per pairing (default 5,000); fair-cost: matches per pair (default 512)",
)
@click.option(
    "--weak-opt",
    multiple=True,
    metavar="KEY=VALUE",
    help="value: duel rule options of the weaker player (default: the system's, if any)",
)
@click.option(
    "--strong-opt",
    multiple=True,
    metavar="KEY=VALUE",
    help="value: duel rule options of the stronger player",
)
@click.option("--weak", default="greedy", show_default=True, help="the weaker policy")
@click.option("--strong", default="lookahead", show_default=True, help="the stronger policy")
@click.option(
    "--matches",
    type=int,
    default=2000,
    show_default=True,
    help="matches per pair under the weak policy",
)
@click.option(
    "--strong-matches",
    type=int,
    default=200,
    show_default=True,
    help="matches per pair under the strong policy",
)
@click.option(
    "--weak-from",
    type=click.Path(file_okay=False),
    default=None,
    help="a compare folder of the weak policy (instead of playing it)",
)
@click.option(
    "--strong-from",
    type=click.Path(file_okay=False),
    default=None,
    help="a compare folder of the strong policy (instead of playing it)",
)
@click.option(
    "--ladder-matches",
    type=int,
    default=50,
    show_default=True,
    help="skill ladder: matches per ordered pair and policy (0: no ladder)",
)
@click.option(
    "--resamples",
    type=int,
    default=1000,
    show_default=True,
    help="posterior resamples of each score matrix",
)
@_SEED
@_FIRST
@_OPT
@_THREADS
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="folder (default: reports/robustness-SYSTEM)",
)
@_FORMAT  # fmt: skip
def robustness_command(
    system: str,
    check: str,
    lists: tuple[str, ...],
    units_file: str | None,
    unit: str | None,
    field_file: str | None,
    trials: int | None,
    weak_opt: tuple[str, ...],
    strong_opt: tuple[str, ...],
    weak: str,
    strong: str,
    matches: int,
    strong_matches: int,
    weak_from: str | None,
    strong_from: str | None,
    ladder_matches: int,
    resamples: int,
    seed: int,
    first: str,
    match_opts: tuple[str, ...],
    threads: int | None,
    out_dir: str | None,
    output_format: str,
) -> None:
    """Does the list ranking survive a stronger AI?  Kendall tau (95% interval) between
    the rankings under two policies, verdicts that flip, and the skill ladder
    (random -> weak -> strong, skill score 1 - w_random / w_strong)."""
    from analyzer.cli import check_between
    from analyzer.match.report import finite
    from analyzer.meta.analysis import analyze_meta, load_compare, write_meta
    from analyzer.meta.robustness import compare_policies, skill_ladder

    _check_seed(seed)
    check_between(resamples, "--resamples", 10, 1_000_000)
    check_between(ladder_matches, "--ladder-matches", 0)
    out = Path(out_dir) if out_dir else Path("reports") / f"robustness-{system}"
    if check == "value":
        _value_robustness(system, units_file, trials or 5000, weak_opt, strong_opt, resamples,
                          seed, out, output_format)  # fmt: skip
        return
    if check == "fair-cost":
        _fair_cost_robustness(system, units_file, unit, field_file, trials or 512,
                              (weak, strong), first, match_opts, seed, out,
                              output_format)  # fmt: skip
        return
    arena = _arena(system, weak, first, match_opts, threads)
    from analyzer.match.options import check_policy

    check_policy(arena.engine, strong)
    options = _match_options(first, match_opts)
    metas = []
    for policy, count, given in ((weak, matches, weak_from), (strong, strong_matches,
                                                              strong_from)):  # fmt: skip
        folder = Path(given) if given else out / f"compare-{policy}"
        if given is None:
            if len(lists) < 2:
                raise InputError("give at least two --lists (or --weak-from and --strong-from)")
            round_robin(system, lists, units=units_file, matches=count, policy=policy,
                        seed=seed, options=options, threads=threads, out=folder)  # fmt: skip
        counts, settings = load_compare(folder)
        if settings.get("policy") not in (None, policy):
            raise InputError(f"{folder}: a round robin of policy {settings['policy']}, "
                             f"not {policy}")  # fmt: skip
        meta = analyze_meta(counts, resamples=resamples, seed=seed, settings=settings)
        write_meta(meta, out / f"meta-{policy}")
        metas.append((policy, counts, meta, settings))
    (pw, cw, mw, sw), (ps, cs, ms, _) = metas
    if cw.names != cs.names:
        raise InputError("the two round robins hold different lists")
    result = compare_policies((pw, cw, mw), (ps, cs, ms), resamples, seed)
    out.mkdir(parents=True, exist_ok=True)
    table = result.table()
    table.to_parquet(out / "robustness_lists.parquet", index=False)
    table.to_csv(out / "robustness_lists.csv", index=False)
    summary: dict[str, Any] = {
        "system": system, "policies": [weak, strong], "kendall_tau": result.tau,
        "kendall_tau_ci95": list(result.tau_ci), "flips": result.flips,
        "lists": table.to_dict("records"),
    }  # fmt: skip
    if ladder_matches:
        files = sw.get("files") or list(lists)
        cards, _ = arena.engine.load_cards(units_file)
        armies = [arena.engine.load_list(f, cards) for f in files]
        with _match_bar(arena) as status:
            status("skill ladder")
            ladder = skill_ladder(system, cards, armies, ["random", weak, strong], weak,
                                  ladder_matches, seed, options, threads,
                                  progress=arena.progress)  # fmt: skip
        lt = ladder.table()
        lt.to_csv(out / "robustness_ladder.csv", index=False)
        lt.to_parquet(out / "robustness_ladder.parquet", index=False)
        skill, skill_se = ladder.skill()
        summary["ladder"] = lt.to_dict("records")
        summary["skill_score"] = {"value": skill, "se": skill_se}
    (out / "robustness.json").write_text(json.dumps(finite(summary), indent=2),
                                         encoding="utf-8")  # fmt: skip
    from analyzer.meta.charts import interval_chart, ratings_chart

    ratings_chart(table["list"], table[f"rating_{weak}"], table[f"rating_{strong}"],
                  out / "charts" / "robustness_ratings.png",
                  f"{system}: ratings under two policies", (weak, strong))  # fmt: skip
    if ladder_matches:
        interval_chart(lt["policy"], lt[f"score_vs_{weak}"], lt["ci_low"], lt["ci_high"],
                       out / "charts" / "robustness_ladder.png", f"{system}: skill ladder",
                       f"score as side A against {weak} (bars: 95% CI)", 0.5)  # fmt: skip
    if output_format == "json":
        click.echo(json.dumps(finite(summary), indent=2))
        return
    from analyzer.reporting.tables import render_rows

    lo, hi = result.tau_ci
    click.echo(f"{system}: rankings under {weak} and {strong}: Kendall tau {result.tau:+.2f} "
               f"(95% interval {lo:+.2f} to {hi:+.2f}); verdicts that flip: "
               f"{', '.join(result.flips) or 'none'}")  # fmt: skip
    cells = [[f"{v:+.3f}" if isinstance(v, float) else str(v) for v in row]
             for row in table.itertuples(index=False)]  # fmt: skip
    click.echo(render_rows(list(table.columns), cells))
    if ladder_matches:
        from analyzer.stats import Z95

        steps = [f"{p} {s:.3f} ± {Z95 * e:.3f}"
                 for p, s, e in zip(ladder.policies, ladder.scores, ladder.se)]  # fmt: skip
        click.echo(f"skill ladder (side A's policy against {weak}, ± 95% CI): "
                   + "; ".join(steps))  # fmt: skip
        click.echo(f"skill score 1 - w_random / w_{strong} = {skill:.3f} ± {Z95 * skill_se:.3f}")


def _write_json(path: Path, summary: dict[str, Any], output_format: str) -> None:
    from analyzer.match.report import finite

    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(finite(summary), indent=2), encoding="utf-8")
    if output_format == "json":
        click.echo(json.dumps(finite(summary), indent=2))


def _value_robustness(system: str, units_file: str | None, trials: int,
                      weak_opt: tuple[str, ...], strong_opt: tuple[str, ...], resamples: int,
                      seed: int, out: Path, output_format: str) -> None:  # fmt: skip
    """``robustness --check value``: value per point under two duel policies."""
    from analyzer.analysis.duel import load_units, parse_rule_options
    from analyzer.analysis.value import value_table
    from analyzer.cli import check_between
    from analyzer.duels import DuelOptions
    from analyzer.meta.robustness import DUEL_POLICIES, policy_label, value_robustness
    from analyzer.progress import LazyBar
    from analyzer.reporting.tables import render_rows

    check_between(trials, "--trials", 2)
    given = (parse_rule_options(weak_opt), parse_rule_options(strong_opt))
    policies = given if any(given) else DUEL_POLICIES.get(system)
    path = out / "robustness_value.json"
    if policies is None:
        text = (f"{system}: analyzer value has no policy dependence: its duels follow the "
                "fixed decision rules of the duel model (no AI policy, no decision option); "
                "not rerun")  # fmt: skip
        _write_json(path, {"system": system, "check": "value", "policy_dependence": False,
                           "message": text}, output_format)  # fmt: skip
        if output_format != "json":
            click.echo(text)
        return
    cards = load_units(system, units_file)
    tables = []
    for rules in policies:
        with LazyBar("duel", desc=f"value {system} ({policy_label(rules)})") as bar:
            tables.append(value_table(system, cards, None, trials, seed, DuelOptions(),
                                      bar.step, rules))  # fmt: skip
    labels = (policy_label(policies[0]), policy_label(policies[1]))
    result = value_robustness((tables[0], tables[1]), cards, labels, resamples, seed)
    table = result.table().rename(columns={"list": "unit"})
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "robustness_value.csv", index=False)
    summary = {"system": system, "check": "value", "policy_dependence": True,
               "policies": list(labels), "trials": trials, "seed": seed,
               "kendall_tau": result.tau, "kendall_tau_ci95": list(result.tau_ci),
               "flips": result.flips, "units": table.to_dict("records")}  # fmt: skip
    _write_json(path, summary, output_format)
    if output_format == "json":
        return
    lo, hi = result.tau_ci
    click.echo(f"{system} value per point under {labels[0]} and {labels[1]}: Kendall tau "
               f"{result.tau:+.2f} (95% interval {lo:+.2f} to {hi:+.2f}); cost verdicts that "
               f"flip: {', '.join(result.flips) or 'none'}")  # fmt: skip
    cells = [[f"{v:.4f}" if isinstance(v, float) else str(v) for v in row]
             for row in table.itertuples(index=False)]  # fmt: skip
    click.echo(render_rows([c.replace("rating_", "vpp ") for c in table.columns], cells))


def _fair_cost_robustness(system: str, units_file: str | None, unit: str | None,
                          field_file: str | None, trials: int, policies: tuple[str, str],
                          first: str, match_opts: tuple[str, ...], seed: int, out: Path,
                          output_format: str) -> None:  # fmt: skip
    """``robustness --check fair-cost``: ``analyzer fair-cost`` by lists under two policies."""
    from analyzer.analysis.duel import parse_rule_options
    from analyzer.analysis.value import field_lists
    from analyzer.cli import check_between
    from analyzer.experiments.fair_cost import cost_verdict, fair_cost

    check_between(trials, "--trials", 2)
    if unit is None or field_file is None:
        raise InputError("--check fair-cost needs --unit and --field (a field file of lists)")
    if not field_lists(field_file, system):
        raise InputError(f"{field_file}: names no army lists (--check fair-cost is by lists)")
    options = {**({"first": first} if first != "rules" else {}), **parse_rule_options(match_opts)}
    rows = []
    for policy in policies:
        r = fair_cost(system, unit, field_file, units_file, trials=trials, seed=seed,
                      options=options, policy=policy, out_dir=out / f"fair-cost-{policy}",
                      workers=0)  # fmt: skip
        rows.append({"policy": policy, "current_cost": r.current_cost,
                     "fair_cost": r.fair_cost, "ci_low": r.ci_low, "ci_high": r.ci_high,
                     "verdict": cost_verdict(r.current_cost, r.ci_low, r.ci_high)})  # fmt: skip
    flips = rows[0]["verdict"] != rows[1]["verdict"]
    summary = {"system": system, "check": "fair-cost", "unit": unit, "field": field_file,
               "trials": trials, "seed": seed, "policies": list(policies), "rows": rows,
               "verdict_flips": flips}  # fmt: skip
    _write_json(out / "robustness_fair_cost.json", summary, output_format)
    if output_format == "json":
        return
    for row in rows:
        click.echo(f"{unit} under {row['policy']}: fair cost {row['fair_cost']:.1f} (95% CI "
                   f"{row['ci_low']:.1f} to {row['ci_high']:.1f}), costs "
                   f"{row['current_cost']}: {row['verdict']}")  # fmt: skip
    click.echo(f"the verdict {'flips' if flips else 'survives'} between {policies[0]} and "
               f"{policies[1]}")  # fmt: skip
