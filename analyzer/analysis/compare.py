"""``analyzer compare``: a round robin of army lists, win-rate matrix and ratings.

Every pair of lists plays ``matches`` AI-vs-AI matches with the system's match engine
(first activation as the engine's ``first`` option says; Rapture's ``rules`` default lets
combat value and the under-100-points choice decide, ``alternate`` removes the edge).
The report holds the score of each row list against each column list (wins + draws/2)
with its 95% Wilson interval, Bradley-Terry ratings with standard errors (also on the Elo
scale, 400 / ln 10 per unit of log-odds) and the first-activation advantage over all
decided matches.

Nothing is lost: with an output folder every finished pairing is stored at once as
``pairs/<key>.json`` (temp file, then ``os.replace``), where the key hashes everything that
determines it (list and card files, engine code, matches, seed, policy, options); a rerun
after an interruption plays only the pairings that are missing.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import InputError
from analyzer.outputs import atomic_write_json, lock_folder, writable_dir, write_table
from analyzer.stats import Z95, bradley_terry, wilson_interval

ELO_PER_LOGIT = 400 / math.log(10)


@dataclass(frozen=True)
class PairResult:
    """The matches of list ``i`` (side A) against list ``j`` (side B)."""

    i: int
    j: int
    matches: int
    a_wins: int
    b_wins: int
    draws: int
    first_wins: int
    first_losses: int
    margin_mean: float
    margin_se: float


@dataclass
class Comparison:
    names: list[str]
    files: list[str]
    pairs: list[PairResult]
    wins: np.ndarray  # wins[i, j]: matches list i won against list j
    draws: np.ndarray
    strength: np.ndarray
    strength_se: np.ndarray
    matches: int
    seed: int
    policy: str
    options: dict[str, Any]

    @property
    def first_player_wins(self) -> int:
        return sum(p.first_wins for p in self.pairs)

    @property
    def decided(self) -> int:
        """Matches that were not drawn (the first player either won or lost)."""
        return sum(p.first_wins + p.first_losses for p in self.pairs)

    def score(self, i: int, j: int) -> tuple[float, float, float]:
        """Score of list i against j (wins + draws/2) and its 95% Wilson interval."""
        n = self.wins[i, j] + self.wins[j, i] + self.draws[i, j]
        points = self.wins[i, j] + 0.5 * self.draws[i, j]
        lo, hi = wilson_interval(float(points), int(n))
        return points / n, lo, hi

    def first_activation(self) -> dict[str, Any]:
        lo, hi = wilson_interval(float(self.first_player_wins), self.decided)
        rate = self.first_player_wins / self.decided if self.decided else None
        return {"wins": self.first_player_wins, "decided": self.decided, "rate": rate,
                "ci95": [lo, hi]}  # fmt: skip

    def pair_table(self) -> pd.DataFrame:
        """One row per ordered pair (row list against column list): the tidy matrix."""
        rows = []
        for p in self.pairs:
            for me, other, won, lost in ((p.i, p.j, p.a_wins, p.b_wins),
                                         (p.j, p.i, p.b_wins, p.a_wins)):  # fmt: skip
                rate, lo, hi = self.score(me, other)
                sign = 1 if me == p.i else -1
                rows.append({
                    "list": self.names[me], "opponent": self.names[other], "matches": p.matches,
                    "wins": won, "draws": p.draws, "losses": lost, "score": rate,
                    "ci_low": lo, "ci_high": hi, "vp_margin_mean": sign * p.margin_mean,
                    "vp_margin_se": p.margin_se, "policy": self.policy, "seed": self.seed,
                })  # fmt: skip
        return pd.DataFrame(rows)

    def rating_table(self) -> pd.DataFrame:
        """Bradley-Terry strengths (log-odds), their SEs and the Elo equivalents."""
        table = pd.DataFrame(
            {
                "list": self.names,
                "file": self.files,
                "strength": self.strength,
                "se": self.strength_se,
                "elo": self.strength * ELO_PER_LOGIT,
                "elo_ci95": Z95 * self.strength_se * ELO_PER_LOGIT,
            }
        )
        return table.sort_values("strength", ascending=False, ignore_index=True)

    def to_dict(self) -> dict[str, Any]:
        k = len(self.names)
        return {
            "lists": self.names,
            "files": self.files,
            "matches_per_pair": self.matches,
            "seed": self.seed,
            "policy": self.policy,
            "options": self.options,
            "win_rate": [
                [None if i == j else dict(zip(("rate", "ci_low", "ci_high"), self.score(i, j)))
                 for j in range(k)]
                for i in range(k)
            ],
            "ratings": [
                {"list": name, "strength": float(s), "se": float(se),
                 "elo": float(s * ELO_PER_LOGIT), "elo_ci95": float(Z95 * se * ELO_PER_LOGIT)}
                for name, s, se in zip(self.names, self.strength, self.strength_se)
            ],
            "first_activation": self.first_activation(),
            "pairs": [asdict(p) for p in self.pairs],
        }  # fmt: skip


def _pair_seed(seed: int, pair: int) -> int:
    """An independent seed for each pairing, derived from the run's seed."""
    return int(np.random.SeedSequence(seed, spawn_key=(pair,)).generate_state(1)[0])


