# mypy: ignore-errors
"""Battlefield geometry for the match engine: distances, contact, line of sight, cover, paths.

Conventions (rulebook ``rapture.txt``):

* Coordinates in cm on the 90 x 90 cm battlefield ("Measure the Battlefield"); bases are
  circles of the card's diameter; terrain pieces are axis-aligned rectangles.
* Distances are measured base edge to base edge ("Measure Properly!"); two bases (or a
  base and a terrain piece) are in contact (B2B) when that distance is at most
  ``layout.CONTACT``.
* Line of sight ("Determine Line of Sight!") is drawn along a *sight corridor*: ``nlines``
  segments joining matching points of the two bases (the centre line and lines through
  90% of each radius on both sides).  A segment is blocked by a terrain piece that blocks
  LoS (buildings, or any piece a scenario marks) when it passes through the piece's
  interior, and by the base of a model tied in close combat ("A LoS cannot be drawn through
  close combats").  The target is visible when at least one segment is clear.
* Cover ("3. Cover through Obstacles", the stated geometric rule): a visible target is
  *partly covered* by a cover-giving piece when at least one sight segment passes through
  the piece.  The piece does not count when the attacker is in contact with it, unless the
  target is in contact with the same piece (examples C and E).  Models never give cover.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from analyzer.dice.random_nb import next_u64, roll_die
from analyzer.games.rapture.match.context_nb import (
    INLINE,
    INNER,
    xG,
    xMF,
    xMI,
    xSF,
    xSI,
    xTER,
    xUS,
    xWS,
)
from analyzer.games.rapture.match.layout import (
    BOARD,
    CONTACT,
    G_MATCH,
    G_NT,
    GEO_CX,
    GEO_CY,
    GEO_DIST,
    GEO_MAXC,
    GEO_NEXT,
    GEO_SDIST,
    GEO_SFIRST,
    GEO_SLOT,
    GEO_SLOTS,
    GEO_SOLID,
    GEO_SORDER,
    GEO_START,
    MF_X,
    MF_Y,
    MI_ALIVE,
    MI_ENG,
    SF_R,
    SI_SIDE,
    SI_UNIT,
    TBLOCK,
    TCOVER,
    TSOLID,
    TX0,
    TX1,
    TY0,
    TY1,
    US_OWN_HI,
    US_OWN_LO,
    US_SIDE,
    WS_GEO,
)

_INF = 1e30


@njit(**INNER)
def die(rng, sides):
    """One die of ``sides`` faces from the match generator: ``roll_die``, which numba inlines,
    typed here once instead of at every call site (cold compile)."""
    return roll_die(rng, sides)


@njit(**INNER)
def uniform(rng):
    """A float in [0, 1) from the match generator (53 random bits)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(**INNER)
def side_models(X, side):
    """The model range ``[lo, hi)`` of ``side``: models are numbered side by side, so a loop
    over it visits the same models in the same order as a loop over all models that skips
    the other side's (side 0's range ends at unit 0's ``US_OWN_HI`` when unit 0 is side 0's,
    else side 0 has no models).  ``INNER``, not ``INLINE``: numba types an inlined helper
    again at every call site, and two of the three are inlined themselves (cold compile)."""
    US = xUS(X)
    n0 = US[0, US_OWN_HI] if US[0, US_SIDE] == 0 else US[0, US_OWN_LO]  # no side-0 models: 0
    if side == 0:
        return np.int64(0), n0
    return n0, np.int64(xSI(X).shape[0])


@njit(**INNER)
def edge_distance(x0, y0, r0, x1, y1, r1):
    """Base edge to base edge ("Measure Properly!"); negative when the bases overlap."""
    return math.sqrt((x1 - x0) ** 2 + (y1 - y0) ** 2) - r0 - r1


@njit(**INNER)
def bases_within(MF, SF, a, b, gap):
    """The bases of models ``a`` and ``b`` are at most ``gap`` apart (edge to edge); far
    pairs are rejected on one axis first, without the square root."""
    reach = SF[a, SF_R] + SF[b, SF_R] + gap + 1e-6
    if abs(MF[b, MF_X] - MF[a, MF_X]) > reach or abs(MF[b, MF_Y] - MF[a, MF_Y]) > reach:
        return False
    return (
        edge_distance(MF[a, MF_X], MF[a, MF_Y], SF[a, SF_R], MF[b, MF_X], MF[b, MF_Y], SF[b, SF_R])
        <= gap
    )


