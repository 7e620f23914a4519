"""Hybrid matches: fixed-edge symmetry (a project standard, "test symmetry with fixed
edges").  Side A always deploys in the mission's own zones and side B in the same zones
turned half-way round the board (``compile.py``); nothing swaps them between matches.
So a mirror match with the starting side alternating must show no margin for A."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analyzer.games.hybrid.match.engine import ENGINE
from analyzer.match import prepare
from analyzer.match.contract import R_SCORE_A, R_SCORE_B, R_WINNER
from analyzer.match.runner import run_records

LISTS = Path("configs/hybrid/lists")


def mirror_margins(
    scenario: str, army: str, matches: int, seed: int
) -> tuple[float, float, float, float]:
    """(mean, standard error) of side A's NV-left margin and of A's score minus 1/2 (a win
    1, a draw 1/2) in a greedy mirror on ``scenario``, the first side alternating."""
    setup = prepare(
        "hybrid",
        LISTS / f"{army}.yaml",
        LISTS / f"{army}.yaml",
        policies=("greedy", "greedy"),
        options={"first": "alternate"},
        scenario=scenario,
    )
    rec, _ = run_records(ENGINE, setup, matches, seed=seed, threads=2)
    margin = (rec[:, R_SCORE_A] - rec[:, R_SCORE_B]).astype(np.float64)
    score = np.where(rec[:, R_WINNER] == 1, 1.0, np.where(rec[:, R_WINNER] == 0, 0.5, 0.0))
    return (
        float(margin.mean()),
        float(margin.std(ddof=1) / np.sqrt(matches)),
        float(score.mean() - 0.5),
        float(score.std(ddof=1) / np.sqrt(matches)),
    )


@pytest.mark.parametrize("scenario", ["laboratory_skirmish", "venom_vats"])
@pytest.mark.parametrize("army", ["griffin-patrol", "scorpion-example"])
def test_mirror_with_fixed_edges_shows_no_margin(scenario: str, army: str) -> None:
    """400 greedy mirror matches per board and list: A's NV margin and A's score - 1/2
    are 0 within 5 standard errors (fixed seed)."""
    m, m_se, sc, sc_se = mirror_margins(scenario, army, 400, seed=18)
    assert abs(m) <= 5 * m_se, (m, m_se)
    assert abs(sc) <= 5 * sc_se, (sc, sc_se)
