"""Matches in any range of indices: the same numbers as ``run_records``, any cut, any
thread count (common random numbers for the builder and the balance)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analyzer.match import contract as C
from analyzer.match import prepare, run_records
from analyzer.meta.arena import SCORE_OF_WINNER, Arena
from tests.experiments import fake_match

REPO = Path(__file__).resolve().parents[2]
D20 = sorted((REPO / "configs" / "d20" / "lists").glob("*.yaml"))


def test_ranges_and_threads_give_the_records_of_run_records(monkeypatch):
    fake_match.plug_in(monkeypatch)
    arena = Arena("d20", options={"first": "alternate"}, threads=2)
    cards, _ = arena.engine.load_cards(None)
    a, b = (arena.engine.load_list(p, cards) for p in D20[:2])
    setup = arena.setup(cards, a, b)
    whole = arena.scores([(setup, 11)], 0, 1000)[0]
    cut = np.concatenate(
        [arena.scores([(setup, 11)], lo, hi)[0] for lo, hi in ((0, 7), (7, 300), (300, 1000))]
    )
    serial = Arena("d20", options={"first": "alternate"}, threads=1)
    one = serial.scores([(setup, 11)], 0, 1000)[0]
    ref = prepare("d20", D20[0], D20[1], options={"first": "alternate"})
    rec, _ = run_records(arena.engine, ref, 1000, 11, threads=1)
    np.testing.assert_array_equal(whole, SCORE_OF_WINNER[rec[:, C.R_WINNER]])
    np.testing.assert_array_equal(cut, whole)
    np.testing.assert_array_equal(one, whole)
    assert arena.spent == 2000 and serial.spent == 1000
