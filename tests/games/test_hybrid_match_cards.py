"""Hybrid match engine: Action Cards ("Action Cards": dealing, Action points, Hindrance,
a card per warrior destroyed by the enemy) and Event counters ("Event counters", "Trap
counters") on hand-built boards with scripted D10s (exact outcomes)."""

from __future__ import annotations

from analyzer.games.hybrid.match import layout as L
from analyzer.games.hybrid.match.engine import ENGINE
from analyzer.games.hybrid.match.sandbox import Sandbox
from analyzer.match import trace_match
from analyzer.match.runner import run_records
from tests.games.test_hybrid_match_rules import (
    B_HYBRID,
    BRUTE,
    HYBRID,
    KNAVE,
    files,  # noqa: F401  (the module's fixture)
    setup_with,
)


def carded(files) -> Sandbox:  # noqa: F811
    return Sandbox(setup_with(files, action_cards=True))


def card_rows(box: Sandbox) -> list[tuple[int, int, int, int]]:
    """(side, warrior, points, role) of each Action Card event."""
    return [(int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in box.events() if r[0] == L.E_CARD]


def test_action_points_raise_the_sl_and_a_hindrance_lowers_it(files) -> None:  # noqa: F811
    """The Hybrid strikes at SL 5; his 2-point card makes it 7, the enemy's 1-point
    Hindrance 6; a 6 then succeeds (it would fail at SL 5)."""
    box = carded(files)
    box.place(HYBRID, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south")
    box.give(0, 2)
    box.give(1, 1)
    box.script([6])
    box.strike(HYBRID, B_HYBRID, 1)
    assert box.wounds(B_HYBRID) == 1
    strike = next(r for r in box.events() if r[0] == L.E_STRIKE)
    assert int(strike[7]) == 6  # the SL rolled against
    assert card_rows(box) == [(0, HYBRID, 2, 0), (1, B_HYBRID, 1, 1)]
    assert box.hand(0) == [0] * 5 and box.hand(1) == [0] * 5


def test_a_zero_card_keeps_the_right_to_answer_a_hindrance(files) -> None:  # noqa: F811
    """The Brute's Expert Strike from the rear is at SL 9, where a point more gains
    nothing: holding a 0 and a 1 he plays the 0 (to keep the right to answer); the
    enemy's 2-point Hindrance makes it 7 and he answers with the 1: SL 8."""
    box = carded(files)
    box.place(BRUTE, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "north")  # his back to the Brute
    box.script([10])
    box.strike(BRUTE, B_HYBRID, 4)
    base = int(next(r for r in box.events() if r[0] == L.E_STRIKE)[7])
    assert base == 9
    n0 = len(box.events())
    box.give(0, 0, 1)
    box.give(1, 2)
    box.script([10])
    box.strike(BRUTE, B_HYBRID, 4)
    rows = [
        (int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in box.events()[n0:] if r[0] == L.E_CARD
    ]
    assert rows == [(0, BRUTE, 0, 0), (1, B_HYBRID, 2, 1), (0, BRUTE, 1, 2)]
    strike = next(r for r in box.events()[n0:] if r[0] == L.E_STRIKE)
    assert int(strike[7]) == 8


def test_a_card_owed_per_warrior_destroyed_by_the_enemy(files) -> None:  # noqa: F811
    """Destroying an enemy warrior owes his side a card, drawn before the next roll
    (a deck of one 3-point card here); the deck spent, nothing more is drawn."""
    box = carded(files)
    box.place(HYBRID, 5, 5, "north")
    box.place(B_HYBRID, 5, 4, "south", wounds=2)
    for v in range(5):
        box.g[L.G_DECK + v] = 0
    box.g[L.G_DECK + 3] = 1
    box.script([1])
    box.strike(HYBRID, B_HYBRID, 1)
    assert not box.alive(B_HYBRID) and box.g[L.G_PENDING + 1] == 1
    box.place(KNAVE, 5, 4, "south")
    box.script([10])
    box.strike(HYBRID, KNAVE, 1)
    assert (1, -1, 3, 3) in card_rows(box)  # B drew the 3
    assert box.g[L.G_PENDING + 1] == 0 and sum(box.g[L.G_DECK : L.G_DECK + 5]) == 0


def test_dealing_four_cards_or_three_after_a_rejected_hand(files) -> None:  # noqa: F811
    """ "Dealing": 4 cards each; a hand below 6 points is put under the deck for 3."""
    for seed in range(6):
        box = carded(files)
        box.rng[:] = [seed + 1, 7, 3, 9, 0, 0]
        box.deal()
        total = sum(box.g[L.G_DECK : L.G_DECK + 5]) + sum(box.g[L.G_BOTTOM : L.G_BOTTOM + 5])
        total += sum(box.hand(0)) + sum(box.hand(1))
        assert total == 25
        for side in range(2):
            dealt = [r for r in card_rows(box) if r[0] == side]
            first = dealt[0][2]
            assert sum(box.hand(side)) == (3 if first < 6 else 4)
            assert (len(dealt) == 2) == (first < 6)


def test_matches_with_action_cards_play_them(files) -> None:  # noqa: F811
    """Whole greedy matches with the option: cards are dealt, played and drawn, and the
    invariants hold."""
    setup = setup_with(files, action_cards=True, check_invariants=True)
    rec, _ = run_records(ENGINE, setup, 20, seed=3, threads=1)
    assert (rec[:, 7] == 0).all()  # no invariant violations
    text = "\n".join(trace_match("hybrid", setup, 2, 3))
    assert "dealt (hand of 4" in text and "Action Card" in text and " played" in text


def test_event_counters_trap_and_card_alternate(files) -> None:  # noqa: F811
    """A Trap: a Natural Roll at SL + 3 (Hybrid NV 3: 6); a 7 fails: an unavoidable
    wound; the counter is removed.  The same side may not activate the next counter
    before the enemy has activated one."""
    box = Sandbox(setup_with(files, event_worth=10))
    box.place(HYBRID, 5, 5, "north")
    box.cell[5, 5] = 5  # a Trap
    box.cell[9, 9] = 4  # an Event counter
    box.cell[2, 2] = 4
    box.g[L.G_EV_LEFT] = 3
    box.g[L.G_TRAPS_LEFT] = 1
    box.script([7])
    box.event_counter(HYBRID)
    ev = next(r for r in box.events() if r[0] == L.E_EVENT)
    assert int(ev[6]) == 1 and int(ev[8]) == 6  # a Trap, SL 6
    assert box.wounds(HYBRID) == 1 and box.cell[5, 5] == 0
    box.place(HYBRID, 9, 9, "north")
    box.event_counter(HYBRID)
    assert box.cell[9, 9] == 4  # A activated the last one
    box.place(B_HYBRID, 2, 2, "south")
    box.event_counter(B_HYBRID)
    assert box.cell[2, 2] == 0 and box.g[L.G_EVENT_CARDS + 1] == 1
    box.event_counter(HYBRID)
    assert box.cell[9, 9] == 0 and box.g[L.G_EVENT_CARDS] == 1


def test_greedy_walks_to_an_event_counter_with_event_seek(files) -> None:  # noqa: F811
    """event_seek: greedy's plans ending on an Event counter its side may activate gain
    the counter's worth (event_worth 2 wounds here, no Trap): the lone Hybrid ends his
    turn on the counter 3 squares to his side and draws the Event Card; without the
    option he walks on toward the enemy and the counter stays."""
    for seek, taken in (("a", True), ("none", False)):
        box = Sandbox(setup_with(files, event_seek=seek, event_worth=20))
        box.place(HYBRID, 5, 12, "north")
        box.place(B_HYBRID, 5, 0, "south")
        box.cell[12, 2] = 4
        box.g[L.G_EV_LEFT] = 1
        box.activate(HYBRID)
        assert (box.cell[12, 2] == 0) == taken
        assert box.g[L.G_EVENT_CARDS] == (1 if taken else 0)
        assert (box.pos(HYBRID) == (2, 12)) == taken
