"""The Rapture match engine behind the shared contract (:mod:`analyzer.match.contract`).

The kernels keep their own record layout (``match_nb.R_*``, ``U_*``: the fingerprint test
holds them bit-identical); :meth:`RaptureEngine.run_block` copies each block's records
into the contract's standard columns followed by Rapture's extras.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from analyzer.games.rapture import units as rapture_units
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match import match_nb as M
from analyzer.games.rapture.match.compile import (
    FIRST_MODES,
    MATCH_OPTION_KINDS,
    POLICIES,
    MatchOptions,
    match_options,
)
from analyzer.match import contract as C
from analyzer.match.report import Rate, pct, rows_table
from analyzer.match.sides import ArmyListSides

TRACE_ROWS = 200_000
NOTES = (
    "all models stand on one level: no high ground, ladders, doors, jumps or roofs",
    "terrain pieces are axis-aligned rectangles; cover and line of sight per the stated "
    "sight-corridor rule (see geometry_nb)",
    "AI not modelled: greedy scores in VP (capped at the VP that can still decide the game), "
    "not by an estimated chance of winning; wounds count linearly in points per HP",
)
#: Rapture's record columns after the standard ones, and where the kernel keeps them.
RECORD_EXTRAS = {
    "mission_a": M.R_MIS0,
    "mission_b": M.R_MIS1,
    "mission_vp_a": M.R_MVP0,
    "mission_vp_b": M.R_MVP1,
    "bonus_a": M.R_BONUS0,
    "bonus_b": M.R_BONUS1,
    "actions": M.R_ACTIONS,
    "edges_swapped": M.R_SWAP,
}
UNIT_EXTRAS = {"credit": M.U_CREDIT}
#: The kernel's own columns that become standard ones (the rest are the extras above).
STANDARD_COLUMNS = {
    M.R_VP0: C.R_SCORE_A,
    M.R_VP1: C.R_SCORE_B,
    M.R_ROUNDS: C.R_ROUNDS,
    M.R_END: C.R_END,
    M.R_FIRST1: C.R_FIRST,
    M.R_ACTIVATIONS: C.R_ACTIVATIONS,
    M.R_VIOL: C.R_VIOLATIONS,
}
STANDARD_UNIT_COLUMNS = {
    M.U_STATUS: C.U_STATUS,
    M.U_VP: C.U_SCORE,
    M.U_DEALT: C.U_DEALT,
    M.U_TAKEN: C.U_TAKEN,
}
#: Where each extra sits in the contract-layout record.
EXTRA_COLUMN = {name: C.N_STANDARD + i for i, name in enumerate(RECORD_EXTRAS)}

OPTION_HELP = {
    "first": "who takes round 1's first activation: rules (combat value), alternate, random",
    "lookahead_k": "lookahead: candidate actions rolled out per decision (1-16)",
    "lookahead_depth": "lookahead: activations played forward per rollout (0-40)",
    "lookahead_rollouts": "lookahead: rollouts per candidate (1-64)",
    "base_counts": "the base diameter comes off MOV in a movement action (default false)",
    "lof_odd_to_interposer": "odd hits go to the model in the line of fire",
    "own_escape_vp": "who scores a unit whose own retreat erased its last MP: opponent, none",
    "band_ini": "a band's INI in the combat value: sum of its models, or the leader's",
    "max_rounds": "rounds before the game ends (1-20)",
    "swap_edges": "odd matches swap the deployment edges",
    "missions": "each player draws a secret mission",
    "chooser_goes_first": "a player entitled to choose the first activation takes it",
    "greedy_threat": "greedy: weight of the opposing threat at a position, in % (0-100)",
    "greedy_win_cap": "greedy: VP count only up to what can still decide the game",
    "greedy_tempo": "greedy: in the last round, no value for later attacks nor acted threats",
    "greedy_press": "greedy: value the strike a kill prevents and the opposing carrier, close in",
    "greedy_carry": "greedy: % pull of a carry mission by the trip and rounds left (0: fixed)",
    "greedy_win_prob": "greedy: score VP by the chance of winning they add (rounds, VP left)",
    "greedy_wound_kill": "greedy: value wounds by the kill chance they add, not per HP",
    "greedy_search": (
        "greedy: lazy (default; nearest's moves, walked only while best), nearest (the nearest"
        " cover piece), full (two cover pieces) or fast (fewer, weaker)"
    ),
    "check_invariants": "check the state after every activation (counted as violations)",
    "round1_first": "force the first activation of round 1: -1 by the rules, 0 A, 1 B",
}


class RaptureEngine(ArmyListSides):
    """Rapture ("2. Game Setup" to "End of the Game"): see ``state_nb``, ``engine_nb`` and
    ``driver_nb`` for the rules and their readings."""

    system = "rapture"
    policies: tuple[str, ...] = tuple(POLICIES)
    default_policy = "greedy"
    first_modes: tuple[str, ...] = FIRST_MODES
    option_kinds = MATCH_OPTION_KINDS
    option_help = OPTION_HELP
    end_reasons: tuple[str, ...] = tuple(L.END_NAMES)
    score_name = "VP"
    damage_name = "wounds"
    record_extras: tuple[str, ...] = tuple(RECORD_EXTRAS)
    unit_extras: tuple[str, ...] = tuple(UNIT_EXTRAS)
    match_block = M.MATCH_BLOCK
    side_kind = "battlegroup"
    fixed_edge_options: ClassVar[dict[str, bool]] = {"swap_edges": False}
    units_module: ClassVar[ModuleType] = rapture_units

    # -------------------------------------------------------------- prepare
    def match_options(
        self, policies: tuple[str, str], options: Mapping[str, Any], first_side: int | None
    ) -> MatchOptions:
        """:class:`MatchOptions` of the options (``first_side`` forces round 1), built by
        :func:`compile.match_options`, the one place Rapture's options are turned into it."""
        opts = match_options({"a": policies[0], "b": policies[1]}, dict(options))
        return opts if first_side is None else replace(opts, round1_first=first_side)

    def prepare(
        self,
        cards: Mapping[str, Any],
        lists: tuple[Any, Any],
        *,
        policies: tuple[str, str],
        options: Mapping[str, Any],
        scenario: str | None = None,
        first_side: int | None = None,
    ) -> C.Setup:
        from analyzer.games.rapture.match import prepare_loaded

        opts = self.match_options(policies, options, first_side)
        own = prepare_loaded(cards, lists, scenario=scenario, options=opts)
        comp = own.comp
        units = [C.UnitInfo(u.side, u.name, u.kind, u.points) for u in comp.units]
        shown = asdict(opts)
        for key in ("policy_a", "policy_b", "hands", "check_invariants"):
            shown.pop(key, None)
        return C.Setup(
            system=self.system,
            arrays=own.S,
            units=units,
            list_names=(comp.list_names[0], comp.list_names[1]),
            points=(comp.list_points[0], comp.list_points[1]),
            policies=policies,
            options={**shown, "check_invariants": opts.check_invariants},
            scenario=own.scenario_name,
            data_files=list(own.files),
            notes=[*NOTES, *comp.ignored],
            extra=own,
        )

    def kernel_sources(self) -> list[Path]:
        return sorted(Path(__file__).resolve().parent.glob("*.py"))

    # ------------------------------------------------------------------ run
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
        """Rapture's block runner, its records copied into the contract's columns."""
        from analyzer.games.rapture.match import kernels

        own = np.zeros((count, M.R_COLS), dtype=np.int64)
        own_u = np.zeros((count, urec.shape[1], M.U_COLS), dtype=np.int64)
        trace = events if events is not None else np.zeros((1, L.EV_COLS), dtype=np.int64)
        runner = kernels.block_runner()
        n = runner(
            arrays, kernels.function_table(), state, first, count, own, own_u, int(check),
            trace, int(events is not None),
        )  # fmt: skip
        vp_a, vp_b = own[:, M.R_VP0], own[:, M.R_VP1]
        rec[:, C.R_WINNER] = np.where(vp_a > vp_b, 1, np.where(vp_b > vp_a, 2, 0))
        for mine, std in STANDARD_COLUMNS.items():
            rec[:, std] = own[:, mine]
        for i, mine in enumerate(RECORD_EXTRAS.values()):
            rec[:, C.N_STANDARD + i] = own[:, mine]
        for mine, std in STANDARD_UNIT_COLUMNS.items():
            urec[:, :, std] = own_u[:, :, mine]
        for i, mine in enumerate(UNIT_EXTRAS.values()):
            urec[:, :, C.N_UNIT_STANDARD + i] = own_u[:, :, mine]
        return int(n) if events is not None else 0

    def is_compiled(self) -> bool:
        from analyzer.games.rapture.match.kernels import FUNCTIONS

        try:
            indexes = [Path(d._cache._cache_file._index_path) for d in FUNCTIONS.values()]
        except AttributeError:  # numba's cache internals changed: assume warm
            return True
        return all(path.exists() for path in indexes)

    def compile_seconds(self) -> tuple[int, int]:
        return (75, 125)

    # ---------------------------------------------------------------- trace
    def trace_buffer(self) -> np.ndarray:
        return np.zeros((TRACE_ROWS, L.EV_COLS), dtype=np.int64)

    def render_trace(self, setup: C.Setup, events: np.ndarray) -> list[str]:
        from analyzer.games.rapture.match import trace

        own = setup.extra
        comp = own.comp
        namer = trace.Namer(
            [u.name for u in comp.units],
            comp.model_names,
            [u.side for u in comp.units],
            [int(u) for u in comp.SI[:, L.SI_UNIT]],
            own.mission_names,
        )
        return trace.render(events, namer)

    # --------------------------------------------------------------- report
    def report_extras(self, setup: C.Setup, rec: np.ndarray, urec: np.ndarray) -> dict[str, Any]:
        """The secret missions drawn and their VP, the 30-point bonus, actions per match."""
        n = rec.shape[0]
        missions = []
        for side in (0, 1):
            col, mvp = (
                EXTRA_COLUMN["mission_" + "ab"[side]],
                EXTRA_COLUMN["mission_vp_" + "ab"[side]],
            )
            for k, name in enumerate(setup.extra.mission_names):
                drawn = rec[:, col] == k
                if drawn.any():
                    missions.append(
                        {
                            "side": "AB"[side],
                            "mission": name,
                            "drawn": int(drawn.sum()),
                            "mission_vp_mean": float(rec[drawn, mvp].mean()),
                        }
                    )
        bonus = {s: Rate(int(rec[:, EXTRA_COLUMN[f"bonus_{s}"]].sum()), n).to_dict() for s in "ab"}
        return {
            "missions": missions,
            "bonus_30": bonus,
            "actions_mean": float(rec[:, EXTRA_COLUMN["actions"]].mean()),
        }

    def render_extras(self, extras: Mapping[str, Any]) -> list[str]:
        def rate(d: Mapping[str, Any]) -> str:
            return pct(Rate(d["count"], d["n"]))

        lines = [
            f"30-point bonus: A {rate(extras['bonus_30']['a'])}, B {rate(extras['bonus_30']['b'])}",
            f"actions per match {extras['actions_mean']:.1f}",
        ]
        if extras["missions"]:
            lines += [
                "",
                rows_table(
                    ["mission", "side", "drawn", "mission VP"],
                    [
                        [m["mission"], m["side"], str(m["drawn"]), f"{m['mission_vp_mean']:.1f}"]
                        for m in extras["missions"]
                    ],
                ),
            ]
        return lines


def rapture_layout(rec: np.ndarray, urec: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's own record layout (``match_nb.R_*``, ``U_*``) rebuilt from the
    contract's columns (the fingerprint test and ``bench_match_revisions`` compare it)."""
    own = np.zeros((rec.shape[0], M.R_COLS), dtype=np.int64)
    for mine, std in STANDARD_COLUMNS.items():
        own[:, mine] = rec[:, std]
    for i, mine in enumerate(RECORD_EXTRAS.values()):
        own[:, mine] = rec[:, C.N_STANDARD + i]
    own_u = np.zeros((*urec.shape[:2], M.U_COLS), dtype=np.int64)
    for mine, std in STANDARD_UNIT_COLUMNS.items():
        own_u[:, :, mine] = urec[:, :, std]
    for i, mine in enumerate(UNIT_EXTRAS.values()):
        own_u[:, :, mine] = urec[:, :, C.N_UNIT_STANDARD + i]
    return own, own_u


ENGINE = RaptureEngine()
