"""Where the bundled sample data lives."""

from __future__ import annotations

from pathlib import Path

#: Repository root (the folder holding ``configs/``), for an editable install or a checkout.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: Bundled sample configs: ``configs/<system>/...``.
CONFIG_DIR = PROJECT_ROOT / "configs"


def system_config(system: str, name: str) -> Path:
    """Path of a bundled config file, e.g. ``system_config("heroscape", "dice.yaml")``."""
    return CONFIG_DIR / system / name