@njit(**INNER)
def circle_rect_gap(px, py, r, x0, y0, x1, y1):
    """Distance from a base's edge to a rectangle (negative: the base overlaps it)."""
    dx = max(x0 - px, 0.0, px - x1)
    dy = max(y0 - py, 0.0, py - y1)
    if dx > 0.0 or dy > 0.0:
        return math.sqrt(dx * dx + dy * dy) - r
    inside = min(px - x0, x1 - px, py - y0, y1 - py)
    return -inside - r


@njit(**INNER)
def seg_rect(x0, y0, x1, y1, rx0, ry0, rx1, ry1):
    """Parameters (t_in, t_out) of the segment inside the open rectangle; t_in >= t_out: none.

    Bounding boxes are compared first (most pieces are nowhere near a given segment); the
    answer is the same, since rounding cannot move a slab across the rectangle's edge."""
    if max(x0, x1) <= rx0 or min(x0, x1) >= rx1 or max(y0, y1) <= ry0 or min(y0, y1) >= ry1:
        return 1.0, 0.0
    t0, t1 = _slab(np.float64(0.0), np.float64(1.0), x0, x1 - x0, rx0, rx1)
    return _slab(t0, t1, y0, y1 - y0, ry0, ry1)


@njit(**INNER)
def _slab(t0, t1, p0, d, lo, hi):
    """(t0, t1) narrowed to where p0 + t d lies strictly between lo and hi (one axis)."""
    if abs(d) < 1e-12:
        if p0 <= lo or p0 >= hi:
            return 1.0, 0.0
        return t0, t1
    ta = (lo - p0) / d
    tb = (hi - p0) / d
    if ta > tb:
        ta, tb = tb, ta
    return max(t0, ta), min(t1, tb)


@njit(**INNER)
def seg_hits_rect(x0, y0, x1, y1, rx0, ry0, rx1, ry1):
    """True when the segment passes through the rectangle's interior."""
    t0, t1 = seg_rect(x0, y0, x1, y1, rx0, ry0, rx1, ry1)
    return t1 - t0 > 1e-9


@njit(**INNER)
def seg_point_distance(x0, y0, x1, y1, px, py):
    """Distance from a point to a segment, and the segment parameter of the closest point."""
    dx = x1 - x0
    dy = y1 - y0
    ll = dx * dx + dy * dy
    t = np.float64(0.0)
    if ll > 0.0:
        t = min(max(((px - x0) * dx + (py - y0) * dy) / ll, 0.0), 1.0)
    qx = x0 + t * dx - px
    qy = y0 + t * dy - py
    return math.sqrt(qx * qx + qy * qy), t


@njit(**INNER)
def first_contact(px, py, vx, vy, cx, cy, rr):
    """First t in [0, 1] at which a point moving p + t v comes within ``rr`` of c (2.0: never).

    A point already within ``rr`` that moves towards c is blocked at once (t = 0); one that
    moves away is free.
    """
    fx = px - cx
    fy = py - cy
    c = fx * fx + fy * fy - rr * rr
    b = fx * vx + fy * vy
    if c <= 1e-9:
        return 0.0 if b < 0.0 else 2.0
    a = vx * vx + vy * vy
    if a < 1e-18 or b >= 0.0:
        return 2.0
    disc = b * b - a * c
    if disc < 0.0:
        return 2.0
    t = (-b - math.sqrt(disc)) / a
    if t < 0.0 or t > 1.0:
        return 2.0
    return t


@njit(**INNER)
def corridor_line(ax, ay, ar, bx, by, br, k, nlines):
    """The k-th sight segment of the corridor between two bases."""
    if nlines == 1:
        return ax, ay, bx, by
    dx = bx - ax
    dy = by - ay
    ll = math.sqrt(dx * dx + dy * dy)
    if ll < 1e-9:
        return ax, ay, bx, by
    nx = -dy / ll
    ny = dx / ll
    s = -0.9 + 1.8 * k / (nlines - 1)
    return ax + s * ar * nx, ay + s * ar * ny, bx + s * br * nx, by + s * br * ny


