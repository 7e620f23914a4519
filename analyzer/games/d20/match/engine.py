"""The d20 skirmish match engine (``analyzer.match.contract.MatchEngine``).

Rulebook ``d20-skirmish.txt``; the kernels are in ``match_nb.py`` (each rule function
names its section), the rule readings in ``docs/rules-choices.md`` ("d20 skirmish
matches").  ``ENGINE`` is the instance the match framework registers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from analyzer.analysis.duel import OptionKind
from analyzer.games.d20 import units as d20_units
from analyzer.games.d20.match import compile as C
from analyzer.games.d20.match import layout as L
from analyzer.match.contract import N_STANDARD, Setup, UnitInfo
from analyzer.match.options import check_policy
from analyzer.match.package import PackageKernels, extras_means, points_by_side
from analyzer.match.sides import ArmyListSides
from analyzer.stats import wilson_interval

PACKAGE_DIR = Path(__file__).resolve().parent
#: Cold compile of the whole engine (seconds, low and high), measured in a fresh process
#: with its numba cache removed (2026-12-03, ``benchmarks/d20_compile.py``): 31 s at load
#: average 0.9 on the shared 2-core machine, 80-130 s wall at load average 8-10.
COLD_COMPILE = (31, 130)
#: Rules of ``d20-skirmish.txt`` the engine does not play (docs/rules-choices.md, "d20
#: skirmish matches"), named in every report's notes.
NOT_MODELLED = (
    "free actions",
    "moving or carrying objects (throwing them is modelled: scenario objects)",
    "opening a sealed door (the bundled objective is inserting a virus)",
    "decoys",
    "three players",
    "climbing down from or standing on tall elements beyond the climb-over",
    "automatic fire (no rule text)",
    "card-specific exceptions to the rear-arc rule",
)


class D20MatchEngine(PackageKernels, ArmyListSides):
    """AI-vs-AI d20 skirmish matches on a scenario's table."""

    cold_compile = COLD_COMPILE
    trace_rows = 6000

    system = "d20"
    units_module: ClassVar[ModuleType] = d20_units
    policies: tuple[str, ...] = L.POLICY_NAMES
    default_policy = "greedy"
    first_modes: tuple[str, ...] = L.FIRST_MODES
    option_kinds: Mapping[str, OptionKind] = C.OPTION_KINDS
    option_help: Mapping[str, str] = C.OPTION_HELP
    end_reasons: tuple[str, ...] = L.END_REASONS
    score_name = "CP-weighted points left"
    damage_name = "CP"
    record_extras: tuple[str, ...] = L.RECORD_EXTRAS
    unit_extras: tuple[str, ...] = L.UNIT_EXTRAS
    match_block = 4096
    side_kind = "squad list"

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
        scen, scen_file = C.load_scenario(scenario)
        pols = (self.policies.index(policies[0]), self.policies.index(policies[1]))
        arrays, comp = C.compile_arrays(
            dict(cards), (lists[0], lists[1]), pols, opts, scen, scen_file, first_side
        )
        infos = [
            UnitInfo(
                side=s,
                name=c.name,
                kind="large stand" if "large stand" in c.special else "figurine",
                points=c.points,
            )
            for c, s in zip(comp.cards, comp.sides, strict=True)
        ]
        points = points_by_side(infos)
        notes = [
            f"scenario {scen.name} ({scen_file.stem}): {scen.table.width:g} x "
            f"{scen.table.height:g} cm, deployment from a {scen.deployment.kind}, "
            f"{scen.objective.kind}, turn limit {int(arrays[3][L.S_TURNS])}",
            "score: CP-weighted points left (points x CP left / CP, summed, rounded down)",
            *(
                [f"{len(comp.object_names)} throwable objects (throws count as shots)"]
                if comp.object_names
                else []
            ),
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
            scenario=scen_file.stem,
            data_files=[scen_file],
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
        from analyzer.games.d20.match import match_nb as M

        fi, fr, ter, sc, op, ecp, pge = arrays
        n = fi.shape[0] + int(sc[L.S_NOBJ])  # the figurines, then the throwable objects
        ev = events if events is not None else np.zeros((1, L.EV_COLS), dtype=np.int64)
        chk = bool(check) or bool(op[L.O_CHECK])
        return int(
            M.run_block(
                fi,
                fr,
                ter,
                sc,
                op,
                ecp,
                pge,
                np.zeros((n, L.P_COLS)),
                np.zeros((n, L.S_COLS), dtype=np.int64),
                np.zeros(L.G_COLS, dtype=np.int64),
                np.zeros(1, dtype=np.int64),
                np.zeros(6, dtype=np.uint64),
                ev,
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
        col = {name: N_STANDARD + i for i, name in enumerate(self.record_extras)}
        out: dict[str, Any] = {"matches": n}
        if n == 0:
            return out
        per = extras_means(
            self.record_extras,
            rec,
            (
                "shots",
                "hits",
                "blows",
                "ready_shots",
                "retreat_tests",
                "retreats_won",
                "take_covers",
                "effective_actions",
            ),
        )
        out["per_match"] = per
        shots = int(rec[:, col["shots"]].sum())
        out["hit_rate"] = float(rec[:, col["hits"]].sum() / shots) if shots else 0.0
        if setup.extra is not None and setup.extra.scenario.objective.kind == "virus":
            done = int(rec[:, col["objective_done"]].sum())
            lo, hi = wilson_interval(done, n)
            att = rec[:, col["attacker"]]
            out["objective"] = {
                "completion_rate": done / n,
                "ci95": [lo, hi],
                "a_attacker_rate": float((att == 0).mean()),
            }
        tests = int(rec[:, col["retreat_tests"]].sum())
        out["retreat_success_rate"] = (
            float(rec[:, col["retreats_won"]].sum() / tests) if tests else None
        )
        return out

    def render_extras(self, extras: Mapping[str, Any]) -> list[str]:
        lines: list[str] = []
        per = extras.get("per_match")
        if per:
            lines.append(
                "per match: {shots:.1f} shots, {hits:.1f} hits, {blows:.1f} HtH blows, "
                "{ready_shots:.2f} ready-to-shoot reactions, {take_covers:.2f} take cover, "
                "{retreat_tests:.2f} retreat tests".format(**per)
            )
            lines.append(f"hit rate of shots: {extras.get('hit_rate', 0.0):.1%}")
        obj = extras.get("objective")
        if obj:
            lo, hi = obj["ci95"]
            lines.append(
                f"virus inserted in {obj['completion_rate']:.1%} of matches "
                f"(95% CI {lo:.1%}-{hi:.1%}); A was the Attacker in {obj['a_attacker_rate']:.1%}"
            )
        rs = extras.get("retreat_success_rate")
        if rs is not None:
            lines.append(f"retreat tests won: {rs:.1%}")
        return lines


ENGINE = D20MatchEngine()
