"""The Heroscape match engine (``analyzer.match.contract.MatchEngine``).

Rulebook ``heroscape.txt``; the kernels are in ``match_nb.py`` (each rule function names
its section), the rule readings in ``docs/rules-choices.md`` ("Heroscape matches").
``ENGINE`` is the instance the match framework registers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from analyzer.analysis.duel import OptionKind
from analyzer.games.heroscape import units as hu
from analyzer.games.heroscape.match import compile as C
from analyzer.games.heroscape.match import layout as L
from analyzer.games.heroscape.match import scenario as S
from analyzer.match.cache import refresh_cache
from analyzer.match.contract import Setup, UnitInfo
from analyzer.match.options import check_policy
from analyzer.match.package import PackageKernels, extras_means
from analyzer.match.sides import ArmyListSides

PACKAGE_DIR = Path(__file__).resolve().parent
#: Cold compile of the kernels on the shared 2-core machine (seconds, low, high): 63 s of
#: CPU, 150 s wall at load average 7-8 on 2026-12-02; on 2026-12-03 (d85d820) 132.6 s wall
#: against cf75b28's 205.3 s at load average 9-10 (`benchmarks/compile_profile.py`, a fresh
#: numba cache, one after the other): about 42 s on a quiet machine by that ratio.
COLD_COMPILE = (45, 135)
#: Rules of the issue that the engine does not model (listed in every report's notes).
NOT_MODELLED = (
    "Veteran scenario rules (Crumbling Architecture, The Rift); Scenarios 2 and 3",
    "obstacles between spaces, rope ladders, roads, slippery ice, heavy snow, thin ice, "
    "cooling lava, destructible objects",
    "figures do not block line of sight; Target Point / Hit Zone are fixed heights",
    "Tech Glyph Jump Pack; temporary Treasure Glyphs; Glyphs other than Astrid, Gerda, "
    "Dagmar, Ivor, Haukeland, Brooch of Shielding",
)


def model_matches(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


class HeroscapeMatchEngine(PackageKernels, ArmyListSides):
    """AI-vs-AI Heroscape (Master Game) matches on a scenario's battlefield."""

    cold_compile = COLD_COMPILE
    trace_rows = 20000

    system = "heroscape"
    units_module: ClassVar[ModuleType] = hu
    policies: tuple[str, ...] = L.POLICY_NAMES
    default_policy = "greedy"
    first_modes: tuple[str, ...] = L.FIRST_MODES
    option_kinds: Mapping[str, OptionKind] = C.OPTION_KINDS
    option_help: Mapping[str, str] = C.OPTION_HELP
    end_reasons: tuple[str, ...] = L.END_REASONS
    score_name = "points of Life left"
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
        opts = C.full_options(options)
        opts.pop("scenario", None)
        for pol in policies:
            check_policy(self, pol)
        scen = S.load_scenario(scenario)
        pols = (self.policies.index(policies[0]), self.policies.index(policies[1]))
        arrays, comp = C.compile_arrays(cards, (lists[0], lists[1]), pols, opts, scen, first_side)
        fi = arrays[4]
        infos = [
            UnitInfo(
                side=int(fi[i, L.F_SIDE]),
                name=comp.fig_names[i],
                kind=comp.fig_kinds[i],
                points=round(float(arrays[5][i, 0]) * int(fi[i, L.F_LIFE])),
            )
            for i in range(fi.shape[0])
        ]
        points = (
            sum(int(cards[e.unit].points) * e.count for e in lists[0].units),
            sum(int(cards[e.unit].points) * e.count for e in lists[1].units),
        )
        limit = int(arrays[9][L.O_ROUNDS])
        notes = [
            f"scenario {scen.name} ({scen.path.stem}, layout {scen.layout}): "
            f"{scen.n_hex} spaces, round limit {limit}",
            *scen.notes,
            "score: points of Life left (points / total Life per Army Card x Life left)",
            "special powers not modelled: " + model_matches(comp.unmodelled),
            *(f"not modelled: {item}" for item in NOT_MODELLED),
        ]
        return Setup(
            system=self.system,
            arrays=arrays,
            units=infos,
            list_names=(lists[0].name, lists[1].name),
            points=points,
            policies=(policies[0], policies[1]),
            options=opts,
            scenario=scen.path.stem,
            data_files=[scen.path],
            notes=notes,
            extra=comp,
        )

    # ------------------------------------------------------------------ running
    def match_state(self, arrays: tuple[np.ndarray, ...], events: np.ndarray | None) -> tuple:
        """Fresh working arrays of one match (the kernels' ``m`` tuple)."""
        hx, fi, gl = arrays[0], arrays[4], arrays[7]
        nf, nh = fi.shape[0], hx.shape[0]
        ev = events if events is not None else np.zeros((1, L.EV_COLS), dtype=np.int64)
        return (
            np.zeros((nf, L.S_COLS), dtype=np.int64),
            np.full(nh, -1, dtype=np.int64),
            np.zeros((gl.shape[0], L.GS_COLS), dtype=np.int64),
            np.zeros(L.G_COLS, dtype=np.int64),
            np.full((2, 4), -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros(6, dtype=np.uint64),
            ev,
            np.zeros((L.WK_ROWS, max(nh, nf, 64 * ((nh + 63) // 64))), dtype=np.int64),
            np.zeros((L.WF_ROWS, max(nh, nf)), dtype=np.float64),
        )

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
        M = kernels()
        m = self.match_state(arrays, events)
        chk = bool(check) or bool(arrays[9][L.O_CHECK])
        op = arrays[9]
        strong = L.POL_STRONG in (int(op[L.O_POL_A]), int(op[L.O_POL_A + 1]))
        entry = M.run_block_strong if strong else M.run_block  # rollouts compiled if needed
        return int(
            entry(
                tuple(arrays), m, state, int(self.match_block), int(first), int(count),
                rec, urec, events is not None, chk, M.OP_BLOCK, 0, 0, 0,
            )
        )  # fmt: skip

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
            "per match: {attacks:.1f} attacks, {leaving_attacks:.2f} leaving engagement "
            "attacks, {falls:.2f} falls, {glyphs:.2f} glyphs activated or picked up, "
            "{traps:.2f} traps set off, {player_turns:.1f} player turns".format(**per)
        ]


_REFRESHED: list[bool] = []


def kernel_sources() -> list[Path]:
    """The files compiled into the kernels: ``match_nb.py``, its layout constants and the
    shared kernels it calls (an edit of any of them drops the numba cache)."""
    from analyzer.dice import random_nb
    from analyzer.match import paired_nb, seeding_nb, trace_nb

    shared = (random_nb, seeding_nb, paired_nb, trace_nb)
    return [PACKAGE_DIR / "match_nb.py", PACKAGE_DIR / "layout.py"] + [
        Path(str(mod.__file__)) for mod in shared
    ]


def kernels() -> Any:
    """The numba kernels, their cache dropped first (once per process) when the files
    they depend on changed."""
    if not _REFRESHED:
        refresh_cache(PACKAGE_DIR / "__pycache__", "heroscape-kernels.stamp", kernel_sources())
        _REFRESHED.append(True)
    from analyzer.games.heroscape.match import match_nb

    return match_nb


ENGINE = HeroscapeMatchEngine()
