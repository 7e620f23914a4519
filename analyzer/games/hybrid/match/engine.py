"""The Hybrid match engine (``analyzer.match.contract.MatchEngine``).

Rulebook ``hybrid.txt``; the kernels are in ``match_nb.py`` (each rule function names
its section), the rule readings in ``docs/rules-choices.md`` ("Hybrid matches").
``ENGINE`` is the instance the match framework registers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from analyzer.analysis.duel import OptionKind
from analyzer.games.hybrid import units as hybrid_units
from analyzer.games.hybrid.match import compile as C
from analyzer.games.hybrid.match import layout as L
from analyzer.match.contract import Setup, UnitInfo
from analyzer.match.options import check_policy
from analyzer.match.package import PackageKernels, extras_means, points_by_side
from analyzer.match.sides import ArmyListSides

PACKAGE_DIR = Path(__file__).resolve().parent
#: Measured cold compile on the shared 2-core machine (fresh NUMBA_CACHE_DIR): 61 s CPU,
#: 62 s wall at load 0.9; 74 s wall at load 2.6; 194 s wall at load 6.3.
COLD_COMPILE = (60, 200)
#: What the engine does not model (the match report's notes).
NOT_MODELLED = (
    "the Action Cards' texts (not printed: played for their Action points only, 5 cards of "
    "each value 0-4 assumed), Activation Roll bids, Mastery Levels raised by Action points",
    "Event and Army Cards' effects (an Event Card drawn has no effect), the Aura and "
    "Mutation Cards whose texts are not printed (drawn, no effect: only the Aura of "
    "Vengeance and Purulent Excrescence are played)",
    "the missions' own events (their texts are not printed), Trapdoors opening and closing",
    "the rulebook's dead-angle cases (a grid line-of-sight rule instead)",
)


class HybridMatchEngine(PackageKernels, ArmyListSides):
    """AI-vs-AI Hybrid matches on a mission's board."""

    cold_compile = COLD_COMPILE
    trace_rows = 20000

    system = "hybrid"
    units_module: ClassVar[ModuleType] = hybrid_units
    policies: tuple[str, ...] = L.POLICY_NAMES
    default_policy = "greedy"
    first_modes: tuple[str, ...] = L.FIRST_MODES
    option_kinds: Mapping[str, OptionKind] = C.OPTION_KINDS
    option_help: Mapping[str, str] = C.OPTION_HELP
    end_reasons: tuple[str, ...] = L.END_REASONS
    score_name = "NV left"
    damage_name = "wounds"
    record_extras: tuple[str, ...] = L.RECORD_EXTRAS
    unit_extras: tuple[str, ...] = L.UNIT_EXTRAS
    match_block = 1024
    side_kind = "army list"

    # ------------------------------------------------------------------ loading
    # ------------------------------------------------------------------ prepare
    def prepare(
        self,
        cards: Mapping[str, Any],
        lists: tuple[Any, Any],
        *,
        policies: tuple[str, str],
        options: Mapping[str, Any],
        scenario: str | None = None,
        first_side: int | None = None,
    ) -> Setup:
        opts = C.full_options(dict(options))
        opts.pop("scenario", None)
        for pol in policies:
            check_policy(self, pol)
        mission, mission_file = C.load_scenario(scenario)
        pols = (self.policies.index(policies[0]), self.policies.index(policies[1]))
        arrays, comp = C.compile_arrays(
            dict(cards), (lists[0], lists[1]), pols, opts, mission, mission_file, first_side
        )
        infos = [
            UnitInfo(side=s, name=c.name, kind=f"rank {c.rank} {c.base}", points=c.points)
            for c, s in zip(comp.cards, comp.sides, strict=True)
        ]
        points = points_by_side(infos)
        label = "reconstructed layout" if mission.reconstructed else "the rulebook's layout"
        goal = (
            f"{mission.objectives_to_win} Objective counter(s) carried out or elimination"
            if mission.objectives_to_win
            else "elimination"
        )
        notes = [
            f"mission {mission.name} ({mission_file.stem}, {label}): {mission.width} x "
            f"{mission.height} squares, {goal}, draw after {int(arrays[3][L.S_ROUNDS])} Rounds",
            "score: NV left (sum over the living warriors)",
            "not modelled: " + "; ".join(NOT_MODELLED + tuple(mission.not_modelled)),
        ]
        return Setup(
            system=self.system,
            arrays=arrays,
            units=infos,
            list_names=(lists[0].name, lists[1].name),
            points=points,
            policies=(policies[0], policies[1]),
            options=opts,
            scenario=mission_file.stem,
            data_files=[mission_file],
            notes=notes,
            extra=comp,
        )

    # ------------------------------------------------------------------ running
    def run_block(
        self,
        arrays: tuple[np.ndarray, ...],
        state: np.ndarray,
        first: int,
        count: int,
        rec: np.ndarray,
        urec: np.ndarray,
        check: bool,
        events: np.ndarray | None,
    ) -> int:
        from analyzer.games.hybrid.match import match_nb as M

        fi, mp, obj, sc, tab = arrays
        s, g, cell, occ, seq, dc, rng = work_state(fi, mp)
        ev = events if events is not None else np.zeros((1, L.EV_COLS), dtype=np.int64)
        chk = bool(check) or bool(sc[L.S_CHECK])
        return int(
            M.run_block(
                fi,
                mp,
                obj,
                sc,
                tab,
                s,
                g,
                cell,
                occ,
                seq,
                dc,
                rng,
                ev,
                work_rows(mp),
                state,
                int(self.match_block),
                int(first),
                int(count),
                rec,
                urec,
                events is not None,
                chk,
            )
        )

    # ------------------------------------------------------------------ reports
    def report_extras(self, setup: Setup, rec: np.ndarray, urec: np.ndarray) -> dict[str, Any]:
        n = int(rec.shape[0])
        out: dict[str, Any] = {"matches": n}
        if n == 0:
            return out
        out["per_match"] = extras_means(self.record_extras, rec)
        return out

    def render_extras(self, extras: Mapping[str, Any]) -> list[str]:
        per = extras.get("per_match")
        if not per:
            return []
        return [
            "per match: {strikes:.1f} strikes, {shots:.1f} shots, {parries:.1f} parries, "
            "{counter_blows:.2f} counter-blows, {combined_attacks:.2f} Combined Attacks, "
            "{knock_backs:.2f} knock-backs, {sacrifices:.2f} Sacrifices, "
            "{perfect_successes:.2f} Perfect Successes; objectives A {objectives_a:.2f}, "
            "B {objectives_b:.2f}".format(**per)
        ]


def work_state(fi: np.ndarray, mp: np.ndarray) -> tuple[np.ndarray, ...]:
    """Fresh state arrays for ``run_block``: s, g, cell, occ, seq, dc, rng (then ev, wk)."""
    n = fi.shape[0]
    h, w = mp.shape
    return (
        np.zeros((n, L.S_COLS), dtype=np.int64),
        np.zeros(L.G_COLS, dtype=np.int64),
        np.zeros((h, w), dtype=np.int64),
        np.zeros((h, w), dtype=np.int64),
        np.full((4, n), -1, dtype=np.int64),  # sequences played, then the guesses
        np.zeros(1, dtype=np.int64),
        np.zeros(6, dtype=np.uint64),
    )


def work_rows(mp: np.ndarray) -> np.ndarray:
    """The movement search's scratch rows (distances, parents, buckets, steps) for a board."""
    from analyzer.games.hybrid.match import match_nb as M

    h, w = mp.shape
    return np.zeros((M.W_ROWS, w * h * 4 * M.NFLAG), dtype=np.int64)


ENGINE = HybridMatchEngine()
