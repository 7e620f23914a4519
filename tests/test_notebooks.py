"""The notebooks users start from run top to bottom (small trial counts)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch, tmp_path):
    """Each notebook runs from its own folder, as Jupyter and ``nbconvert --execute`` do."""
    monkeypatch.setenv("ANALYZER_NOTEBOOK_TRIALS", "2000")
    monkeypatch.setenv("ANALYZER_NOTEBOOK_OUT", str(tmp_path))
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},  # as Jupyter runs it
    ).execute()
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and all(c.execution_count is not None for c in code)
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no chart was drawn"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_saved_with_its_outputs(path):
    """GitHub shows the saved outputs: every code cell ran, charts are there, no errors or
    warnings (``python notebooks/execute.py`` saves them)."""
    notebook = nbformat.read(path, as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), "run notebooks/execute.py"
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert any("image/png" in o.get("data", {}) for o in outputs), "no chart saved"
    assert not [o for o in outputs if o.output_type == "error"]
    stderr = "".join(o.get("text", "") for o in outputs if o.get("name") == "stderr")
    assert "Warning" not in stderr, stderr
