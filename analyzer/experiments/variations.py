"""Variations of unit cards: set or shift any stat, switch an ability on or off.

A variation never mutates a card: it dumps the card to plain data, replaces
the value along the path there and builds a new card from it with the card's
own model, so a sweep can never produce a card the rules would reject (a
negative defense, a Treasure Glyph on a Squad...).  An unvalidated value never
sits inside a model (pydantic would warn when serializing it).  Errors are ``ValueError`` with a
short message; the spec loader turns them into ``path:line: field: message``.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

#: List fields that hold a card's abilities, in the order they are looked for when an
#: ability variation does not name its ``field`` (one name per system's card model).
ABILITY_FIELDS = ("abilities", "special_powers", "aptitudes", "special", "keywords")


def _segments(path: str) -> list[str]:
    parts = [p.strip() for p in path.split(".")]
    if not path or any(not p for p in parts):
        raise ValueError(f"bad field path {path!r} (use e.g. 'defense' or 'weapons.0.power')")
    return parts


def get_field(card: BaseModel, path: str) -> Any:
    """Value at a dotted path (``defense``, ``skill.shot``, ``weapons.0.power``).

    A list element is picked by its index or by its ``name`` (``weapons.Pistol.power``).
    """
    node: Any = card
    for part in _segments(path):
        node = _child(node, part, path)
    return node


def _child(node: Any, part: str, path: str) -> Any:
    if isinstance(node, BaseModel):
        name = _field_name(type(node), part)
        if name is None:
            raise ValueError(f"{type(node).__name__} has no field {part!r} (in {path!r})")
        return getattr(node, name)
    if isinstance(node, list):
        return node[_list_index(node, part, path)]
    raise ValueError(f"{path!r}: cannot look inside {type(node).__name__} at {part!r}")


def _field_name(model: type[BaseModel], name: str) -> str | None:
    """Attribute name of field ``name`` (also found by its YAML alias, e.g. ``class``)."""
    if name in model.model_fields:
        return name
    for attr, info in model.model_fields.items():
        if info.alias == name:
            return attr
    return None


def _list_index(items: list[Any], part: str, path: str) -> int:
    if part.lstrip("-").isdigit():
        index = int(part)
        if not -len(items) <= index < len(items):
            raise ValueError(f"{path!r}: index {index} out of range ({len(items)} items)")
        return index % len(items)
    for i, item in enumerate(items):
        if getattr(item, "name", None) == part:
            return i
    raise ValueError(f"{path!r}: no item named {part!r}")


def _replace(node: Any, data: Any, parts: list[str], value: Any, path: str) -> Any:
    """``data`` (the dump of ``node``) with the value at ``parts`` replaced, in place."""
    head, rest = parts[0], parts[1:]
    if isinstance(node, BaseModel):
        name = _field_name(type(node), head)
        if name is None:
            raise ValueError(f"{type(node).__name__} has no field {head!r} (in {path!r})")
        key = type(node).model_fields[name].alias or name
        data[key] = (
            value if not rest else _replace(getattr(node, name), data[key], rest, value, path)
        )
        return data
    if isinstance(node, list):
        index = _list_index(node, head, path)
        data[index] = value if not rest else _replace(node[index], data[index], rest, value, path)
        return data
    raise ValueError(f"{path!r}: cannot set a value inside {type(node).__name__}")


def rebuild(model: type[BaseModel], data: dict[str, Any]) -> BaseModel:
    """A card built by its own model from plain data: the rules' constraints hold."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"{where}: {first['msg']}" if where else first["msg"]) from None


def revalidate(card: BaseModel) -> BaseModel:
    """The card re-built by its own model: the rules' constraints hold on every variant."""
    return rebuild(type(card), card.model_dump(by_alias=True))


def set_stat(card: BaseModel, path: str, value: Any, mode: str = "set") -> BaseModel:
    """The card with the stat at ``path`` set to ``value`` (``mode="add"``: shifted by it)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"a stat value must be a number or a string (got {value!r})")
    if mode == "add":
        old = get_field(card, path)
        if isinstance(old, bool) or not isinstance(old, int | float):
            raise ValueError(f"{path!r} is not a number ({old!r}): use mode 'set'")
        if isinstance(value, str):
            raise ValueError(f"mode 'add' needs a number (got {value!r})")
        value = old + value
    data = card.model_dump(by_alias=True)
    return rebuild(type(card), _replace(card, data, _segments(path), value, path))


def ability_field(card: BaseModel, field: str | None) -> str:
    """The list field holding abilities: ``field`` or the first of :data:`ABILITY_FIELDS`."""
    fields = type(card).model_fields
    if field is not None:
        name = _field_name(type(card), field)
        if name is None or not isinstance(getattr(card, name), list):
            raise ValueError(f"{type(card).__name__} has no list field {field!r}")
        return name
    for name in ABILITY_FIELDS:
        if name in fields:
            return name
    raise ValueError(
        f"{type(card).__name__} has none of the ability fields {', '.join(ABILITY_FIELDS)}; "
        "name the list with 'field'"
    )


def _item_type(model: type[BaseModel], name: str) -> Any:
    annotation = model.model_fields[name].annotation
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):  # list[X] | None
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    args = typing.get_args(annotation)
    return args[0] if args else Any


def _entry_name(entry: Any) -> Any:
    return getattr(entry, "name", entry)


def has_ability(card: BaseModel, ability: str, field: str | None = None) -> bool:
    name = ability_field(card, field)
    return any(_entry_name(e) == ability for e in getattr(card, name))


def set_ability(
    card: BaseModel,
    ability: str,
    on: bool,
    field: str | None = None,
    item: dict[str, Any] | None = None,
) -> BaseModel:
    """The card with ``ability`` present (``on``) or absent; ``item`` gives an entry's other keys.

    Turning off removes every entry of that name; turning on an ability the
    card already has changes nothing.
    """
    name = ability_field(card, field)
    entries = list(getattr(card, name))
    present = any(_entry_name(e) == ability for e in entries)
    if not on:
        entries = [e for e in entries if _entry_name(e) != ability]
    elif not present:
        kind = _item_type(type(card), name)
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            try:
                entries.append(kind.model_validate({"name": ability, **(item or {})}))
            except ValidationError as err:
                raise ValueError(err.errors(include_url=False)[0]["msg"]) from None
        else:
            if item:
                raise ValueError(f"{name!r} holds plain names: 'item' is not allowed")
            entries.append(ability)
    data = card.model_dump(by_alias=True)
    key = type(card).model_fields[name].alias or name
    data[key] = [e.model_dump(by_alias=True) if isinstance(e, BaseModel) else e for e in entries]
    return rebuild(type(card), data)


def as_switch(value: Any) -> bool:
    """``true``/``false`` (or the strings on/off, yes/no) -> bool."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("on", "yes", "true"):
        return True
    if isinstance(value, str) and value.lower() in ("off", "no", "false"):
        return False
    raise ValueError(f"an ability value must be true/false (or on/off), got {value!r}")
