"""Rapture's match engine: the rules kernels, the policies and their compiled inputs.

Play matches through the shared framework (:mod:`analyzer.match`), which reaches this
engine through :data:`analyzer.games.rapture.match.engine.ENGINE`:

>>> from analyzer.match import play_matches
>>> result = play_matches("rapture", "configs/rapture/lists/angels_vanguard.yaml",
...                       "configs/rapture/lists/icnun_hunters.yaml", matches=2000)

The game follows ``rapture.txt`` from "2. Game Setup" to "End of the Game" (see the module
docstrings of ``state_nb``, ``engine_nb`` and ``driver_nb`` for the rules and their
readings).  This module compiles a match-up (:func:`prepare_loaded`) into the kernels'
static arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analyzer.games.rapture import units as rapture_units
from analyzer.games.rapture.match import compile as cp
from analyzer.games.rapture.match import layout as L
from analyzer.games.rapture.match.compile import POLICIES, MatchOptions, match_options
from analyzer.match.scenarios import scenario_file

__all__ = [
    "POLICIES",
    "MatchOptions",
    "RaptureSetup",
    "match_options",
    "prepare",
    "prepare_loaded",
    "scenario_path",
]


@dataclass
class RaptureSetup:
    """Everything a Rapture match needs, compiled: static arrays, names, options."""

    S: tuple[np.ndarray, ...]
    comp: cp.Compiled
    mission_names: list[str]
    scenario_name: str
    options: MatchOptions
    files: list[Path]


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
) -> RaptureSetup:
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
    setup.files[:0] = [units_path, Path(list_a), Path(list_b)]
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
) -> RaptureSetup:
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
    return RaptureSetup(S, comp, [m.name for m in mdata.missions], scen_name, options, files)


def scenario_path(name_or_path: str) -> Path:
    """The scenario file of ``--scenario``: a path, or a bundled scenario's name
    (:func:`analyzer.match.scenarios.scenario_file`)."""
    return scenario_file(name_or_path, cp.SCENARIO_DIR)
