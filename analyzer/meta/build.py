"""``analyzer build-list``: the legal army list with the best expected score against a field.

Legality is the system's own list validation (``engine.load_list``: points cap, faction,
uniqueness, apprentices, figure caps...), applied to each candidate written as a list
file from a template (the template's fields other than ``name`` and ``units``, e.g.
Rapture's ``faction`` or d20's ``max_points``), plus the ``--points`` cap itself.

Fitness: the candidate (side A) plays every field list (side B) on common random
numbers (:mod:`analyzer.meta.arena`: every candidate meets an opponent with the same
seed), score = wins + draws/2, averaged over the field with its weights (uniform, or
a Nash mixture of ``analyzer meta``).  Successive halving: every surviving candidate
plays ``first`` matches per opponent, the better half (at least ``keep``) plays twice
as many, and so on up to ``final`` matches; the survivors' scores carry 95% CIs
(normal approximation over the per-match scores, opponents weighted).

Search: ``exhaustive`` races every legal list of ``min_points..points`` points (each
card 0..``max_copies`` times); ``local`` climbs from the best starting list (the legal
field lists and random legal lists) by one-card edits (add, remove, swap one card for
another), racing the current list against its neighbours until it wins its own
neighbourhood.  Matches spent are counted either way.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from analyzer.errors import AnalyzerError, InputError
from analyzer.meta.arena import Arena, pairing_seed
from analyzer.stats import Z95

Key = tuple[tuple[str, int], ...]


def card_points(cards: Mapping[str, Any]) -> dict[str, int]:
    """Points of every card that can be chosen (cards without a points value are not)."""
    out = {}
    for name, card in cards.items():
        points = getattr(card, "points", None)
        if isinstance(points, int) and not getattr(card, "null_points", False):
            out[name] = points
    return out


def enumerate_keys(
    costs: Mapping[str, int], points: int, min_points: int, max_copies: int
) -> Iterator[Key]:
    """Every multiset of cards (each 0..``max_copies`` times) of ``min_points..points``."""
    names = sorted(costs)

    def walk(i: int, left: int, chosen: list[tuple[str, int]]) -> Iterator[Key]:
        if i == len(names):
            if points - left >= min_points and chosen:
                yield tuple(chosen)
            return
        name = names[i]
        for count in range(max_copies + 1):
            spend = count * costs[name]
            if spend > left:
                break
            yield from walk(i + 1, left - spend, [*chosen, (name, count)] if count else chosen)
            if costs[name] == 0:
                break

    yield from walk(0, points, [])


def key_points(key: Key, costs: Mapping[str, int]) -> int:
    return sum(costs[n] * c for n, c in key)


def key_label(key: Key) -> str:
    return " + ".join(f"{c} x {n}" if c > 1 else n for n, c in key)


class Legality:
    """The system's list validation of candidate lists (cached by their cards)."""

    def __init__(self, arena: Arena, cards: Mapping[str, Any], template: Path, points: int):
        self.arena, self.cards, self.points = arena, cards, points
        doc = yaml.safe_load(template.read_text(encoding="utf-8"))
        if not isinstance(doc, dict):
            raise InputError(f"{template}: not an army list (a mapping with name and units)")
        self.template = {k: v for k, v in doc.items() if k not in ("name", "units")}
        self.costs = card_points(cards)
        self.folder = Path(tempfile.mkdtemp(prefix="analyzer-build-"))
        self.known: dict[Key, Any] = {}
        self.checked = 0

    def army(self, key: Key) -> Any:
        """The loaded list of ``key``, or ``None`` where the rules or ``--points`` forbid it."""
        if key not in self.known:
            self.known[key] = self._load(key)
        return self.known[key]

    def _load(self, key: Key) -> Any:
        if not key or key_points(key, self.costs) > self.points:
            return None
        self.checked += 1
        doc = {**self.template, "name": key_label(key),
               "units": [{"unit": n, "count": c} for n, c in key]}  # fmt: skip
        path = self.folder / "candidate.yaml"
        path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
        try:
            return self.arena.engine.load_list(path, dict(self.cards))
        except AnalyzerError:
            return None

    def neighbours(self, key: Key, max_copies: int) -> list[Key]:
        """Legal lists one card away: one card added, removed, or swapped for another."""
        counts = dict(key)
        edits: list[dict[str, int]] = []
        for name in self.costs:
            edits.append({name: +1})
            if counts.get(name):
                edits.append({name: -1})
                edits += [{name: -1, other: +1} for other in self.costs if other != name]
        out = []
        for edit in edits:
            new = dict(counts)
            for name, change in edit.items():
                new[name] = new.get(name, 0) + change
            if any(c > max_copies for c in new.values()):
                continue
            cand = tuple(sorted((n, c) for n, c in new.items() if c > 0))
            if cand != key and self.army(cand) is not None:
                out.append(cand)
        return sorted(set(out))