@njit(**INNER)
def sight(X, ma, mb, ax, ay, bx, by, nlines):
    """Line of sight and cover from model ``ma`` standing at (ax, ay) to model ``mb`` at (bx, by)
    in the match of context ``X``.

    Returns -1 (no LoS), 0 (visible, no cover) or 1 (visible, cover through obstacles).
    Models tied in close combat, other than the two, block the corridor; see the module
    docstring for the cover rule.  Takes the context, not its arrays: five arrays passed
    by value cost about as much as the test (and their views index with constant strides).
    """
    TER = xTER(X)
    nt = xG(X)[G_NT]
    MF = xMF(X)
    MI = xMI(X)
    SF = xSF(X)
    n_models = xSI(X).shape[0]
    ar = SF[ma, SF_R]
    br = SF[mb, SF_R]
    blocked = np.int64(0)  # bit mask of blocked sight segments
    cover = np.bool_(False)
    full = (1 << nlines) - 1
    for p in range(nt):
        x0 = TER[p, TX0]
        y0 = TER[p, TY0]
        x1 = TER[p, TX1]
        y1 = TER[p, TY1]
        # quick rejection: piece outside the corridor's bounding box
        lo_x = min(ax - ar, bx - br)
        hi_x = max(ax + ar, bx + br)
        lo_y = min(ay - ar, by - br)
        hi_y = max(ay + ar, by + br)
        if x1 <= lo_x or x0 >= hi_x or y1 <= lo_y or y0 >= hi_y:
            continue
        gives_cover = TER[p, TCOVER] > 0.5
        blocks = TER[p, TBLOCK] > 0.5
        if not gives_cover and not blocks:
            continue
        hit = np.int64(0)
        for k in range(nlines):
            sx0, sy0, sx1, sy1 = corridor_line(ax, ay, ar, bx, by, br, k, nlines)
            if seg_hits_rect(sx0, sy0, sx1, sy1, x0, y0, x1, y1):
                hit |= 1 << k
        if hit == 0:
            continue
        if blocks:
            blocked |= hit
        if gives_cover:
            att_touch = circle_rect_gap(ax, ay, ar, x0, y0, x1, y1) <= CONTACT
            tgt_touch = circle_rect_gap(bx, by, br, x0, y0, x1, y1) <= CONTACT
            if tgt_touch or not att_touch:
                cover = np.bool_(True)
    if blocked == full:
        return -1
    # close combats block the corridor
    lo_x = min(ax - ar, bx - br)
    hi_x = max(ax + ar, bx + br)
    lo_y = min(ay - ar, by - br)
    hi_y = max(ay + ar, by + br)
    for m in range(n_models):
        if MI[m, MI_ENG] == 0 or MI[m, MI_ALIVE] == 0 or m in (ma, mb):
            continue
        cx = MF[m, MF_X]
        cy = MF[m, MF_Y]
        rr = SF[m, SF_R]
        # every sight segment lies in the corridor's bounding box: a base farther than its
        # radius from the box is at least that far from each segment
        if cx + rr < lo_x or cx - rr > hi_x or cy + rr < lo_y or cy - rr > hi_y:
            continue
        for k in range(nlines):
            if blocked & (1 << k):
                continue
            sx0, sy0, sx1, sy1 = corridor_line(ax, ay, ar, bx, by, br, k, nlines)
            d, t = seg_point_distance(sx0, sy0, sx1, sy1, cx, cy)
            if d < rr - 1e-6 and 0.0 < t < 1.0:
                blocked |= 1 << k
        if blocked == full:
            return -1
    return 1 if cover else 0


