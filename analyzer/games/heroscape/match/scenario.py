"""Heroscape battlefields: scenario files, hex geometry and line of sight.

A scenario file (``configs/heroscape/scenarios/*.yaml``) lists the map row by row
(pointy-top hexes, odd rows shifted half a space right); each space is a token
``<level><terrain letter>[A|B][W<h>|T<h>][^<gap>]``: its level, terrain (letters in
:data:`layout.TERRAIN_LETTERS`), start zone, an obstacle standing on it (wall or
tree, ``h`` levels tall) and an overhang over it with its gap; ``.`` is no space.

Line of sight ("Line of Sight"; the rulebook describes it by eye, so the geometry is a
stated reading, see docs/rules-choices.md): a straight segment from the attacker's
Target Point, ``height - 0.5`` levels above its base at its space's centre, to any of
three points of the target's Hit Zone (1, ``(height) / 2`` and ``height - 1`` levels
above its base); it is blocked where it passes below the top of a space, of an
obstacle, or through an overhang's slab (1 level thick above its gap).  Figures do not
block.  A level is a quarter of a space's width.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.config.yaml_io import ConfigError, load_yaml
from analyzer.games.heroscape.match import layout as L
from analyzer.match.scenarios import scenario_file
from analyzer.paths import system_config

SCENARIO_DIR = system_config("heroscape", "scenarios")
DEFAULT_SCENARIO = "open_field"
#: A level's height in units of the distance between neighbouring space centres.
LEVEL_UNITS = 0.25
TOKEN = re.compile(r"^(\d+)([a-z])([AB]?)(?:([WT])(\d+))?(?:\^(\d+))?$")
TIME_WINNERS = {"score": -1, "a": 0, "b": 1}
#: Where computed line-of-sight tables are kept between runs.
SIGHT_CACHE = Path(__file__).resolve().parent / "__pycache__"
#: The newest tables kept there (one file per map and set of figure heights).
SIGHT_CACHE_FILES = 32
_SOURCE_DIGEST = hashlib.sha1(Path(__file__).read_bytes()).digest()
_SIGHT_MEMO: dict[str, np.ndarray] = {}


@dataclass
class Scenario:
    """A parsed scenario: its map arrays and its rules."""

    name: str
    path: Path
    layout: str
    hx: np.ndarray
    glyphs: np.ndarray
    rounds: int
    time_winner: int
    traps: bool
    trap_wounds: int
    notes: list[str] = field(default_factory=list)

    @property
    def n_hex(self) -> int:
        return int(self.hx.shape[0])


def scenario_path(name: str | None) -> Path:
    """The file of scenario ``name`` (a bundled name or a path); one-line error if none."""
    return scenario_file(
        DEFAULT_SCENARIO if name is None else name, SCENARIO_DIR, what="heroscape scenario"
    )


def load_scenario(name: str | None) -> Scenario:
    """The scenario ``name`` parsed and checked (``ConfigError`` naming file and entry)."""
    path = scenario_path(name)
    return _load(path.resolve(), path.stat().st_mtime_ns)


def _need(doc: dict[str, Any], key: str, kind: type, path: Path) -> Any:
    if key not in doc:
        raise ConfigError(f"{path}: {key}: missing")
    value = doc[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ConfigError(f"{path}: {key}: must be a {kind.__name__} (got {value!r})")
    return value


@functools.lru_cache(maxsize=8)
def _load(path: Path, stamp: int) -> Scenario:
    doc = load_yaml(path)
    if not isinstance(doc, dict):
        raise ConfigError(f"{path}: the scenario must be a mapping")
    name = _need(doc, "name", str, path)
    rows = _need(doc, "rows", list, path)
    rounds = _need(doc, "rounds", int, path)
    if rounds < 1:
        raise ConfigError(f"{path}: rounds: must be >= 1 (got {rounds})")
    winner = str(doc.get("time_victory", "score"))
    if winner not in TIME_WINNERS:
        raise ConfigError(f"{path}: time_victory: must be one of score, a, b (got {winner!r})")
    spaces: list[list[int]] = []
    index: dict[tuple[int, int], int] = {}
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise ConfigError(f"{path}: rows[{r}]: must be a string of space tokens")
        for c, token in enumerate(row.split()):
            if token == ".":
                continue
            m = TOKEN.match(token)
            if m is None or m.group(2) not in L.TERRAIN_LETTERS:
                raise ConfigError(
                    f"{path}: rows[{r}] column {c}: bad space {token!r} (expected "
                    "<level><terrain letter>[A|B][W<h>|T<h>][^<gap>], letters "
                    f"{L.TERRAIN_LETTERS}, or .)"
                )
            zone = {"": 0, "A": 1, "B": 2}[m.group(3)]
            obstacle = int(m.group(5)) if m.group(4) else 0
            gap = int(m.group(6)) if m.group(6) else 0
            level = int(m.group(1))
            terrain = L.TERRAIN_LETTERS.index(m.group(2))
            index[(r, c)] = len(spaces)
            spaces.append([level, terrain, obstacle, gap, zone, r, c])
    if not spaces:
        raise ConfigError(f"{path}: rows: the map has no space")
    hx = np.full((len(spaces), L.HX_COLS), -1, dtype=np.int64)
    hx[:, : L.H_NB] = np.array(spaces, dtype=np.int64)
    for (r, c), i in index.items():
        for k, (dr, dc) in enumerate(_neighbour_steps(r)):
            hx[i, L.H_NB + k] = index.get((r + dr, c + dc), -1)
    # side B scans the map from its own edge: ties between equal choices break the
    # same way for both sides of a map symmetric about its middle row
    hx[:, L.H_ORDER_B] = np.lexsort((hx[:, L.H_COL], -hx[:, L.H_ROW]))
    hx[hx[:, L.H_ORDER_B], L.H_RANK_B] = np.arange(len(spaces))
    for i in range(len(spaces)):
        for k in range(6):
            n = hx[i, L.H_NB + k]
            up = hx[n, L.H_LEVEL] - hx[i, L.H_LEVEL]
            ok = n >= 0 and hx[n, L.H_OBSTACLE] <= 0
            hx[i, L.H_STEP + k] = 1 + max(up, 0) if ok else L.STEP_NONE
            gap = hx[n, L.H_GAP] if n >= 0 else 0
            hx[i, L.H_NGAP + k] = gap if gap > 0 else L.STEP_NONE
    tr = terrain_table()
    te = hx[:, L.H_TERRAIN]
    hx[:, L.H_STOPS] = (
        (tr[te, L.TR_MOLTEN] != 0) * 1
        + (tr[te, L.TR_STOP] != 0) * 2
        + (tr[te, L.TR_WATER] != 0) * 4
    )
    for zone, side in ((1, "A"), (2, "B")):
        if not np.any(hx[:, L.H_ZONE] == zone):
            raise ConfigError(f"{path}: rows: no start zone {side} (mark spaces with {side})")
    glyphs = _glyphs(doc.get("glyphs", []), index, hx, path)
    traps = doc.get("traps")
    trap_wounds = 0
    if traps is not None:
        if not isinstance(traps, dict) or not isinstance(traps.get("wounds"), int):
            raise ConfigError(f"{path}: traps: must be a mapping with wounds: <int>")
        trap_wounds = int(traps["wounds"])
    notes = [str(n) for n in doc.get("notes", [])]
    return Scenario(
        name=name,
        path=path,
        layout=str(doc.get("layout", "designed for the analyzer")),
        hx=hx,
        glyphs=glyphs,
        rounds=rounds,
        time_winner=TIME_WINNERS[winner],
        traps=traps is not None,
        trap_wounds=trap_wounds,
        notes=notes,
    )


def _glyphs(entries: Any, index: dict[tuple[int, int], int], hx: np.ndarray, path: Path):
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: glyphs: must be a list")
    rows = []
    for g, entry in enumerate(entries):
        where = f"{path}: glyphs[{g}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: must be a mapping (kind, row, col, side)")
        kind = entry.get("kind")
        if kind not in L.GLYPH_KEYS:
            raise ConfigError(f"{where}.kind: must be one of {', '.join(L.GLYPH_KEYS)}")
        row, col = entry.get("row"), entry.get("col")
        at = index.get((row, col)) if isinstance(row, int) and isinstance(col, int) else None
        if at is None or hx[at, L.H_OBSTACLE] > 0:
            raise ConfigError(f"{where}: row/col: no open space there")
        side = entry.get("side", "power")
        if side not in ("power", "symbol"):
            raise ConfigError(f"{where}.side: must be power or symbol")
        rows.append([L.GLYPH_KEYS.index(kind), at, 1 if side == "power" else 0])
    return np.array(rows, dtype=np.int64).reshape(len(rows), L.GL_COLS)


def _neighbour_steps(row: int) -> tuple[tuple[int, int], ...]:
    """(row, column) steps to the 6 neighbours in odd-r offset layout."""
    if row % 2 == 0:
        return ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0))
    return ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1))


def kernel_hx(hx: np.ndarray) -> np.ndarray:
    """``hx`` with the kernels' columns after ``HX_COLS``: ``H_UP`` and the bit sets at
    ``H_BITS`` (layout.py) that :func:`match_nb.reach` expands levels of costs with."""
    n = hx.shape[0]
    nw = (n + 63) // 64
    out = np.zeros((n, L.H_BITS + L.HB_SETS * nw), dtype=np.int64)
    out[:, : L.HX_COLS] = hx
    bits = out.view(np.uint64)  # the same memory: bit 63 set makes a negative int64

    def put(row: int, j: int, space: int) -> None:
        bits[row, L.H_BITS + j * nw + (space >> 6)] |= np.uint64(1 << (space & 63))

    for i in range(n):
        for k in range(6):
            nb = int(hx[i, L.H_NB + k])
            if nb < 0:
                continue
            put(i, L.HB_ALL, nb)
            step = int(hx[i, L.H_STEP + k])
            if step == 1:
                put(i, L.HB_STEP1, nb)
            elif step != L.STEP_NONE:
                out[i, L.H_UP] = 1
        stops = int(hx[i, L.H_STOPS])
        if stops & 1:
            put(0, L.HB_MOLTEN, i)
        if stops & 2:
            put(0, L.HB_STOP, i)
        if hx[i, L.H_GAP] > 0:
            put(0, L.HB_GAP, i)
    return out


def centres(hx: np.ndarray) -> np.ndarray:
    """(x, y) of the space centres, neighbour distance 1 (pointy-top, odd rows shifted)."""
    r = hx[:, L.H_ROW].astype(float)
    c = hx[:, L.H_COL].astype(float)
    return np.stack([c + 0.5 * (r % 2), r * math.sqrt(3) / 2], axis=1)


def cube(hx: np.ndarray) -> np.ndarray:
    """Cube coordinates (x, z) of the spaces (odd-r offset conversion)."""
    r = hx[:, L.H_ROW]
    q = hx[:, L.H_COL] - (r - (r & 1)) // 2
    return np.stack([q, r], axis=1)


def distances(hx: np.ndarray) -> np.ndarray:
    """Spaces between every two spaces ("Range": levels not counted, gaps counted)."""
    qr = cube(hx)
    dq = qr[:, None, 0] - qr[None, :, 0]
    dr = qr[:, None, 1] - qr[None, :, 1]
    return ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).astype(np.int64)


@functools.lru_cache(maxsize=16)
def _sight_samples(key: tuple[int, ...], n_hex: int) -> tuple[np.ndarray, np.ndarray]:
    """For every ordered pair of spaces, the space under each sample point of the segment
    between their centres (-1: no space) and the sample's fraction of the way."""
    hx = np.array(key, dtype=np.int64).reshape(n_hex, L.HX_COLS)
    xy = centres(hx)
    rows, cols = hx[:, L.H_ROW], hx[:, L.H_COL]
    lookup = -np.ones((rows.max() + 3, cols.max() + 3), dtype=np.int64)
    lookup[rows, cols] = np.arange(n_hex)
    dist = distances(hx)
    steps = int(max(4 * dist.max(), 4))
    t = (np.arange(1, steps) / steps)[None, None, :]
    px = xy[:, None, 0, None] + (xy[None, :, 0, None] - xy[:, None, 0, None]) * t
    py = xy[:, None, 1, None] + (xy[None, :, 1, None] - xy[:, None, 1, None]) * t
    # two segments a hair either side, so a line along a space edge sees past it when
    # either side is clear, the same for both directions of a symmetric map
    under = np.stack([_space_at(px + e, py, lookup) for e in (-1e-6, 1e-6)])
    return under, np.broadcast_to(t, under.shape[1:])