@dataclass
class Candidate:
    """A list and its per-match scores against each field list so far."""

    key: Key
    army: Any
    results: list[np.ndarray] = field(default_factory=list)

    def played(self) -> int:
        return min((len(r) for r in self.results), default=0)

    def estimate(self, weights: np.ndarray) -> tuple[float, float]:
        """Weighted mean score over the field and its standard error."""
        means = np.array([r.mean() for r in self.results])
        var = np.array([r.var(ddof=1) / len(r) if len(r) > 1 else 0.25 for r in self.results])
        return float(weights @ means), float(math.sqrt(weights**2 @ var))


class Racer:
    """Successive halving of candidates against a weighted field on common random numbers."""

    def __init__(self, arena: Arena, cards: Mapping[str, Any], field_lists: Sequence[Any],
                 weights: np.ndarray, seed: int, first: int = 32, final: int = 512):  # fmt: skip
        self.arena, self.cards, self.field = arena, cards, list(field_lists)
        self.weights = np.asarray(weights, dtype=float) / np.sum(weights)
        self.seeds = [pairing_seed(seed, o) for o in range(len(self.field))]
        self.first, self.final = first, final
        self.pool: dict[Key, Candidate] = {}
        self.setups: dict[tuple[Key, int], Any] = {}

    def candidate(self, key: Key, army: Any) -> Candidate:
        if key not in self.pool:
            self.pool[key] = Candidate(key, army, [np.zeros(0) for _ in self.field])
        return self.pool[key]

    def _setup(self, cand: Candidate, opponent: int) -> Any:
        """The compiled match-up of a candidate and a field list (compiled once)."""
        key = (cand.key, opponent)
        if key not in self.setups:
            self.setups[key] = self.arena.setup(self.cards, cand.army, self.field[opponent])
        return self.setups[key]

    def extend(self, cands: Sequence[Candidate], n: int) -> None:
        """Play each candidate up to ``n`` matches per field list (grouped by how many
        it has, so the matches added are the same indices for all)."""
        groups: dict[int, list[Candidate]] = {}
        for c in cands:
            if c.played() < n:
                groups.setdefault(c.played(), []).append(c)
        for start, group in groups.items():
            jobs = [(self._setup(c, o), seed) for c in group for o, seed in enumerate(self.seeds)]
            scores = self.arena.scores(jobs, start, n)
            for ci, c in enumerate(group):
                for o in range(len(self.field)):
                    got = scores[ci * len(self.field) + o]
                    c.results[o] = np.concatenate([c.results[o][:start], got])

    def race(self, cands: Sequence[Candidate], keep: int,
             status: Callable[[str], None] | None = None) -> list[Candidate]:  # fmt: skip
        """Survivors (best first) after successive halving down to ``keep``."""
        alive = list(cands)
        n = self.first
        while True:
            n = min(n, self.final)
            if status:
                status(f"{len(alive)} lists x {n} matches per opponent")
            self.extend(alive, n)
            alive.sort(key=lambda c: (-c.estimate(self.weights)[0], c.key))
            if n >= self.final or len(alive) <= keep:
                break
            alive = alive[: max(keep, math.ceil(len(alive) / 2))]
            n *= 2
        self.extend(alive, self.final)
        alive.sort(key=lambda c: (-c.estimate(self.weights)[0], c.key))
        return alive


@dataclass
class BuildResult:
    """The best lists found, the search and its cost."""

    system: str
    points: int
    search: str
    best: list[Candidate]
    weights: np.ndarray
    field_names: list[str]
    costs: dict[str, int]
    legal: int
    checked: int
    matches: int
    steps: int = 0

    def table(self) -> pd.DataFrame:
        rows = []
        for rank, c in enumerate(self.best, 1):
            score, se = c.estimate(self.weights)
            rows.append({
                "rank": rank, "list": key_label(c.key), "points": key_points(c.key, self.costs),
                "score": score, "se": se, "ci_low": max(0.0, score - Z95 * se),
                "ci_high": min(1.0, score + Z95 * se), "matches_per_opponent": c.played(),
                **{f"vs {n}": float(r.mean()) for n, r in zip(self.field_names, c.results)},
            })  # fmt: skip
        return pd.DataFrame(rows)

    def best_list(self, template: Mapping[str, Any]) -> dict[str, Any]:
        key = self.best[0].key
        return {**template, "name": f"Built: {key_label(key)}",
                "units": [{"unit": n, "count": c} for n, c in key]}  # fmt: skip


