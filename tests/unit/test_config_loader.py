"""Generic config loading: every problem of a file as ``path:line: field: message``."""

from __future__ import annotations

import textwrap

import pytest
from pydantic import Field

from analyzer.config.loader import field_path
from analyzer.config.models import CardBase, UnitFile, load_cards
from analyzer.config.yaml_io import ConfigError


class ToyCard(CardBase):
    hp: int = Field(ge=1)
    defense: int = Field(ge=0)


class ToyFile(UnitFile[ToyCard]):
    pass


def write(tmp_path, text):
    path = tmp_path / "units.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def problems(path):
    with pytest.raises(ConfigError) as err:
        load_cards(path, ToyFile, "toy")
    return str(err.value).splitlines()


def test_field_path_formats_nested_locations():
    assert field_path(("units", 3, "defense")) == "units[3].defense"
    assert field_path(()) == "(document)"


def test_valid_file_loads_cards_by_name(tmp_path):
    path = write(
        tmp_path,
        """\
        system: toy
        units:
          - {name: A, points: 10, hp: 3, defense: 1, sample: [hp]}
          - {name: B, points: 12, hp: 4, defense: 2}
        """,
    )
    cards = load_cards(path, ToyFile, "toy")
    assert list(cards) == ["A", "B"] and cards["A"].sample == ["hp"]


def test_all_problems_of_a_file_are_reported_with_lines(tmp_path):
    path = write(
        tmp_path,
        """\
        system: toy
        units:
          - name: A
            points: 10
            hp: 3
            defense: -1
          - name: B
            points: many
            hp: 3
            defense: 1
            armour: 2
          - name: C
            points: 5
            defense: 1
        """,
    )
    lines = problems(path)
    assert lines == [
        f"{path}:6: units[0].defense: Input should be greater than or equal to 0",
        f"{path}:8: units[1].points: Input should be a valid integer, unable to parse string "
        "as an integer",
        f"{path}:11: units[1].armour: unknown key",
        f"{path}:12: units[2].hp: Field required",
    ]


def test_duplicate_names_wrong_system_and_unknown_sample_fields(tmp_path):
    path = write(
        tmp_path,
        """\
        system: other
        units:
          - {name: A, points: 10, hp: 3, defense: 1}
          - {name: A, points: 11, hp: 3, defense: 1}
        """,
    )
    assert problems(path) == [
        f"{path}:1: system: expected 'toy', found 'other'",
        f"{path}:4: units[1].name: duplicate unit name 'A'",
    ]
    path = write(
        tmp_path,
        "system: toy\nunits:\n  - {name: A, points: 1, hp: 1, defense: 0, sample: [speed]}\n",
    )
    assert problems(path) == [f"{path}:3: units[0]: sample lists unknown field(s): speed"]


def test_yaml_syntax_error_and_empty_and_missing_file(tmp_path):
    path = write(tmp_path, "system: toy\nunits:\n  - name: A\n   hp: 3\n")
    (line,) = problems(path)
    assert line.startswith(f"{path}:4: YAML syntax error")
    path = write(tmp_path, "")
    assert problems(path) == [f"{path}:1: (document): file is empty"]
    with pytest.raises(ConfigError, match="cannot read file"):
        load_cards(tmp_path / "nope.yaml", ToyFile, "toy")
