"""Every command explains every option and shows examples that parse."""

from __future__ import annotations

import glob
import shlex

import click
import pytest

from analyzer.cli import EXAMPLES, _fold_start_distance, cli


def commands(group: click.Group = cli, path: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))


@pytest.mark.parametrize(
    ("path", "command"), list(commands()), ids=lambda p: " ".join(p) if isinstance(p, tuple) else ""
)
def test_every_option_has_help(path, command) -> None:
    bare = [p.opts[0] for p in command.params if isinstance(p, click.Option) and not p.help]
    assert not bare, f"analyzer {' '.join(path)}: options without help: {bare}"


def test_every_top_level_command_has_examples() -> None:
    missing = [
        name for name, command in cli.commands.items() if "Examples:" not in (command.epilog or "")
    ]
    assert not missing


@pytest.mark.parametrize("example", [line for lines in EXAMPLES.values() for line in lines])
def test_examples_parse(example: str, monkeypatch) -> None:
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    words = []
    for word in shlex.split(example)[1:]:
        words += sorted(glob.glob(word)) if "*" in word else [word]
    args = _fold_start_distance(words)
    command: click.Command = cli
    while isinstance(command, click.Group):
        found = command.get_command(click.Context(command), args[0])
        assert found is not None, example
        command, args = found, args[1:]
    with command.make_context(command.name or "", args) as ctx:  # parses and checks types
        assert ctx.params
