"""The Degenesis: Clan Wars mission engine (``analyzer.match.contract.MatchEngine``).

The one co-operative-versus-hostile game of the framework: side A is a ROSTER of
OPERATIVES, side B the HOSTILE FORCES, a match is a MISSION and its outcome is mission
success (winner 1) or failure (winner 2) with the reason (``end_reasons``).  Rulebook
``degenesis-clan-wars.txt``; the kernels are in ``match_nb.py`` (each rule function names
its section), the rule readings in ``docs/rules-choices.md`` ("Degenesis missions").
``ENGINE`` is the instance the match framework registers.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.analysis.duel import OptionKind
from analyzer.games.degenesis import units as deg_units
from analyzer.games.degenesis.match import compile as C
from analyzer.games.degenesis.match import layout as L
from analyzer.match.cache import refresh_cache
from analyzer.match.contract import EngineDefaults, Setup, Sides, UnitInfo
from analyzer.match.options import check_policy
from analyzer.match.package import PackageKernels, extras_means, points_by_side
from analyzer.paths import system_config
from analyzer.stats import wilson_interval

PACKAGE_DIR = Path(__file__).resolve().parent
#: Measured cold compile of the kernels on 2 cores (seconds, low and high; the numba cache
#: removed, ``benchmarks/bench_match.py --system degenesis --cold``): 44-47 s at load
#: 1.2-1.9 and 108 s at load 7.8 before round 4; 62 s at load 0.4-1.4 after it (ATTACK
#: tables, pruning helpers); round 7 (ITEMS, ACTIVE TRAITS): 196 s at load ~10, 65 s at
#: load 1-2 once the rollout kernels compile only when played and the thin levels are
#: inlined (``compile_profile.py``; docs/engines/degenesis.md); 53 s at load 1.5 once the
#: rule-test operations have their own entry kernel (``sandbox_op``), 52 s at load 2 with
#: ``play_round`` inlined into ``run_block``.
COLD_COMPILE = (60, 200)
#: What the engine does not play (named in every report's notes).
NOT_MODELLED = (
    "ARCANA X The Heretic only at the start of a TURN, on WEAPONS; XI The Conqueror played "
    "on an ATTACK ACTION only (once in force it doubles FREE ATTACKS too); IV The Ruler at "
    "the start of an OPERATIVE's TURN only (either side); 0 The Adventurer for a MOVE that "
    "needs it only (either side); VI The Healer's FLIP a FLESHWOUND at the start of a TURN, "
    "its revert a STAGE at the start of a REACTION PHASE, else NEGATE a WOUND; the 9 ARCANA "
    "whose effects the rulebook does not print (not in the deck)",
    "INTEL's ARCANA",
    "text-only TRAITS / POTENTIALS (listed per card below; ACTIVE TRAITS played: pool_attack, "
    "heal_fleshwound, reveal_threat, stun_enemy, enemy_defense, wounded_attack, snare; the "
    "PASSIVE flip_operative); Triage Frenzy (FLIP an ENEMY to a side: the HOSTILE's units "
    "have none)",
    "a CLANNER's PICK UP and FLIP of an ITEM (it DISCARDS); a non-WEAPON ITEM changing hands "
    "(WORN ARMOR never does); TRADE of one ITEM per ACTION, one DROP per ACTION, one body "
    "per carrier; a body's worth (no mission here rewards one: only the random OPERATIVES "
    "carry them)",
    "BOTCH TRAITS other than an ACTION that FLIPS the ITEM back or an empty HANDLING POOL "
    "that is BARE HANDED's ATTACK (listed per card below)",
    "OBSCURING, DISPLACE, IMMUNE, NEGATE, STEALTH, REVIVE; SWARM CARDS; INTEL",
    "a greedy or rollout RETREAT (legal, a failure: only the random OPERATIVES take it)",
)


def _sources() -> list[Path]:
    """What the compiled kernels depend on (an edit elsewhere never recompiles them)."""
    from analyzer.dice import random_nb
    from analyzer.games.degenesis import rolls
    from analyzer.match import seeding_nb, trace_nb

    files = [Path(m.__file__ or "") for m in (random_nb, rolls, seeding_nb, trace_nb)]
    return [PACKAGE_DIR / "layout.py", PACKAGE_DIR / "match_nb.py", *files]


class DegenesisMatchEngine(PackageKernels, EngineDefaults):
    """AI-vs-AI Degenesis missions: a ROSTER of OPERATIVES against the HOSTILE FORCES."""

    cold_compile = COLD_COMPILE
    trace_rows = 8000

    system = "degenesis"
    policies: tuple[str, ...] = L.POLICY_NAMES
    default_policy = "greedy"
    first_modes: tuple[str, ...] = L.FIRST_MODES
    option_kinds: Mapping[str, OptionKind] = C.OPTION_KINDS
    option_help: Mapping[str, str] = C.OPTION_HELP
    end_reasons: tuple[str, ...] = L.END_REASONS
    score_name = "objectives done (A) / operatives lost (B)"
    damage_name = "wounds"
    record_extras: tuple[str, ...] = L.RECORD_EXTRAS
    unit_extras: tuple[str, ...] = L.UNIT_EXTRAS
    match_block = 1024
    side_kind = "roster or hostile forces"
    side_names = ("operatives", "hostile")
    side_options = ("roster", "hostile")
    scenario_option = "mission"
    outcome_names = ("draw", "mission success", "mission failure")
    symmetric = False

    def sample_sides(self) -> tuple[Path, Path]:
        lists = system_config("degenesis", "lists")
        return lists / "corebox-roster.yaml", lists / "cockroach-hostile-forces.yaml"

    # ------------------------------------------------------------------ loading
    def load_cards(self, units: str | Path | None) -> tuple[Mapping[str, Any], Path]:
        path = Path(units) if units is not None else deg_units.UNITS_FILE
        return deg_units.load_units(path), path

    def load_list(self, path: str | Path, cards: Mapping[str, Any]) -> Any:
        return deg_units.load_list(path, dict(cards))

    def load_sides(self, side_a: str | Path, side_b: str | Path, units: str | Path | None) -> Sides:
        """The ROSTER (``--roster``) and the HOSTILE FORCES (``--hostile``), each checked to
        be of its kind (one-line error naming the file)."""
        from analyzer.errors import InputError

        cards, path = self.load_cards(units)
        roster = self.load_list(side_a, cards)
        hostile = self.load_list(side_b, cards)
        if roster.side != "roster":
            raise InputError(f"{side_a}: side: --roster needs a ROSTER (side: roster)")
        if hostile.side != "hostile":
            raise InputError(f"{side_b}: side: --hostile needs HOSTILE FORCES (side: hostile)")
        return Sides(cards=cards, lists=(roster, hostile), files=[path, Path(side_a), Path(side_b)])

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
        pols = tuple(check_policy(self, p, side=i) for i, p in enumerate(policies))
        mission, tables, path = C.load_mission(scenario)
        codes = (self.policies.index(pols[0]), self.policies.index(pols[1]))
        arrays, comp, units = C.compile_arrays(
            dict(cards), (lists[0], lists[1]), codes, opts, mission, tables, path, first_side
        )
        infos = [
            UnitInfo(side=s, name=name, kind=card.kind, points=card.points)
            for (s, card), name in zip(units, comp.names, strict=True)
        ]
        points = points_by_side(infos)
        ms = arrays[-1]
        notes = [
            f"mission {mission.name} ({path.stem}, {mission.kind}; {mission.designed}): "
            f"{len(tables.nbr)} TILES, {int(ms[L.M_ROUNDS])} ROUNDS, "
            + (
                f"{int(ms[L.M_NEED])} to extract"
                if mission.kind == "extraction"
                else f"{int(ms[L.M_NEED])} objective-ROUNDS to hold"
                if mission.kind == "hold"
                else "kill the CHAMPION"
            ),
            f"EDGES per OPERATIVE per ROUND {int(ms[L.M_EDGES])}, SCHEMING AREA "
            f"{int(ms[L.M_CAP])}; winner 1 = mission success, 2 = failure",
            "card stats, dice faces and missions are sample data (the rulebook prints few)",
            *(f"not modelled: {item}" for item in NOT_MODELLED),
        ]
        if not opts["arcana"]:
            notes.append("the APOCALYPTIC TAROT is not played (--opt arcana=false)")
        if comp.notes:
            notes.append("not played (text or ACTIVE): " + ", ".join(comp.notes))
        return Setup(
            system=self.system,
            arrays=tuple(np.ascontiguousarray(a) for a in arrays),
            units=infos,
            list_names=(lists[0].name, lists[1].name),
            points=points,
            policies=(pols[0], pols[1]),
            options=opts,
            scenario=path.stem,
            data_files=[path],
            notes=notes,
            extra=comp,
        )

    # ------------------------------------------------------------------ running
    def kernels(self) -> Any:
        """The kernel module, its numba cache dropped first if any source changed."""
        refresh_cache(PACKAGE_DIR / "__pycache__", "degenesis_kernels.stamp", _sources())
        from analyzer.games.degenesis.match import match_nb

        return match_nb

    def state_arrays(self, n_units: int) -> tuple[np.ndarray, ...]:
        """Fresh per-match state: units, match, dice script, generator."""
        return (
            np.zeros((n_units, L.S_COLS), dtype=np.int64),
            np.zeros(L.G_COLS, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros(6, dtype=np.uint64),
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
        M = self.kernels()
        st, g, dc, rng = self.state_arrays(arrays[0].shape[0])
        ev = events if events is not None else np.zeros((1, L.EV_COLS), dtype=np.int64)
        chk = bool(check) or bool(arrays[-1][L.M_CHECK])
        ms = arrays[-1]
        if L.POL_STRONG in (int(ms[L.M_POL_A]), int(ms[L.M_POL_B])):  # the rollout kernels
            return int(
                M.run_block_strong(*arrays, st, g, dc, rng, ev, state, int(self.match_block),
                                   int(first), int(count), rec, urec, events is not None, chk)
            )  # fmt: skip
        return int(
            M.run_block(*arrays, st, g, dc, rng, ev, state, int(self.match_block), int(first),
                        int(count), rec, urec, events is not None, chk)
        )  # fmt: skip

    def is_compiled(self) -> bool:
        cache = PACKAGE_DIR / "__pycache__"
        stamp = cache / "degenesis_kernels.stamp"
        return stamp.is_file() and any(cache.glob("match_nb.run_block*.nbi"))

    # ------------------------------------------------------------------ reports
    def report_extras(self, setup: Setup, rec: np.ndarray, urec: np.ndarray) -> dict[str, Any]:
        n = int(rec.shape[0])
        col = {name: 8 + i for i, name in enumerate(self.record_extras)}
        out: dict[str, Any] = {"matches": n}
        if n == 0:
            return out
        success = int((rec[:, 0] == 1).sum())
        lo, hi = wilson_interval(success, n)
        out["mission_success"] = {"rate": success / n, "ci95": [lo, hi], "count": success}
        out["per_match"] = extras_means(self.record_extras, rec)
        attacks = int(rec[:, col["attacks"]].sum())
        out["hit_rate"] = float(rec[:, col["hits"]].sum() / attacks) if attacks else None
        ops = [i for i, u in enumerate(setup.units) if u.side == 0]
        out["operatives_lost_mean"] = float(rec[:, col["operatives_lost"]].mean())
        out["all_operatives_survive"] = float(
            (urec[:, ops, 0] != 1).all(axis=1).mean() if ops else 0.0
        )
        return out

    def render_extras(self, extras: Mapping[str, Any]) -> list[str]:
        lines: list[str] = []
        ms = extras.get("mission_success")
        if ms:
            lo, hi = ms["ci95"]
            lines.append(
                f"mission success {100 * ms['rate']:.1f}% [95% CI {100 * lo:.1f}, {100 * hi:.1f}]"
                f"; operatives lost per mission {extras['operatives_lost_mean']:.2f}; the whole "
                f"ROSTER survives {100 * extras['all_operatives_survive']:.1f}%"
            )
        per = extras.get("per_match")
        if per:
            lines.append(
                "per mission: {attacks:.1f} ATTACKS, {hits:.1f} hits, {sucker_punches:.2f} "
                "SUCKER PUNCHES, {ambushes:.2f} AMBUSHES, {spawns:.2f} SPAWNS, {scouts:.2f} "
                "SCOUTS, {reveals:.2f} REVEALS, {stuns:.2f} STUNS, {botches:.2f} BOTCHES, "
                "{hostile_killed:.2f} HOSTILE units killed".format(**per)
            )
        return lines


ENGINE = DegenesisMatchEngine()
