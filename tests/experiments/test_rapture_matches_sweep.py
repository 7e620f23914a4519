"""``metric: matches`` on the Rapture match engine: packing, seeding, mirror symmetry, CRN."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from analyzer.games.rapture import units as rapture_units
from analyzer.match import prepare
from analyzer.match.sweep import (
    WINNER_STRIDE,
    match_model,
    pack_arrays,
    run_sweep_blocks,
    unpack_arrays,
)
from tests.experiments.conftest import REPO, serial, write_spec

LISTS = REPO / "configs" / "rapture" / "lists"

MIRROR = f"""\
name: rapture-mirror
system: rapture
metric:
  kind: matches
  a: {LISTS / "angels_vanguard.yaml"}
  b: {LISTS / "angels_vanguard.yaml"}
  options: {{first: alternate}}
grid:
  side_b:
    kind: list
    role: b
    values: [{LISTS / "angels_vanguard.yaml"}, {LISTS / "survivors_patrol.yaml"}]
  raziel: {{kind: stat, unit: Raziel, field: points, values: [30, 45], step: nerf}}
baseline: {{side_b: {LISTS / "survivors_patrol.yaml"}, raziel: 30}}
trials: 8192
block_size: 256
seed: 5
"""


def test_packed_match_up_round_trips_exactly():
    setup = prepare("rapture", LISTS / "angels_vanguard.yaml", LISTS / "icnun_raiders.yaml")
    back = unpack_arrays(pack_arrays(setup.arrays))
    assert len(back) == len(setup.arrays)
    for a, b in zip(setup.arrays, back):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=True)


def test_sweep_blocks_do_not_depend_on_chunking_or_threads():
    cards = rapture_units.load_units()
    lists = [
        rapture_units.load_list(LISTS / n, cards)
        for n in ("angels_vanguard.yaml", "angels_vanguard.yaml")
    ]
    model = match_model("rapture", cards, *lists, {"a": "greedy", "b": "random"}, {})
    vector = model.params(True)
    sizes = np.array([64, 100, 64], dtype=np.int64)
    whole = run_sweep_blocks(vector, 9, (0, 1), 0, sizes)
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        parts = [run_sweep_blocks(vector, 9, (0, 1), b, sizes[b : b + 1]) for b in range(3)]
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(whole, np.vstack(parts))
    assert whole.sum(axis=1).tolist() == sizes.tolist()
    # greedy A against random B: A wins most matches
    winner = np.arange(whole.shape[1]) // WINNER_STRIDE
    assert whole[:, winner == 1].sum() > 0.6 * sizes.sum()


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mirror")
    return serial(write_spec(folder, MIRROR), folder / "out")


def _row(outcome, cell, quantity):
    t = outcome.results
    return t[(t.cell == cell) & (t.quantity == quantity)].iloc[0]


def test_mirror_match_is_even_within_its_standard_error(mirror):
    t = mirror.results
    mirror_cell = int(t[~t.side_b.str.contains("survivors") & (t.raziel == 30)].cell.iloc[0])
    row = _row(mirror, mirror_cell, "score")
    assert abs(row.estimate - 0.5) < 5 * row.se
    win, loss = _row(mirror, mirror_cell, "win_rate"), _row(mirror, mirror_cell, "loss_rate")
    assert abs(win.estimate - loss.estimate) < 5 * np.hypot(win.se, loss.se)
    # first: alternate plays half of every block with each side first
    assert np.isfinite(_row(mirror, mirror_cell, "first_edge").estimate)


def test_costlier_unit_gives_the_opponent_more_points_paired(mirror):
    """Raziel (list A only) at 45 points: B scores more for him ("Victory Points"), measured
    as a paired difference on the same per-match seeds."""
    t, d = mirror.results, mirror.differences
    cells = t[(t.side_b.str.contains("survivors")) & (t.quantity == "score")]
    cheap, dear = (int(cells[cells.raziel == v].cell.iloc[0]) for v in (30, 45))
    row = d[(d.cell == dear) & (d.quantity == "score")].iloc[0]
    assert int(row.baseline_cell) == cheap
    assert row.difference + 2 * row.se_paired < 0
