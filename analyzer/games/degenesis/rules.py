"""Degenesis: Clan Wars rule constants and dice, each citing its rulebook section.

Rulebook: ``degenesis-clan-wars.txt``.  The faces of the three dice are not
printed in the rulebook; they are read from ``configs/degenesis/dice.yaml``
(sample data) by :func:`load_dice`, which checks them against "Dice Rolls".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from analyzer.config.yaml_io import ConfigError, load_yaml
from analyzer.paths import system_config

#: "Dice Rolls": the three DIE types, in the order used by params and kernels.
DIE_TYPES = ("white", "black", "fatal")
#: "Dice Rolls": WHITE DICE "lack a BOTCH face", BLACK have 1, FATAL have 2.
BOTCH_FACES = {"white": 0, "black": 1, "fatal": 2}
#: Faces per die (the physical dice are six-sided; the rulebook does not list them).
DIE_FACES = 6
#: How a BOTCH face is stored in a face tuple (other faces store their SUCCESSES).
BOTCH = -1
#: "Overcommitting": "Add any 1 DIE to their ROLL, or Gain SECURE 1 on their ROLL".
OVERCOMMIT_DICE = 1
OVERCOMMIT_SECURE = 1
#: "Overcommitting": the opposing side DRAWS 1 ARCANA after the ROLL.
OVERCOMMIT_ARCANA = 1
#: "Area Attack" / "Threats": THREATS have DEFENSE +2 against AREA ATTACKS.
THREAT_AREA_DEFENSE = 2
#: "Hidden" / "Range": "A DISTANCE can never be less than 0".
MIN_DISTANCE = 0
#: "Scout": a success REVEALS 1 THREAT, plus 1 per SUCCESS above the DIFFICULTY.
SCOUT_FIRST_REVEAL = 1
#: "Tarot Effects": I The Creator SUCCESS +3, II The Mentor SECURE 3,
#: XII The Abomination adds 3 BOTCHES (quoted in option help texts).
CREATOR_SUCCESS = 3
MENTOR_SECURE = 3
ABOMINATION_BOTCHES = 3

Faces = dict[str, tuple[int, ...]]


def _line(node: Any, key: Any = None, index: int | None = None) -> int:
    """1-based line of a mapping key / sequence item (1 when unknown)."""
    try:
        if index is not None and isinstance(node, CommentedSeq):
            return int(node.lc.item(index)[0]) + 1
        if key is not None and isinstance(node, CommentedMap):
            return int(node.lc.key(key)[0]) + 1
        return int(node.lc.line) + 1
    except (AttributeError, KeyError, IndexError, TypeError):
        return 1


def _face(path: Path, seq: Any, i: int, field: str) -> int:
    """One face: ``blank`` -> 0, ``botch`` -> :data:`BOTCH`, ``{successes: N}`` -> N."""
    face = seq[i]
    line = _line(seq, index=i)
    if isinstance(face, str):
        if face == "blank":
            return 0
        if face == "botch":
            return BOTCH
        raise ConfigError(
            f"{path}:{line}: {field}: unknown face {face!r} (use blank, botch or {{successes: N}})"
        )
    if not isinstance(face, dict):
        raise ConfigError(f"{path}:{line}: {field}: a face is blank, botch or {{successes: N}}")
    if set(face) != {"successes"}:
        extra = sorted(str(k) for k in set(face) - {"successes"})
        what = f"unknown key(s) {extra}" if extra else "missing key 'successes'"
        raise ConfigError(f"{path}:{line}: {field}: {what}")
    value = face["successes"]
    line = _line(face, key="successes")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{path}:{line}: {field}.successes: must be an integer (got {value!r})")
    if value < 0:
        raise ConfigError(f"{path}:{line}: {field}.successes: must be >= 0 (got {value})")
    return int(value)


def load_dice(path: str | Path | None = None) -> Faces:
    """Faces of the WHITE, BLACK and FATAL dice, validated against "Dice Rolls".

    Returns ``{"white": (f1, ..., f6), ...}`` where a face is its number of
    SUCCESSES (0 for BLANK) or :data:`BOTCH`.  Raises :class:`ConfigError` with
    ``path:line: field: message`` for a malformed file.
    """
    path = Path(path) if path is not None else system_config("degenesis", "dice.yaml")
    return dict(_load_dice(path))


@cache
def _load_dice(path: Path) -> Faces:
    doc = load_yaml(path)
    if not isinstance(doc, dict) or "dice" not in doc:
        raise ConfigError(f"{path}:1: dice: missing top-level mapping 'dice'")
    unknown = sorted(str(k) for k in set(doc) - {"dice"})
    if unknown:
        raise ConfigError(f"{path}:{_line(doc, key=unknown[0])}: {unknown[0]}: unknown key")
    dice = doc["dice"]
    if not isinstance(dice, dict):
        raise ConfigError(f"{path}:{_line(doc, key='dice')}: dice: must map die names to faces")
    for name in dice:
        if name not in DIE_TYPES:
            raise ConfigError(
                f"{path}:{_line(dice, key=name)}: dice.{name}: unknown die "
                f"(expected {', '.join(DIE_TYPES)})"
            )
    faces: Faces = {}
    for name in DIE_TYPES:
        field = f"dice.{name}"
        if name not in dice:
            raise ConfigError(f"{path}:{_line(doc, key='dice')}: {field}: missing die")
        seq = dice[name]
        line = _line(dice, key=name)
        if not isinstance(seq, list):
            raise ConfigError(f"{path}:{line}: {field}: must be a list of {DIE_FACES} faces")
        if len(seq) != DIE_FACES:
            raise ConfigError(
                f"{path}:{line}: {field}: must have {DIE_FACES} faces (got {len(seq)})"
            )
        values = tuple(_face(path, seq, i, f"{field}[{i}]") for i in range(DIE_FACES))
        botches = sum(v == BOTCH for v in values)
        if botches != BOTCH_FACES[name]:
            raise ConfigError(
                f"{path}:{line}: {field}: must have {BOTCH_FACES[name]} botch face(s) "
                f'(got {botches}), per "Dice Rolls"'
            )
        faces[name] = values
    return faces
