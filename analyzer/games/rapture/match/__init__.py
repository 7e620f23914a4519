"""Rapture AI-vs-AI matches: the public Python API.

>>> from analyzer.games.rapture.match import play_matches
>>> result = play_matches("configs/rapture/lists/angels_vanguard.yaml",
...                       "configs/rapture/lists/icnun_hunters.yaml", matches=2000)
>>> result.a_wins.rate, result.a_wins.ci95

The game follows ``rapture.txt`` from "2. Game Setup" to "End of the Game" (see the module
docstrings of ``state_nb``, ``engine_nb`` and ``driver_nb`` for the rules and their
readings).  Matches are played in blocks of ``match_nb.MATCH_BLOCK`` on worker threads
(small runs in pieces of blocks, :func:`match_pieces`); match ``k`` is seeded from
``analyzer.rng.block_states(seed, ..., task=(MATCH_TASK,))`` and its index, so results are
identical for any number of threads, and ``trace_match`` replays any single match exactly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numba
import numpy as np

from analyzer import provenance
from analyzer.errors import InputError
from analyzer.games.rapture import units as rapture_units
from analyzer.games.rapture.match import compile as cp
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match import match_nb as M
from analyzer.games.rapture.match.compile import POLICIES, MatchOptions, match_options
from analyzer.games.rapture.match.report import MatchResult, summarize
from analyzer.games.rapture.match.sweep_model import match_model
from analyzer.rng import block_states

__all__ = [
    "POLICIES",
    "MatchOptions",
    "MatchResult",
    "Setup",
    "match_model",
    "match_options",
    "play_matches",
    "prepare",
    "prepare_loaded",
    "trace_match",
]

#: Task key of match simulations in ``block_states`` (other tasks use other keys).
MATCH_TASK = 4
MAX_MATCHES = 100_000_000
TRACE_ROWS = 200_000

NOTES = (
    "all models stand on one level: no high ground, ladders, doors, jumps or roofs",
    "terrain pieces are axis-aligned rectangles; cover and line of sight per the stated "
    "sight-corridor rule (see geometry_nb)",
)


@dataclass
class Setup:
    """Everything a match needs, compiled: static arrays, names, options."""

    S: tuple[np.ndarray, ...]
    comp: cp.Compiled
    mission_names: list[str]
    scenario_name: str
    options: MatchOptions
    data_files: list[Path]


def prepare(
    list_a: str | Path,
    list_b: str | Path,
    *,
    units: str | Path | None = None,
    scenario: str | None = None,
    options: MatchOptions | None = None,
    missions_file: str | Path | None = None,
    on_hit_markers: Mapping[str, tuple[str, int]] | None = None,
    load_dice: Mapping[str, int] | None = None,
) -> Setup:
    """Load and check the cards, lists, scenario and missions; compile them into arrays."""
    units_path = Path(units) if units is not None else rapture_units.UNITS_FILE
    cards = rapture_units.load_units(units_path)
    lists = (rapture_units.load_list(list_a, cards), rapture_units.load_list(list_b, cards))
    setup = prepare_loaded(
        cards,
        lists,
        scenario=scenario,
        options=options,
        missions_file=missions_file,
        on_hit_markers=on_hit_markers,
        load_dice=load_dice,
    )
    setup.data_files[:0] = [units_path, Path(list_a), Path(list_b)]
    return setup


def prepare_loaded(
    cards: Mapping[str, rapture_units.Card],
    lists: tuple[rapture_units.ArmyList, rapture_units.ArmyList],
    *,
    scenario: str | None = None,
    options: MatchOptions | None = None,
    missions_file: str | Path | None = None,
    on_hit_markers: Mapping[str, tuple[str, int]] | None = None,
    load_dice: Mapping[str, int] | None = None,
) -> Setup:
    """:func:`prepare` for cards and lists already loaded (sweeps vary them in memory)."""
    options = options or MatchOptions()
    comp = cp.compile_matchup(dict(cards), lists, on_hit_markers, load_dice)
    mfile = Path(missions_file) if missions_file is not None else cp.MISSIONS_FILE
    mdata, mis = cp.load_missions(mfile)
    hands = cp.mission_hands(mdata, options.hands)
    files = [mfile]
    if scenario is None:
        ter = np.zeros((L.MAX_TERRAIN, L.T_COLS))
        n_ter = 0
        scen_name = "generated per match"
    else:
        path = scenario_path(scenario)
        scen, ter = cp.load_scenario(path)
        n_ter = len(scen.pieces)
        scen_name = scen.name
        files.append(path)
    opt = cp.options_array(options, hands, n_ter)
    S = cp.static_tuple(comp, mis, opt, ter)
    return Setup(S, comp, [m.name for m in mdata.missions], scen_name, options, files)


def scenario_path(name_or_path: str) -> Path:
    """The scenario file of ``--scenario``: a path, or a bundled scenario's name.

    A value that looks like a path (ends in ``.yaml``/``.yml`` or holds a slash) must name
    an existing file: the error then says so instead of listing the bundled names.
    """
    path = Path(name_or_path).expanduser()
    looks_like_path = path.suffix in (".yaml", ".yml") or any(
        sep in name_or_path for sep in {"/", os.sep}
    )
    if looks_like_path:
        if path.is_file():
            return path
        what = "is a folder, not a scenario file" if path.is_dir() else "does not exist"
        raise InputError(f"scenario file {name_or_path} {what}")
    return cp.resolve_scenario(name_or_path)


def _check_counts(matches: int, seed: int) -> None:
    if not 1 <= matches <= MAX_MATCHES:
        raise InputError(f"--matches must be between 1 and {MAX_MATCHES:,} (got {matches})")
    if seed < 0:
        raise InputError(f"--seed must be >= 0 (got {seed})")


def default_threads() -> int:
    """Worker threads: ``NUMBA_NUM_THREADS`` (numba's setting, by default the CPU count)."""
    return max(int(getattr(numba.config, "NUMBA_NUM_THREADS", os.cpu_count() or 1)), 1)


def run_records(
    setup: Setup,
    matches: int,
    seed: int,
    threads: int | None = None,
    check: bool = False,
    progress: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``matches`` matches; per-match records and per-unit records."""
    from analyzer.games.rapture.match import kernels

    _check_counts(matches, seed)
    table = kernels.function_table()
    runner = kernels.block_runner()
    n_blocks = (matches + M.MATCH_BLOCK - 1) // M.MATCH_BLOCK
    states = block_states(seed, n_blocks, (MATCH_TASK,))
    rec = np.zeros((matches, M.R_COLS), dtype=np.int64)
    urec = np.zeros((matches, setup.comp.US.shape[0], M.U_COLS), dtype=np.int64)
    trace = np.zeros((1, L.EV_COLS), dtype=np.int64)
    flag = int(check or setup.options.check_invariants)
    workers = threads if threads is not None else default_threads()
    pieces = match_pieces(matches, workers)

    def play(piece: tuple[int, int, int]) -> None:
        b, first, count = piece
        runner(setup.S, table, states[b], first, count, rec, urec, flag, trace, 0)
        if progress is not None:
            progress(count)

    if workers <= 1 or len(pieces) == 1:
        for piece in pieces:
            play(piece)
    else:
        with ThreadPoolExecutor(max_workers=min(workers, len(pieces))) as pool:
            list(pool.map(play, pieces))
    return rec, urec


def match_pieces(matches: int, workers: int) -> list[tuple[int, int, int]]:
    """The runs of matches handed to the worker threads: (block, first match, count).

    Whole blocks of ``match_nb.MATCH_BLOCK``, unless there are fewer than four blocks per
    worker: then the blocks are cut into pieces so that every worker has work (a few
    hundred lookahead matches take minutes).  A match's random stream depends only on its
    block and its index, so the cut never changes a result.
    """
    n_blocks = (matches + M.MATCH_BLOCK - 1) // M.MATCH_BLOCK
    size = M.MATCH_BLOCK
    if workers > 1 and n_blocks < 4 * workers:
        size = max(1, -(-matches // (4 * workers)))
    pieces = []
    for b in range(n_blocks):
        end = min((b + 1) * M.MATCH_BLOCK, matches)
        for first in range(b * M.MATCH_BLOCK, end, size):
            pieces.append((b, first, min(size, end - first)))
    return pieces


def play_matches(
    list_a: str | Path,
    list_b: str | Path,
    *,
    units: str | Path | None = None,
    matches: int = 1000,
    seed: int = 2026,
    scenario: str | None = None,
    options: MatchOptions | None = None,
    threads: int | None = None,
    missions_file: str | Path | None = None,
    on_hit_markers: Mapping[str, tuple[str, int]] | None = None,
    load_dice: Mapping[str, int] | None = None,
) -> MatchResult:
    """Play ``matches`` AI-vs-AI matches between two battlegroups and aggregate them."""
    setup = prepare(
        list_a,
        list_b,
        units=units,
        scenario=scenario,
        options=options,
        missions_file=missions_file,
        on_hit_markers=on_hit_markers,
        load_dice=load_dice,
    )
    rec, urec = run_records(setup, matches, seed, threads)
    return result_of(setup, rec, urec, seed)


def result_of(setup: Setup, rec: np.ndarray, urec: np.ndarray, seed: int) -> MatchResult:
    here = Path(__file__).resolve().parent
    files = [*setup.data_files, *sorted(here.glob("*.py"))]
    prov = {**provenance.versions(), "data_hash": provenance.data_hash(*files, system="rapture")}
    notes = [*NOTES, *setup.comp.ignored]
    opts = asdict(setup.options)
    opts.pop("check_invariants", None)
    return summarize(
        rec,
        urec,
        setup.comp,
        setup.mission_names,
        policy_a=setup.options.policy_a,
        policy_b=setup.options.policy_b,
        seed=seed,
        scenario=setup.scenario_name,
        options=opts,
        provenance=prov,
        notes=notes,
    )


def trace_events(setup: Setup, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The events of match ``k`` (as played within any run with this seed) and its record."""
    from analyzer.games.rapture.match import kernels

    if k < 0:
        raise InputError(f"--trace must be >= 0 (got {k})")
    _check_counts(k + 1, seed)
    table = kernels.function_table()
    runner = kernels.block_runner()
    b = k // M.MATCH_BLOCK
    state = block_states(seed, 1, (MATCH_TASK,), first_block=b)[0]
    events = np.zeros((TRACE_ROWS, L.EV_COLS), dtype=np.int64)
    rec = np.zeros((1, M.R_COLS), dtype=np.int64)
    urec = np.zeros((1, setup.comp.US.shape[0], M.U_COLS), dtype=np.int64)
    n = runner(setup.S, table, state, k, 1, rec, urec, 1, events, 1)
    return events[:n], rec[0]


def trace_match(setup: Setup, k: int, seed: int) -> list[str]:
    """A readable play-by-play of match ``k``."""
    from analyzer.games.rapture.match import trace

    events, _ = trace_events(setup, k, seed)
    comp = setup.comp
    namer = trace.Namer(
        [u.name for u in comp.units],
        comp.model_names,
        [u.side for u in comp.units],
        [int(u) for u in comp.SI[:, L.SI_UNIT]],
        setup.mission_names,
    )
    return trace.render(events, namer)
