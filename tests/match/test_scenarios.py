"""Every engine finds its ``--scenario`` (map, board, mission) the same way:
``analyzer.match.scenarios.scenario_file``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from analyzer.errors import InputError
from analyzer.games.d20.match.compile import scenario_path as d20_path
from analyzer.games.degenesis.match.compile import mission_path
from analyzer.games.heroscape.match.scenario import scenario_path as heroscape_path
from analyzer.games.hybrid.match.compile import scenario_path as hybrid_path
from analyzer.games.rapture.match import scenario_path as rapture_path
from analyzer.match.scenarios import bundled, scenario_file

RESOLVERS: dict[str, tuple[Callable[[str], Path], str, str]] = {
    "rapture": (rapture_path, "river", "scenario"),
    "d20": (d20_path, "virus_raid", "d20 scenario"),
    "heroscape": (heroscape_path, "highlands", "heroscape scenario"),
    "hybrid": (hybrid_path, "venom_vats", "hybrid mission"),
    "degenesis": (mission_path, "spider_hunt", "degenesis mission"),
}


@pytest.mark.parametrize("system", sorted(RESOLVERS))
def test_a_bundled_name_and_a_path_both_resolve(system: str) -> None:
    resolve, name, _ = RESOLVERS[system]
    found = resolve(name)
    assert found.name == f"{name}.yaml" and found.is_file()
    assert resolve(str(found)) == found


@pytest.mark.parametrize("system", sorted(RESOLVERS))
@pytest.mark.parametrize("value", ["/tmp/x/nonexist.yaml", "maps/river", "river.yml"])
def test_a_missing_path_says_the_file_does_not_exist(system: str, value: str) -> None:
    resolve, _, what = RESOLVERS[system]
    with pytest.raises(InputError) as err:
        resolve(value)
    assert str(err.value) == f"{what} file {value} does not exist"


@pytest.mark.parametrize("system", sorted(RESOLVERS))
def test_an_unknown_name_lists_the_bundled_ones(system: str) -> None:
    resolve, name, what = RESOLVERS[system]
    with pytest.raises(InputError) as err:
        resolve("nowhere")
    assert str(err.value).startswith(f"unknown {what} 'nowhere' (a .yaml file, or one of: ")
    assert name in str(err.value)


def test_a_folder_is_not_a_scenario(tmp_path: Path) -> None:
    (tmp_path / "maps.yaml").mkdir()
    with pytest.raises(InputError, match="is a folder, not a file"):
        scenario_file(tmp_path / "maps.yaml", tmp_path)
    (tmp_path / "b.yaml").write_text("{}")
    (tmp_path / "a.yaml").write_text("{}")
    assert bundled(tmp_path) == ["a", "b"]