@njit(**INNER)
def line_of_fire(MF, MI, SI, SF, n_models, ma, mb, nlines):
    """ "Getting into the Line of Fire": the opposing model closest to the target in the way.

    A model of the target's side, not of the target's unit, not tied in close combat, whose
    base crosses the sight corridor strictly between attacker and target.  -1: none.
    """
    ax = MF[ma, MF_X]
    ay = MF[ma, MF_Y]
    bx = MF[mb, MF_X]
    by = MF[mb, MF_Y]
    ar = SF[ma, SF_R]
    br = SF[mb, SF_R]
    side = SI[mb, SI_SIDE]
    unit = SI[mb, SI_UNIT]
    best = np.int64(-1)
    best_d = _INF
    for m in range(n_models):
        if MI[m, MI_ALIVE] == 0 or SI[m, SI_SIDE] != side or SI[m, SI_UNIT] == unit:
            continue
        if MI[m, MI_ENG] > 0:
            continue
        cx = MF[m, MF_X]
        cy = MF[m, MF_Y]
        rr = SF[m, SF_R]
        crosses = np.bool_(False)
        for k in range(nlines):
            sx0, sy0, sx1, sy1 = corridor_line(ax, ay, ar, bx, by, br, k, nlines)
            d, t = seg_point_distance(sx0, sy0, sx1, sy1, cx, cy)
            if d < rr and 0.0 < t < 1.0:
                crosses = np.bool_(True)
                break
        if not crosses:
            continue
        dt = math.sqrt((cx - bx) ** 2 + (cy - by) ** 2)
        if dt < best_d:
            best_d = dt
            best = m
    return best


# ------------------------------------------------------------------ paths
@njit(**INNER)
def solid_clear(TER, nt, x0, y0, x1, y1, infl):
    """True when the segment crosses no solid piece (buildings, impassable) grown by ``infl``."""
    for p in range(nt):
        if TER[p, TSOLID] < 0.5:
            continue
        if seg_hits_rect(
            x0,
            y0,
            x1,
            y1,
            TER[p, TX0] - infl + 1e-3,
            TER[p, TY0] - infl + 1e-3,
            TER[p, TX1] + infl - 1e-3,
            TER[p, TY1] + infl - 1e-3,
        ):
            return False
    return True


@njit(**INNER)
def point_free_of_solids(TER, nt, x, y, r):
    """True when a base at (x, y) overlaps no solid piece and lies on the battlefield."""
    if x < r or y < r or x > BOARD - r or y > BOARD - r:
        return False
    for p in range(nt):
        if TER[p, TSOLID] < 0.5:
            continue
        # a centre farther than r (and a margin far above rounding) from the piece on one
        # axis keeps the base off it: circle_rect_gap would be positive
        if x < TER[p, TX0] - r - 1e-6 or x > TER[p, TX1] + r + 1e-6:
            continue
        if y < TER[p, TY0] - r - 1e-6 or y > TER[p, TY1] + r + 1e-6:
            continue
        if circle_rect_gap(x, y, r, TER[p, TX0], TER[p, TY0], TER[p, TX1], TER[p, TY1]) < 0.0:
            return False
    return True


@njit(**INNER)
def corner_slot(TER, nt, r, WS, key):
    """Offset in ``WS`` of the path-planning cache for radius ``r`` in match ``key`` (see
    ``layout.WS_GEO``), filled on first use (in a scratch slot, filled afresh, once every
    slot holds another radius of this match).  Corners are numbered in piece order, as
    :func:`plan_path` numbers its nodes.
    """
    tag = np.float64(key + 1)
    b = np.int64(WS_GEO + GEO_SLOTS * GEO_SLOT)
    for s in range(GEO_SLOTS - 1, -1, -1):
        bs = WS_GEO + s * GEO_SLOT
        if WS[bs] == tag:
            if WS[bs + 1] == r:
                return bs
        else:
            b = bs
    infl = r + 0.05
    grow = infl + 0.05
    ns = np.int64(0)
    for p in range(nt):
        if TER[p, TSOLID] < 0.5:
            continue
        q = b + GEO_SOLID + 4 * ns
        WS[q] = TER[p, TX0] - infl + 1e-3
        WS[q + 1] = TER[p, TY0] - infl + 1e-3
        WS[q + 2] = TER[p, TX1] + infl - 1e-3
        WS[q + 3] = TER[p, TY1] + infl - 1e-3
        ns += 1
    cx = WS[b + GEO_CX : b + GEO_CX + GEO_MAXC]
    cy = WS[b + GEO_CY : b + GEO_CY + GEO_MAXC]
    nc = np.int64(0)
    for p in range(nt):
        if TER[p, TSOLID] < 0.5:
            continue
        for c in range(4):
            px = TER[p, TX0] - grow if c % 2 == 0 else TER[p, TX1] + grow
            py = TER[p, TY0] - grow if c < 2 else TER[p, TY1] + grow
            if point_free_of_solids(TER, nt, px, py, infl):
                cx[nc] = px
                cy[nc] = py
                nc += 1
    WS[b + GEO_START] = np.nan  # no start point searched from yet
    WS[b + 3] = ns
    _corner_paths(WS, b, nc)
    WS[b] = tag
    WS[b + 1] = r
    WS[b + 2] = nc
    return b


