"""d20 records are bit-identical across changes meant only for speed.

The digests (sha256 of the match and unit records, seed 11, two threads, default
options) were taken when ``greedy_search=fast`` became the default (2026-12-03, sixth
round: a candidate move is scored at its straight line's end and walked only once it
leads; at least as strong as full after the two fixes below; records change on purpose:
``DIGESTS`` are the former ``FAST_DIGESTS``).  ``FULL_DIGESTS``: the same matches with
``greedy_search=full`` (every candidate walked before it is scored; the default before).
Just before, two fixes of the same round changed records on purpose: the sightline (two
stands stand to stand are looked at from whichever of the two is near the axis, not only
from the lower index, so that the greedy's choices are point-symmetric) and the impulsive
move that no longer stays 0 cm at a foot whose climb cannot land (it climbs to a side
landing or goes round by a corner).  Earlier changes on purpose: the lookahead's fourth
plan, hold (``lookahead_k`` = 4), the climb candidates beside the straight landing (two
figurines at the two feet of one element no longer block each other's climb), the second
climbing and virus round (a figurine at the foot climbs at its next turn,
``climb_next``; a climb's landing meets no second high element; the greedy Attacker's
virus work, helpers and deployment) and ``97a5658`` (the climbing fix: a climb carries
the figurine over the element however short the move asked and lands its stand clear of
it; a taken landing keeps it at the foot; a walk backed off from a stand is an ordinary
stop).  A rule or AI change that alters records on purpose takes new digests: say so in
the commit.
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
#: (policies, scenario, matches) -> digest of the records, seed 11 (default options).
DIGESTS = {
    (("greedy", "greedy"), "border_skirmish", 300): "fed1c5f632cfde40",
    (("greedy", "greedy"), "virus_raid", 300): "e779452f2f732e5b",
    (("greedy", "random"), "border_skirmish", 300): "7deaae238b86d74c",
    (("random", "random"), "virus_raid", 300): "a2492a2f782d29a5",
    (("lookahead", "greedy"), "border_skirmish", 12): "f78618bc60bc93c9",
    (("lookahead", "greedy"), "virus_raid", 12): "ae31c3fd1fcd10c6",
}


#: The same keys with ``--opt greedy_search=full`` (random vs random plays no greedy: the
#: same digest).
FULL_DIGESTS = {
    (("greedy", "greedy"), "border_skirmish", 300): "3f7be93f4ffb6c67",
    (("greedy", "greedy"), "virus_raid", 300): "a2aa0099c764e7a5",
    (("greedy", "random"), "border_skirmish", 300): "c74cdacf2e9f66e1",
    (("random", "random"), "virus_raid", 300): "a2492a2f782d29a5",
    (("lookahead", "greedy"), "border_skirmish", 12): "831718f7c3cfba00",
    (("lookahead", "greedy"), "virus_raid", 12): "61bdad0d2a6dc482",
}


def digest(policies: tuple[str, str], scenario: str, n: int, search: str | None = None) -> str:
    """The digest of ``n`` matches, seed 11 (``search``: ``greedy_search``, else the default)."""
    options = {} if search is None else {"greedy_search": search}
    setup = prepare("d20", *LISTS, policies=policies, scenario=scenario, options=options)
    rec, urec = run_records(ENGINE, setup, n, 11, threads=2)
    return hashlib.sha256(rec.tobytes() + urec.tobytes()).hexdigest()[:16]


@pytest.mark.slow
@pytest.mark.parametrize("key", list(DIGESTS), ids=[f"{a}-{b}-{s}" for (a, b), s, _ in DIGESTS])
def test_records_match_the_fingerprint(key: tuple[tuple[str, str], str, int]) -> None:
    assert digest(*key) == DIGESTS[key]


@pytest.mark.slow
@pytest.mark.parametrize(
    "key", list(FULL_DIGESTS), ids=[f"full-{a}-{b}-{s}" for (a, b), s, _ in FULL_DIGESTS]
)
def test_full_search_records_match_its_fingerprint(key: tuple[tuple[str, str], str, int]) -> None:
    assert digest(*key, search="full") == FULL_DIGESTS[key]
