"""Progress reports: status lines off a terminal, bars whose percentage never falls back."""

from __future__ import annotations

import io

from analyzer.experiments.runner import BlockProgress
from analyzer.progress import StatusLine


def test_status_line_counts_and_estimates_the_rest() -> None:
    out = io.StringIO()
    with StatusLine(40, "match", "compare rapture", file=out, every=0.0) as line:
        line.update(10)
        line.set_description("compare rapture: A vs B")
        line.update(30)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("compare rapture: match 10/40 (25%), 0:00, ETA 0:00")
    assert lines[1].startswith("compare rapture: A vs B: match 40/40 (100%)")
    assert "ETA" not in lines[1]
    assert len(lines) == 3  # and a final line on close


def test_status_line_is_quiet_for_short_work() -> None:
    out = io.StringIO()
    with StatusLine(5, "duel", file=out, every=60.0) as line:
        line.update(5)
    assert out.getvalue() == ""


class _Bar:
    """Records what a bar shows."""

    def __init__(self) -> None:
        self.n, self.total, self.desc, self.shown = 0, 0, "", []

    def set_description(self, desc, refresh=True):
        self.desc = desc

    def reset(self, total):
        self.n, self.total = 0, total

    def refresh(self):
        self.shown.append((self.desc, self.n, self.total))

    def update(self, n):
        self.n += n
        self.refresh()

    def close(self):
        pass


def test_more_blocks_for_a_ci_target_start_a_new_round_not_a_lower_percentage() -> None:
    progress = BlockProgress(False, "sweep x")
    progress.bar = bar = _Bar()
    progress.grow(10)
    progress.update(4)
    progress.grow(6)  # asked for while the first round runs: queued
    assert (bar.n, bar.total) == (4, 10)
    progress.update(7)  # the first round is done (and one queued block too)
    assert (bar.n, bar.total) == (1, 6) and "round 2" in bar.desc
    progress.update(5)
    progress.describe("fair-cost U: cost 30")
    progress.grow(16)  # a new piece of work: its own label, no "more blocks"
    assert (bar.n, bar.total, bar.desc) == (0, 16, "fair-cost U: cost 30")
    rounds: list[list[float]] = []
    for _, n, total in bar.shown:
        if n == 0 or not rounds or n / total < rounds[-1][-1]:
            rounds.append([])
        rounds[-1].append(n / total)
    assert len(rounds) == 3  # one per piece of work: within each the share only grows


def test_local_runs_default_to_serial() -> None:
    import dask

    from analyzer.experiments.executor import SerialExecutor, make_executor

    with dask.config.set({"scheduler-address": None}):
        assert isinstance(make_executor(None, None), SerialExecutor)
        assert isinstance(make_executor(0, None), SerialExecutor)


def test_too_many_workers_is_one_clear_error() -> None:
    import pytest

    from analyzer.errors import AnalyzerError
    from analyzer.experiments.executor import MAX_WORKERS, make_executor

    with pytest.raises(AnalyzerError, match=f"--workers must be from 0 to {MAX_WORKERS}"):
        make_executor(2**70, None)  # the fuzz test's find: a MemoryError in LocalCluster