def _space_at(px: np.ndarray, py: np.ndarray, lookup: np.ndarray) -> np.ndarray:
    """The space index under points (x, y) (nearest centre; -1 off the map)."""
    row_f = py / (math.sqrt(3) / 2)
    best = np.full(px.shape, np.inf)
    out = np.full(px.shape, -1, dtype=np.int64)
    for dr in (0, 1):
        r = np.floor(row_f).astype(np.int64) + dr
        cx = px - 0.5 * (r % 2)
        for dc in (0, 1):
            c = np.floor(cx).astype(np.int64) + dc
            d = (cx - c) ** 2 + ((row_f - r) * math.sqrt(3) / 2) ** 2
            inside = (r >= 0) & (c >= 0) & (r < lookup.shape[0]) & (c < lookup.shape[1])
            idx = np.where(inside, lookup[np.clip(r, 0, None), np.clip(c, 0, None)], -1)
            take = (d < best) & inside
            best = np.where(take, d, best)
            out = np.where(take, idx, out)
    return out


def sight_tables(hx: np.ndarray, heights: tuple[int, ...]) -> np.ndarray:
    """Line of sight ``los[ha * n + hb, i, j]`` (1 or 0) from a figure of height
    ``heights[ha]`` on space ``i`` to one of height ``heights[hb]`` on space ``j``.

    Computing them takes seconds, so they are kept in memory and in ``SIGHT_CACHE``
    (keyed by the map, the heights and this file's source; a fresh copy is returned)."""
    key = hashlib.sha1(hx.tobytes() + repr(heights).encode() + _SOURCE_DIGEST).hexdigest()
    if key not in _SIGHT_MEMO:
        _SIGHT_MEMO[key] = _sight_from_disk(key, hx, heights)
    return _SIGHT_MEMO[key].copy()