def build_list(
    arena: Arena,
    cards: Mapping[str, Any],
    field_lists: Sequence[Any],
    weights: np.ndarray,
    *,
    template: Path,
    points: int,
    min_points: int | None = None,
    max_copies: int = 2,
    search: str = "auto",
    keep: int = 5,
    first: int = 32,
    final: int = 512,
    starts: int = 8,
    max_pool: int = 20_000,
    seed: int = 2026,
    status: Callable[[str], None] | None = None,
) -> BuildResult:
    """Search the legal lists of at most ``points`` points (see the module docstring)."""
    if points < 1:
        raise InputError(f"--points must be >= 1 (got {points})")
    legality = Legality(arena, cards, template, points)
    low = int(0.8 * points) if min_points is None else min_points
    racer = Racer(arena, cards, field_lists, weights, seed, first, final)
    names = [getattr(f, "name", str(i)) for i, f in enumerate(field_lists)]
    keys: list[Key] = []
    if search in ("auto", "exhaustive"):
        for key in enumerate_keys(legality.costs, points, low, max_copies):
            keys.append(key)
            if search == "auto" and len(keys) > max_pool:
                search, keys = "local", []
                break
        search = "exhaustive" if search == "auto" else search
    if search == "exhaustive":
        if status:
            status(f"checking {len(keys):,} lists with the {arena.system} list rules")
        loaded = [(k, legality.army(k)) for k in keys]
        cands = [racer.candidate(k, a) for k, a in loaded if a is not None]
        if not cands:
            raise InputError(f"no legal list of {low}..{points} points")
        best = racer.race(cands, keep, status)
        return BuildResult(arena.system, points, search, best[:keep], racer.weights, names,
                           legality.costs, len(cands), legality.checked, arena.spent)  # fmt: skip
    if search != "local":
        raise InputError(f"--search must be auto, exhaustive or local (got {search!r})")
    current, steps = _local_search(legality, racer, field_lists, max_copies, starts, seed,
                                   status)  # fmt: skip
    others = sorted((c for c in racer.pool.values() if c is not current and c.played() >= final),
                    key=lambda c: (-c.estimate(racer.weights)[0], c.key))  # fmt: skip
    best = [current, *others[: keep - 1]]
    legal = sum(a is not None for a in legality.known.values())
    return BuildResult(arena.system, points, "local", best, racer.weights, names,
                       legality.costs, legal, legality.checked, arena.spent, steps)  # fmt: skip


def _local_search(legality: Legality, racer: Racer, field_lists: Sequence[Any],
                  max_copies: int, starts: int, seed: int,
                  status: Callable[[str], None] | None) -> tuple[Candidate, int]:  # fmt: skip
    """Hill climbing over one-card edits from the best of the starting lists."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(21,)))
    start_keys = {tuple(sorted((e.unit, e.count) for e in f.units)) for f in field_lists}
    names = sorted(legality.costs)
    for _ in range(50 * starts):
        if len(start_keys) >= len(field_lists) + starts:
            break
        counts: dict[str, int] = {}
        left = legality.points
        for name in rng.permutation(names):
            take = int(rng.integers(0, max_copies + 1))
            while take and legality.costs[name] * take > left:
                take -= 1
            if take:
                counts[str(name)] = take
                left -= legality.costs[name] * take
        key = tuple(sorted(counts.items()))
        if legality.army(key) is not None:
            start_keys.add(key)
    cands = [racer.candidate(k, legality.army(k)) for k in sorted(start_keys)
             if legality.army(k) is not None]  # fmt: skip
    if not cands:
        raise InputError(f"no legal starting list of at most {legality.points} points")
    current = racer.race(cands, 1, status)[0]
    steps = 0
    while True:
        steps += 1
        near = [racer.candidate(k, legality.army(k))
                for k in legality.neighbours(current.key, max_copies)]  # fmt: skip
        if status:
            status(f"step {steps}: {key_label(current.key)} against {len(near)} neighbours")
        winner = racer.race([current, *near], 1, status)[0]
        racer.extend([current], racer.final)  # both at the full count: no cycles
        if winner.estimate(racer.weights)[0] <= current.estimate(racer.weights)[0]:
            return current, steps
        current = winner
