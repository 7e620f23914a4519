"""Rapture's records are bit-identical across the move onto the shared match framework.

The digests were taken before the move, from the engine's own record layout
(``match_nb.R_*``, ``U_*``); the test rebuilds that layout from the contract's columns
and compares.  A rule fix that changes records on purpose takes new digests (say so in
the commit).
"""

from __future__ import annotations

import hashlib

import pytest

from analyzer import paths
from analyzer.games.rapture.match import engine as E
from analyzer.match import prepare
from analyzer.match.runner import run_records

LISTS = [
    paths.system_config("rapture", "lists") / f"{n}.yaml"
    for n in ("angels_vanguard", "icnun_hunters")
]
#: (policy, scenario, matches) -> digest of the records, seed 11, taken before the move.
DIGESTS = {
    ("random", None, 300): "82dae272396b1d5e",
    ("random", "crossroads", 300): "1316fecc4e569c4f",
    ("greedy", None, 300): "ca7ebcb0bbb318aa",
    ("greedy", "crossroads", 300): "7f7f59c5c88a68a1",
    ("lookahead", None, 24): "273f70efa90e0b80",
    ("lookahead", "crossroads", 24): "bd8cede1a5a46a0e",
}


@pytest.mark.slow
@pytest.mark.parametrize("key", list(DIGESTS), ids=[f"{p}-{s}" for p, s, _ in DIGESTS])
def test_records_match_the_fingerprint(key: tuple[str, str | None, int]) -> None:
    policy, scenario, n = key
    setup = prepare("rapture", *LISTS, policies=(policy, policy), scenario=scenario)
    rec, urec = run_records(E.ENGINE, setup, n, 11, threads=2)
    own, own_u = E.rapture_layout(rec, urec)
    assert hashlib.sha256(own.tobytes() + own_u.tobytes()).hexdigest()[:16] == DIGESTS[key]