@njit(**INNER)
def _corner_paths(WS, b, nc):
    """Shortest paths between all corners of slot ``b`` (Floyd-Warshall over the corners
    that see each other): lengths in ``GEO_DIST``, the next corner on each path in
    ``GEO_NEXT`` (-1: no path)."""
    cx = WS[b + GEO_CX : b + GEO_CX + nc]
    cy = WS[b + GEO_CY : b + GEO_CY + nc]
    D = WS[b + GEO_DIST : b + GEO_DIST + nc * nc]
    NXT = WS[b + GEO_NEXT : b + GEO_NEXT + nc * nc]
    for i in range(nc):
        D[i * nc + i] = 0.0
        NXT[i * nc + i] = i
        for j in range(i + 1, nc):
            if slot_clear(WS, b, cx[i], cy[i], cx[j], cy[j]):
                d = math.sqrt((cx[j] - cx[i]) ** 2 + (cy[j] - cy[i]) ** 2)
                D[i * nc + j] = d
                D[j * nc + i] = d
                NXT[i * nc + j] = j
                NXT[j * nc + i] = i
            else:
                D[i * nc + j] = _INF
                D[j * nc + i] = _INF
                NXT[i * nc + j] = -1.0
                NXT[j * nc + i] = -1.0
    for k in range(nc):
        for i in range(nc):
            dik = D[i * nc + k]
            if dik == _INF or i == k:
                continue
            for j in range(nc):
                via = dik + D[k * nc + j]
                if via < D[i * nc + j]:
                    D[i * nc + j] = via
                    NXT[i * nc + j] = NXT[i * nc + k]


@njit(**INLINE)
def slot_clear(WS, b, x0, y0, x1, y1):
    """:func:`solid_clear` with the grown solid pieces of cache slot ``b``."""
    for k in range(np.int64(WS[b + 3])):
        q = b + GEO_SOLID + 4 * k
        if seg_hits_rect(x0, y0, x1, y1, WS[q], WS[q + 1], WS[q + 2], WS[q + 3]):
            return False
    return True


@njit(**INNER)
def _paths_from(WS, b, x, y):
    """Shortest distances from (x, y) to every corner of slot ``b``: to ``GEO_SDIST``, with
    the first corner of each path in ``GEO_SFIRST`` and the corners reached, nearest first,
    in ``GEO_SORDER`` (their number in ``GEO_START + 2``).  A path enters the corner graph
    at a corner the start sees and follows the precomputed corner paths."""
    nc = np.int64(WS[b + 2])
    cx = WS[b + GEO_CX : b + GEO_CX + nc]
    cy = WS[b + GEO_CY : b + GEO_CY + nc]
    D = WS[b + GEO_DIST : b + GEO_DIST + nc * nc]
    dist = WS[b + GEO_SDIST : b + GEO_SDIST + nc]
    first = WS[b + GEO_SFIRST : b + GEO_SFIRST + nc]
    order = WS[b + GEO_SORDER : b + GEO_SORDER + nc]
    WS[b + GEO_START] = x
    WS[b + GEO_START + 1] = y
    dist[:] = _INF
    first[:] = -1.0
    for i in range(nc):
        if not slot_clear(WS, b, x, y, cx[i], cy[i]):
            continue
        si = math.sqrt((cx[i] - x) ** 2 + (cy[i] - y) ** 2)
        for j in range(nc):
            d = si + D[i * nc + j]
            if d < dist[j]:
                dist[j] = d
                first[j] = i
    n = np.int64(0)
    for j in range(nc):  # insertion sort of the reached corners by distance
        if dist[j] == _INF:
            continue
        k = n
        while k > 0 and dist[np.int64(order[k - 1])] > dist[j]:
            order[k] = order[k - 1]
            k -= 1
        order[k] = j
        n += 1
    WS[b + GEO_START + 2] = n


