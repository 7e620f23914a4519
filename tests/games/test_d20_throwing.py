"""d20 skirmish "3.6 Acting on objects", "Throwing Objects": one rule per test on
hand-built positions with scripted D20s, then the sample warehouse scenario.

The cards, lists and test ground are those of ``test_d20_match_rules``, with two loose
objects added: a chair (DL 5, 2 cm across) and a crate (DL 10, 4 cm across).  The
Brawler has Power 9: it lifts the chair (range 9 - 5 = 4 cm) but not the crate."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.errors import InputError
from analyzer.games.d20.match import layout as L
from analyzer.games.d20.match.engine import ENGINE
from analyzer.match import prepare
from analyzer.match.runner import run_records, trace_events
from tests.games.test_d20_match_rules import (
    A0,
    A_BRAWL,
    B0,
    B1,
    LISTS,
    SCENARIO,
    write_files,
)
from tests.games.test_d20_match_rules import make as rules_box

OBJECTS = """
objects:
  - {name: chair, x: 60, y: 20, dl: 5, size: 2}
  - {name: crate, x: 90, y: 20, dl: 10, size: 4}
"""
CHAIR, CRATE = 0, 1


@pytest.fixture(scope="module")
def throw_files(tmp_path_factory):
    """``test_d20_match_rules``' files and ``throw.yaml``: its test ground with the objects."""
    d = write_files(tmp_path_factory.mktemp("d20throw"))
    (d / "throw.yaml").write_text(SCENARIO.replace("OBJ", "elimination") + OBJECTS)
    return d


def make(folder, **options):
    return rules_box(folder, "throw.yaml", **options)


def throws(box):
    return [r for r in box.events() if r[0] == L.E_THROW]


def ready_to_throw(throw_files):
    """The Brawler at (50, 40) facing +y touching the chair (centres 2 cm apart, within
    1.25 + 1 + 0.2), a Target 3.5 cm away edge to edge (centre at y 46), facing it."""
    box = make(throw_files)
    box.place(A_BRAWL, 50, 40, facing=90)
    box.place_object(CHAIR, 50, 38)
    box.place(B0, 50, 46, facing=-90)
    return box


def test_throw_damage_is_dl_plus_power_plus_d20_against_pd(throw_files):
    """DL 5 + Power 9 + D20 12 = 26 vs PD 20: 6 CP; the chair lands at the Target's feet
    on the thrower's side (centre 1.25 + 1 + 0.05 cm from the Target's)."""
    box = ready_to_throw(throw_files)
    box.script([12])
    assert box.throw(A_BRAWL, B0, CHAIR) == 1
    assert box.cp(B0) == 40 - 6
    t = throws(box)[0]
    assert (t[3], t[4], t[5]) == (A_BRAWL, B0, CHAIR)
    assert (t[6], t[7], t[8], t[9], t[11]) == (12, 26, 20, 6, 5)
    assert box.object_pos(CHAIR) == pytest.approx((50, 46 - 2.3))
    assert any("throws a chair (DL 5)" in line for line in box.lines())


def test_a_throw_that_does_not_beat_pd_misses(throw_files):
    box = ready_to_throw(throw_files)
    box.script([6])  # 5 + 9 + 6 = 20 vs 20: equal misses, as for a shot
    assert box.throw(A_BRAWL, B0, CHAIR) == 1
    assert box.cp(B0) == 40
    assert throws(box)[0][9] == 0
    assert box.object_pos(CHAIR) == pytest.approx((50, 43.7))  # it lands all the same


def test_throwing_range_is_power_minus_dl(throw_files):
    """Power 9 - DL 5 = 4 cm, edge to edge like a Reach: 4.0 cm is in range, 4.1 is not."""
    box = ready_to_throw(throw_files)
    box.place(B0, 50, 46.5, facing=-90)  # gap 6.5 - 2.5 = 4.0
    box.script([12])
    assert box.throw(A_BRAWL, B0, CHAIR) == 1
    box.place_object(CHAIR, 50, 38)
    box.place(B0, 50, 46.6, facing=-90)
    assert box.throw(A_BRAWL, B0, CHAIR) == -4


def test_an_object_needs_power_at_least_its_dl(throw_files):
    """The crate (DL 10) is beyond the Brawler's Power 9, however close the target."""
    box = ready_to_throw(throw_files)
    box.place_object(CRATE, 50, 37)
    assert box.throw(A_BRAWL, B0, CRATE) == -2


def test_only_an_object_the_stand_touches_can_be_thrown(throw_files):
    box = ready_to_throw(throw_files)
    box.place_object(CHAIR, 50, 37.5)  # centres 2.5 cm apart: 0.25 cm between the edges
    assert box.throw(A_BRAWL, B0, CHAIR) == -3


def test_no_throw_in_hth(throw_files):
    """A throw is a Shot: a figurine in contact with an enemy does not throw."""
    box = ready_to_throw(throw_files)
    box.place(B1, 52.5, 40, facing=180)  # touching the Brawler's side
    assert box.throw(A_BRAWL, B0, CHAIR) == -1


def test_a_throw_needs_the_front_arc_and_a_sightline(throw_files):
    box = ready_to_throw(throw_files)
    box.place(A_BRAWL, 50, 40, facing=-90)  # its back to the Target
    assert box.throw(A_BRAWL, B0, CHAIR) == -5
    box.place(A_BRAWL, 50, 40, facing=90)
    box.place(A0, 55, 46, facing=180)
    box.place(B0, 52.5, 46, facing=-90)  # in HtH with A0 (same stand size): no target
    assert box.throw(A_BRAWL, B0, CHAIR) == -5


