"""Hybrid records are bit-identical across changes meant only for speed.

The digests (sha256 of the match and unit records, seed 11, two threads, first side
alternating) were retaken after the Skilled Firing ambushes and the closing of doors
(records changed on purpose), then after the Aura and Mutation Cards (records changed on
purpose), then when ``greedy_fast=both`` became the default (2026-12-04, play changed on
purpose).  ``EXACT`` holds the digests of ``5ae4372`` (the exact greedy), which the same
matches with ``greedy_fast=none`` must still give; ``BEFORE_CARDS`` those of ``9855a55``,
which they give with ``aura`` and ``mutation`` off too, and ``FORMER`` those of
``30588ef``, which they give with ``skilled_firing`` and ``close_doors`` off as well.  A
rule or AI change that alters records on purpose takes new digests: say so in the commit.
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
    "greedy-lab": "359f895518aacc03",
    "greedy-venom": "328d9de2140ae114",
    "greedy-random-lab": "5b6ee127f86c9fb5",
    "random-venom": "e3b5b1830daa47e6",
    "strong-lab": "308e1e8018169546",
}
#: The same matches with greedy_fast=none (the exact greedy): the records of 5ae4372.
EXACT = {
    "greedy-lab": "9a091015bb5e328e",
    "greedy-venom": "69d3f4a88ba47d5c",
    "greedy-random-lab": "859aaac1bfd9de85",
    "random-venom": "e3b5b1830daa47e6",
    "strong-lab": "e75a69cd48a51406",
}
#: The same matches with aura and mutation off: the records of 9855a55.
BEFORE_CARDS = {
    "greedy-lab": "44bf3e8c1c28e26d",
    "greedy-venom": "70c5e5fd680d772b",
    "greedy-random-lab": "b270e79c2e1122f4",
    "random-venom": "abc23fd95331a04b",
    "strong-lab": "a74a553eea4c1237",
}
EXACT_GREEDY = (("greedy_fast", "none"),)
NO_CARDS = (("aura", "none"), ("mutation", "none"))
#: The same matches with skilled_firing and close_doors off: the records of 30588ef.
FORMER = {
    "greedy-lab": "44bf3e8c1c28e26d",
    "greedy-venom": "c8a8e0a8a1671753",
    "greedy-random-lab": "dcf2cb6bc3b7b8e4",
    "random-venom": "b6304f1802133b9c",
    "strong-lab": "a4ba3a0d3b0d641a",
}


def digest(key: str, exact: bool = False, before_cards: bool = False, former: bool = False) -> str:
    pols, lists, scenario, n, opts = CASES[key]
    if exact or before_cards or former:
        opts = (*opts, *EXACT_GREEDY)
    if before_cards or former:
        opts = (*opts, *NO_CARDS)
    if former:
        opts = (*opts, ("skilled_firing", False), ("close_doors", False))
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


@pytest.mark.slow
@pytest.mark.parametrize("key", list(EXACT))
def test_exact_greedy_gives_the_records_before_the_fast_default(key: str) -> None:
    assert digest(key, exact=True) == EXACT[key]


@pytest.mark.slow
@pytest.mark.parametrize("key", list(BEFORE_CARDS))
def test_cards_off_give_the_records_before_them(key: str) -> None:
    assert digest(key, before_cards=True) == BEFORE_CARDS[key]


@pytest.mark.slow
@pytest.mark.parametrize("key", list(FORMER))
def test_new_rules_off_give_the_former_records(key: str) -> None:
    assert digest(key, former=True) == FORMER[key]


if __name__ == "__main__":
    for k in CASES:
        print(f'    "{k}": "{digest(k)}",', flush=True)