@njit(**INNER)
def plan_path(X, x, y, gx, gy, r, wx, wy):
    """Shortest polyline from (x, y) to (gx, gy) around solid pieces; waypoints into wx, wy.

    Movement ("Impassable Terrain", "Buildings": ground models cannot enter them) may go
    around solid pieces: a visibility graph over the corners of the pieces grown by the
    base radius, searched with Dijkstra.  Returns the number of waypoints (the last is the
    goal) and the path length; when the goal cannot be reached, the direct segment.
    ``key`` identifies the match (its terrain): the grown pieces, corners, their
    visibility and the shortest paths from the last start point are cached per radius
    (:func:`corner_slot`), with the shortest paths between all corners; from a start point
    the distances to every corner are computed once (:func:`_paths_from`), and a goal is
    joined to the corners that see it, nearest first.
    """
    WS = xWS(X)
    G = xG(X)
    # the slot of this match and radius when it is filled (the same slot corner_slot finds:
    # it never fills two slots for one match and radius), else corner_slot fills one
    tag = np.float64(G[G_MATCH] + 1)
    b = np.int64(-1)
    for s in range(GEO_SLOTS):
        bs = WS_GEO + s * GEO_SLOT
        if WS[bs] == tag and WS[bs + 1] == r:
            b = bs
            break
    if b < 0:
        b = corner_slot(xTER(X), G[G_NT], r, WS, G[G_MATCH])
    if slot_clear(WS, b, x, y, gx, gy):
        wx[0] = gx
        wy[0] = gy
        return 1, math.sqrt((gx - x) ** 2 + (gy - y) ** 2)
    if WS[b + GEO_START] != x or WS[b + GEO_START + 1] != y:
        _paths_from(WS, b, x, y)
    nc = np.int64(WS[b + 2])
    cx = WS[b + GEO_CX : b + GEO_CX + nc]
    cy = WS[b + GEO_CY : b + GEO_CY + nc]
    dist = WS[b + GEO_SDIST : b + GEO_SDIST + nc]
    order = WS[b + GEO_SORDER : b + GEO_SORDER + nc]
    best = _INF
    bu = np.int64(-1)
    for k in range(np.int64(WS[b + GEO_START + 2])):  # the last corner: nearest first
        u = np.int64(order[k])
        if dist[u] >= best:
            break  # no later corner can give a shorter path
        d = math.sqrt((gx - cx[u]) ** 2 + (gy - cy[u]) ** 2)
        if dist[u] + d < best and slot_clear(WS, b, cx[u], cy[u], gx, gy):
            best = dist[u] + d
            bu = u
    if bu < 0:
        wx[0] = gx
        wy[0] = gy
        return 1, math.sqrt((gx - x) ** 2 + (gy - y) ** 2)
    # the first corner, then the corner path to the last one, then the goal
    NXT = WS[b + GEO_NEXT : b + GEO_NEXT + nc * nc]
    v = np.int64(WS[b + GEO_SFIRST + bu])
    k = np.int64(0)
    while True:
        wx[k] = cx[v]
        wy[k] = cy[v]
        k += 1
        if v == bu:
            break
        v = np.int64(NXT[v * nc + bu])
    wx[k] = gx
    wy[k] = gy
    return k + 1, best


@njit(**INNER)
def point_along(x, y, wx, wy, n, budget):
    """The point reached after ``budget`` cm along the polyline, ignoring terrain costs."""
    px = x
    py = y
    left = budget
    for i in range(n):
        dx = wx[i] - px
        dy = wy[i] - py
        ll = math.sqrt(dx * dx + dy * dy)
        if ll >= left:
            if ll > 1e-12:
                return px + dx * left / ll, py + dy * left / ll
            return px, py
        left -= ll
        px = wx[i]
        py = wy[i]
    return px, py
