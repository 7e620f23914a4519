"""Hybrid records are bit-identical across changes meant only for speed.

The digests (sha256 of the match and unit records, seed 11, two threads, first side
alternating) were taken at ``30588ef`` (before the Skilled Firing ambush, Infiltration,
doors, events and Action Cards).  A rule or AI change that alters records on purpose
takes new digests: say so in the commit.
"""

from __future__ import annotations

import hashlib

import pytest

from analyzer import paths
from analyzer.games.hybrid.match.engine import ENGINE
from analyzer.match import prepare
from analyzer.match.runner import run_records

LISTS = {
    n: paths.system_config("hybrid", "lists") / f"{n}.yaml"
    for n in ("griffin-patrol", "scorpion-example")
}
GS = ("griffin-patrol", "scorpion-example")
#: (policies, lists, scenario, matches, options) -> digest of the records, seed 11.
CASES: dict[str, tuple[tuple[str, str], tuple[str, str], str, int, tuple[tuple[str, int], ...]]] = {
    "greedy-lab": (("greedy", "greedy"), GS, "laboratory_skirmish", 300, ()),
    "greedy-venom": (("greedy", "greedy"), GS, "venom_vats", 300, ()),
    "greedy-random-lab": (("greedy", "random"), GS, "laboratory_skirmish", 200, ()),
    "random-venom": (("random", "random"), GS, "venom_vats", 100, ()),
    "strong-lab": (
        ("strong", "greedy"),
        GS,
        "laboratory_skirmish",
        4,
        (("lookahead_rollouts", 4),),
    ),
}
DIGESTS = {
    "greedy-lab": "44bf3e8c1c28e26d",
    "greedy-venom": "c8a8e0a8a1671753",
    "greedy-random-lab": "dcf2cb6bc3b7b8e4",
    "random-venom": "b6304f1802133b9c",
    "strong-lab": "a4ba3a0d3b0d641a",
}


def digest(key: str) -> str:
    pols, lists, scenario, n, opts = CASES[key]
    setup = prepare(
        "hybrid",
        LISTS[lists[0]],
        LISTS[lists[1]],
        policies=pols,
        options={"first": "alternate", **dict(opts)},
        scenario=scenario,
    )
    rec, urec = run_records(ENGINE, setup, n, 11, threads=2)
    return hashlib.sha256(rec.tobytes() + urec.tobytes()).hexdigest()[:16]


@pytest.mark.slow
@pytest.mark.parametrize("key", list(DIGESTS))
def test_records_match_the_fingerprint(key: str) -> None:
    assert digest(key) == DIGESTS[key]


if __name__ == "__main__":
    for k in CASES:
        print(f'    "{k}": "{digest(k)}",', flush=True)
