"""Run every notebook top to bottom from its own folder and save it with its outputs.

    python notebooks/execute.py            # all notebooks
    python notebooks/execute.py 02         # those whose name starts with 02

The saved outputs (tables, charts) are what GitHub shows; ``tests/test_notebooks.py``
checks that they are there and error-free, and reruns each notebook with few trials.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def execute(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook, timeout=1800, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}
    ).execute()
    nbformat.write(notebook, path)
    print(f"saved {path.name} with its outputs")


if __name__ == "__main__":
    prefixes = sys.argv[1:] or [""]
    for path in sorted(HERE.glob("*.ipynb")):
        if any(path.name.startswith(prefix) for prefix in prefixes):
            execute(path)