def test_throw_in_the_back_and_in_cover(throw_files):
    """ "Shooting in the back" +1 and the target's cover +1 PD (slight: the hedge at y 67-68)."""
    box = make(throw_files)
    box.place(A_BRAWL, 50, 63.5, facing=90)
    box.place_object(CHAIR, 50, 61.5)
    box.place(B0, 50, 69.5, facing=90)  # gap 3.5, looking away, behind the hedge
    box.script([12])
    assert box.throw(A_BRAWL, B0, CHAIR) == 1
    t = throws(box)[0]
    assert (t[7], t[8], t[9], t[10]) == (5 + 9 + 1 + 12, 20 + 1, 6, 1 + 8 * 1)
    assert box.cp(B0) == 34


def test_a_thrown_object_can_be_thrown_again(throw_files):
    box = ready_to_throw(throw_files)
    box.script([12, 15])
    box.throw(A_BRAWL, B0, CHAIR)  # the chair lands at (50, 43.7)
    assert box.throw(A_BRAWL, B0, CHAIR) == -3  # 3.7 cm away now
    box.place(A_BRAWL, 50, 41.5, facing=90)  # touching it again, 2.0 cm from the Target
    assert box.throw(A_BRAWL, B0, CHAIR) == 1
    assert box.cp(B0) == 40 - 6 - (5 + 9 + 15 - 20)


def test_greedy_throws_when_it_has_nothing_better(throw_files):
    """The Brawler has only a HtH weapon: out of contact, the chair is its attack (kind 3 +
    object); the random policy draws it too, being its only choice."""
    box = ready_to_throw(throw_files)
    assert box.best_attack(A_BRAWL) == (3 + CHAIR, B0, 0)
    assert box.best_attack(A_BRAWL, "random") == (3 + CHAIR, B0, 0)
    box.place_object(CHAIR, 60, 20)
    assert box.best_attack(A_BRAWL)[0] == 0


def test_greedy_walks_to_an_object_and_throws_it(throw_files):
    """The Brawler (Movement 12) 8 cm from the chair, a Target 6 cm beyond it: it moves
    to touch the chair on the Target's side and throws it in its Action/Shot phase."""
    box = make(throw_files)
    box.place(A_BRAWL, 50, 28, facing=90)
    box.place_object(CHAIR, 50, 36)
    box.place(B0, 50, 44.6, facing=-90)
    box.script([12] * 8)
    box.movement_phase(0)
    box.action_phase(0)
    assert [(t[3], t[5]) for t in throws(box)] == [(A_BRAWL, CHAIR)]


def test_objects_off_the_table_are_refused(throw_files):
    bad = SCENARIO.replace("OBJ", "elimination") + OBJECTS.replace("x: 90", "x: 119.5")
    (throw_files / "bad.yaml").write_text(bad)
    with pytest.raises(InputError, match=r"objects\[1\] \(crate\)\.x: 119\.5"):
        rules_box(throw_files, "bad.yaml")


def test_an_object_off_the_table_is_an_invariant_violation(throw_files):
    box = ready_to_throw(throw_files)
    assert box.violations() == 0
    box.place_object(CRATE, 120.5, 20)
    assert box.violations() == 1


# ------------------------------------------------------------------ the warehouse
def warehouse(pa="greedy", pb="greedy", **options):
    """The sample Genetic hunters (A: a Maïnomaï, Power 14, and a Brute, Power 11, who
    lift crates and chairs) against the Trooper section on the warehouse brawl."""
    return prepare(
        "d20",
        LISTS / "genetic_hunters.yaml",
        LISTS / "trooper_section.yaml",
        policies=(pa, pb),
        scenario="warehouse_brawl",
        options=options,
    )


@pytest.mark.parametrize("policies", [("greedy", "greedy"), ("random", "random")])
def test_warehouse_matches_throw_by_the_rule_and_keep_the_invariants(policies):
    """Every traced throw of 30 matches adds DL + Power + D20 (+1 in the back) against
    the PD and removes the margin; the invariant checker finds nothing in 300 matches."""
    setup = warehouse(*policies)
    rec, _ = run_records(ENGINE, setup, 300, 5, threads=2, check=True)
    assert rec[:, 7].sum() == 0
    fi = setup.arrays[0]
    seen = 0
    for k in range(30):
        events, rec_k, _ = trace_events(ENGINE, setup, k, 5)
        assert np.array_equal(rec_k, rec[k])
        for t in events[events[:, 0] == L.E_THROW]:
            i, dl, r, total, pd, dmg, flags = t[3], t[11], t[6], t[7], t[8], t[9], t[10]
            assert total == dl + fi[i, L.F_POWER] + r + (flags & 1)
            assert dl <= fi[i, L.F_POWER]
            assert dmg == max(total - pd, 0)
            seen += 1
    assert seen >= 5


def test_warehouse_fixed_edge_mirror_has_no_deployment_bias():
    """The Genetic hunters mirror on the warehouse (Brute and Maïnomaï throw), edges
    fixed, first player alternated: margin 0 within 5 standard errors."""
    setup = prepare(
        "d20",
        LISTS / "genetic_hunters.yaml",
        LISTS / "genetic_hunters.yaml",
        policies=("greedy", "greedy"),
        scenario="warehouse_brawl",
        options={"first": "alternate"},
    )
    rec, _ = run_records(ENGINE, setup, 600, 21, threads=2)
    margin = (rec[:, 1] - rec[:, 2]).astype(float)
    se = margin.std(ddof=1) / np.sqrt(len(margin))
    assert se > 0.0
    assert abs(margin.mean()) <= 5.0 * se