def _pair_key(files: list[Path], settings: dict[str, Any]) -> str:
    """Hash of everything that determines a pairing's result (files by content)."""
    from analyzer.experiments.tasks import digest

    contents = [digest(f.read_bytes().decode("utf-8", "replace")) for f in files]
    return digest({"files": contents, **settings})


def _pair_checksum(result: dict[str, Any]) -> str:
    from analyzer.experiments.tasks import digest

    return digest(result, length=64)


def _store(path: Path, data: dict[str, Any]) -> None:
    """A finished pairing, with the checksum of its numbers, written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, {"result": data, "sha256": _pair_checksum(data)}, indent=None)


def _stored_pair(path: Path, i: int, j: int) -> PairResult | None:
    """The pairing kept in ``path``, or None (with a warning) if the file is truncated,
    edited (checksum differs), of an older format or not a pairing: it is recomputed."""
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        data = stored["result"]
        if stored["sha256"] != _pair_checksum(data):
            raise ValueError("checksum differs")
        return PairResult(**{**data, "i": i, "j": j})
    except (OSError, ValueError, KeyError, TypeError) as err:
        if isinstance(err, json.JSONDecodeError):
            why = "not valid JSON (truncated?)"
        elif isinstance(err, KeyError | TypeError):
            why = "not a pairing file of this version"
        else:
            why = (err.strerror or str(err)) if isinstance(err, OSError) else str(err)
        print(f"warning: {path}: {why}; recomputing this pairing", file=sys.stderr)
        return None


def _play_pair(system: str, i: int, j: int, run: dict[str, Any]) -> PairResult:
    from analyzer.match import play_matches

    result = play_matches(
        system, run["lists"][i], run["lists"][j], units=run["units"], matches=run["matches"],
        seed=_pair_seed(run["seed"], run["pair"]), policies=run["policies"],
        scenario=run["scenario"], options=run["options"], threads=run["threads"],
        progress=run.get("progress"),
    )  # fmt: skip
    return PairResult(
        i=i, j=j, matches=result.matches, a_wins=result.a_wins.count,
        b_wins=result.b_wins.count, draws=result.draws.count,
        first_wins=result.first_player_wins.count, first_losses=result.first_player_loses.count,
        margin_mean=float(result.margin_mean), margin_se=float(result.margin_se),
    )  # fmt: skip


def compare_lists(
    system: str,
    lists: list[str | Path],
    matches: int,
    seed: int,
    units: str | Path | None = None,
    policy: str = "greedy",
    *,
    options: dict[str, Any] | None = None,
    scenario: str | None = None,
    threads: int | None = None,
    out_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    pairing: Callable[[str], None] | None = None,
) -> Comparison:
    """Round robin of ``lists`` (at least two) under the system's match engine.

    ``options`` are the engine's named options (Rapture: ``first``, ``max_rounds``, ...);
    with ``out_dir`` finished pairings are stored and reused (see the module docstring).
    ``progress(n)`` is called as ``n`` more matches are played or found stored, and
    ``pairing(label)`` as each pairing starts (a progress bar's count and description).
    """
    if len(lists) < 2:
        raise InputError("compare needs at least two army lists")
    if matches < 1:
        raise InputError(f"--matches must be >= 1 (got {matches})")
    from analyzer.games import match_engine
    from analyzer.match.options import check_match_options, check_policy

    engine = match_engine(system)
    files = [Path(p) for p in lists]
    for f in files:
        if not f.is_file():
            raise InputError(f"{f}: no such army list file")
    chosen = dict(options or {})
    if "scenario" in chosen:
        raise InputError("give the scenario with --scenario, not --opt scenario=...")
    check_policy(engine, policy)
    check_match_options(engine, chosen)
    cards, units_path = engine.load_cards(units)
    names = _unique_names([engine.load_list(f, cards).name for f in files], files)
    run = {"lists": files, "units": units_path, "matches": matches, "seed": seed,
           "scenario": scenario, "options": chosen, "threads": threads,
           "policies": (policy, policy)}  # fmt: skip
    from analyzer.experiments.spec import code_hash

    settings = {"code": code_hash(system), "matches": matches, "seed": seed, "policy": policy,
                "scenario": scenario, "options": chosen}  # fmt: skip
    lock = lock_folder(writable_dir(out_dir)) if out_dir is not None else None
    try:
        return _round_robin(system, files, names, units_path, run, settings, out_dir,
                            progress, pairing, chosen, scenario)  # fmt: skip
    finally:
        if lock is not None:
            lock.close()


def _round_robin(
    system: str,
    files: list[Path],
    names: list[str],
    units_path: Path,
    run: dict[str, Any],
    settings: dict[str, Any],
    out_dir: str | Path | None,
    progress: Callable[[int], None] | None,
    pairing: Callable[[str], None] | None,
    chosen: dict[str, Any],
    scenario: str | None,
) -> Comparison:
    """Every pairing of ``files`` once, stored pairs reused (see :func:`compare_lists`)."""
    matches, seed, policy = run["matches"], run["seed"], settings["policy"]
    store = Path(out_dir) / "pairs" if out_dir is not None else None
    k = len(files)
    wins = np.zeros((k, k))
    draws = np.zeros((k, k))
    pairs: list[PairResult] = []
    pair = 0
    for i in range(k):
        for j in range(i + 1, k):
            key = _pair_key([units_path, files[i], files[j]], {**settings, "pair": pair})
            path = store / f"{key}.json" if store is not None else None
            kept = _stored_pair(path, i, j) if path is not None and path.exists() else None
            if kept is not None:
                result = kept
                if progress:
                    progress(result.matches)
            else:
                if pairing:
                    pairing(f"{names[i]} vs {names[j]}")
                result = _play_pair(system, i, j, {**run, "pair": pair, "progress": progress})
                if path is not None:
                    _store(path, asdict(result))
            wins[i, j], wins[j, i] = result.a_wins, result.b_wins
            draws[i, j] = draws[j, i] = result.draws
            pairs.append(result)
            pair += 1
    strength, se = bradley_terry(wins, draws)
    return Comparison(
        names, [str(f) for f in files], pairs, wins, draws, strength, se, matches, seed,
        policy, {**chosen, **({"scenario": scenario} if scenario else {})},
    )  # fmt: skip


def _unique_names(names: list[str], files: list[Path]) -> list[str]:
    """List names, with the file name added where two lists share a name."""
    return [
        f"{n} ({f.stem})" if names.count(n) > 1 else n for n, f in zip(names, files, strict=True)
    ]


def comparison_table(result: Comparison) -> str:
    """Readable win-rate matrix, ratings and first-activation advantage."""
    from analyzer.reporting.tables import render_rows

    k = len(result.names)
    rows = []
    for i in range(k):
        cells = [result.names[i]]
        for j in range(k):
            if i == j:
                cells.append("-")
            else:
                rate, lo, hi = result.score(i, j)
                cells.append(f"{rate:.3f} [{lo:.3f}, {hi:.3f}]")
        rows.append(cells)
    matrix = render_rows(["row vs column (score)", *result.names], rows)
    ratings = render_rows(
        ["list", "Bradley-Terry", "Elo", "±95%"],
        [[str(r["list"]), f"{r['strength']:+.3f} ± {Z95 * r['se']:.3f}", f"{r['elo']:+.0f}",
          f"{r['elo_ci95']:.0f}"] for r in result.rating_table().to_dict("records")],
    )  # fmt: skip
    first = result.first_activation()
    lo, hi = first["ci95"]
    rate = first["rate"] if first["rate"] is not None else float("nan")
    return (
        f"round robin: {result.matches:,} matches per pair, policy {result.policy}, "
        f"seed {result.seed}\n{matrix}\n\n{ratings}\n\nfirst activation won "
        f"{rate:.3f} [{lo:.3f}, {hi:.3f}] of {first['decided']:,} decided matches"
    )


def write_comparison(result: Comparison, out: str | Path) -> dict[str, Path]:
    """Tables (Parquet, CSV, JSON) and charts of a comparison in ``out``."""
    from analyzer.reporting.charts import rating_chart, score_matrix_chart

    out = Path(out)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for label, table in (("pairs", result.pair_table()), ("ratings", result.rating_table())):
        write_table(table, out / f"compare_{label}.parquet")
        write_table(table, out / f"compare_{label}.csv")
        written[f"{label}_csv"] = out / f"compare_{label}.csv"
    atomic_write_json(out / "compare.json", result.to_dict())
    written["json"] = out / "compare.json"
    title = f"{result.policy} vs {result.policy}, {result.matches:,} matches per pair"
    written["matrix"] = score_matrix_chart(
        result.pair_table(), out / "charts" / "compare_matrix.png", f"Score ({title})"
    )
    written["ratings"] = rating_chart(
        result.rating_table(), out / "charts" / "compare_ratings.png", f"Ratings ({title})"
    )
    return written