def _sight_from_disk(key: str, hx: np.ndarray, heights: tuple[int, ...]) -> np.ndarray:
    """The tables of ``key`` from the disk cache, computed (and stored) if missing."""
    path = SIGHT_CACHE / f"sight-{key[:24]}.npy"
    try:
        los = np.load(path)
        n = len(heights)
        if los.dtype == np.int64 and los.shape == (n * n, hx.shape[0], hx.shape[0]):
            return los
    except (OSError, ValueError):
        pass
    los = _compute_sight(hx, heights)
    try:  # written whole then renamed: a parallel process never reads half a file
        SIGHT_CACHE.mkdir(exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as out:
            np.save(out, los)
        os.replace(tmp, path)
        kept = sorted(SIGHT_CACHE.glob("sight-*.npy"), key=lambda p: p.stat().st_mtime)
        for old in kept[:-SIGHT_CACHE_FILES]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only install recomputes the tables
    return los


def _compute_sight(hx: np.ndarray, heights: tuple[int, ...]) -> np.ndarray:
    """The tables of :func:`sight_tables`, computed."""
    n_hex = hx.shape[0]
    under, t = _sight_samples(tuple(int(v) for v in hx.ravel()), n_hex)
    level = hx[:, L.H_LEVEL].astype(float)
    solid_top = np.where(hx[:, L.H_OBSTACLE] > 0, level + hx[:, L.H_OBSTACLE], level)
    gap = hx[:, L.H_GAP]
    slab_low = np.where(gap > 0, level + gap, np.inf)
    n = len(heights)
    out = np.zeros((n * n, n_hex, n_hex), dtype=np.int64)
    for side in under:
        out |= _sight(side, t, level, solid_top, slab_low, heights)
    return out


def _sight(under, t, level, solid_top, slab_low, heights):
    """Line of sight over one set of sample segments (see :func:`sight_tables`)."""
    n_hex = under.shape[0]
    own = (under == np.arange(n_hex)[:, None, None]) | (under == np.arange(n_hex)[None, :, None])
    safe = np.where(under < 0, 0, under)
    top_u = np.where((under < 0) | own, -np.inf, solid_top[safe])
    slab_u = np.where((under < 0) | own, np.inf, slab_low[safe])
    n = len(heights)
    out = np.zeros((n * n, n_hex, n_hex), dtype=np.int64)
    for a, ha in enumerate(heights):
        eye = level[:, None, None] + max(ha - 0.5, 0.5)
        for b, hb in enumerate(heights):
            seen = np.zeros((n_hex, n_hex), dtype=bool)
            for zone in sorted({1.0, max(hb / 2.0, 1.0), max(hb - 1.0, 1.0)}):
                aim = level[None, :, None] + zone
                z = eye + (aim - eye) * t
                clear = ~np.any((z < top_u) | ((z >= slab_u) & (z <= slab_u + 1.0)), axis=2)
                seen |= clear
            np.fill_diagonal(seen, False)
            out[a * n + b] = seen
    return out


def terrain_table() -> np.ndarray:
    """The rules of each terrain code (columns ``TR_*``), from the rulebook's Terrain."""
    tr = np.zeros((len(L.TERRAIN_NAMES), L.TR_COLS), dtype=np.int64)
    code = {name: i for i, name in enumerate(L.TERRAIN_NAMES)}
    # "Water" / "Wellspring Water": a single-space figure entering must stop.
    for name in ("water", "wellspring water"):
        tr[code[name], L.TR_STOP] = 1
        tr[code[name], L.TR_WATER] = 1
    # "Swamp Water", "Toxic Water": count as water, do not stop movement.
    tr[code["swamp water"], L.TR_WATER] = 1
    tr[code["toxic water"], L.TR_WATER] = 1
    tr[code["toxic water"], L.TR_DEFENSE] = -2
    tr[code["toxic land"], L.TR_DEFENSE] = -1
    tr[code["shadow"], L.TR_DEFENSE] = 1
    tr[code["shadow"], L.TR_SHADOW] = 1
    tr[code["lava field"], L.TR_LAVA_FIELD] = 1
    # "Molten Lava": entering ends the move; d20, 20 survives.
    tr[code["molten lava"], L.TR_STOP] = 1
    tr[code["molten lava"], L.TR_MOLTEN] = 1
    tr[code["wellspring water"], L.TR_WELLSPRING] = 1
    return tr
