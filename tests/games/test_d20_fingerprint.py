"""d20 records are bit-identical across changes meant only for speed.

The digests (sha256 of the match and unit records, seed 11, two threads) were taken on
``23fdb15`` and are reproduced by the exact speed-ups since (walk's element mask, the
facing's cosine and sine, the inlined kernels, sight's test order).  A rule or AI change
that alters records on purpose takes new digests: say so in the commit.
"""

from __future__ import annotations

import hashlib

import pytest

from analyzer import paths
from analyzer.games.d20.match.engine import ENGINE
from analyzer.match import prepare
from analyzer.match.runner import run_records

LISTS = [
    paths.system_config("d20", "lists") / f"{n}.yaml"
    for n in ("chronos_strike_team", "genetic_hunters")
]
#: (policies, scenario, matches) -> digest of the records, seed 11.
DIGESTS = {
    (("greedy", "greedy"), "border_skirmish", 300): "cb8c0f4a2f4a2b52",
    (("greedy", "greedy"), "virus_raid", 300): "1fa1d5882b445ce5",
    (("greedy", "random"), "border_skirmish", 300): "c147b198fdd334b7",
    (("random", "random"), "virus_raid", 300): "5c48f716e89dd107",
    (("lookahead", "greedy"), "border_skirmish", 12): "7e2eddb2604baeca",
    (("lookahead", "greedy"), "virus_raid", 12): "1d861a9193abe3a2",
}


def digest(policies: tuple[str, str], scenario: str, n: int) -> str:
    setup = prepare("d20", *LISTS, policies=policies, scenario=scenario)
    rec, urec = run_records(ENGINE, setup, n, 11, threads=2)
    return hashlib.sha256(rec.tobytes() + urec.tobytes()).hexdigest()[:16]


@pytest.mark.slow
@pytest.mark.parametrize("key", list(DIGESTS), ids=[f"{a}-{b}-{s}" for (a, b), s, _ in DIGESTS])
def test_records_match_the_fingerprint(key: tuple[tuple[str, str], str, int]) -> None:
    assert digest(*key) == DIGESTS[key]
