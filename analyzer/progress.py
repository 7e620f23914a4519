"""Progress of long commands: a tqdm bar on a terminal, a periodic status line otherwise.

Every command that can run longer than a few seconds (``match``, ``compare``, ``value``,
``fair-cost``, ``sweep``) reports through :func:`progress_bar`: on a terminal a tqdm bar
with the count, the rate and an ETA; when stderr is not a terminal (logs, CI, pipes)
one plain line every :data:`STATUS_EVERY` seconds (``match 1.2k/30.0k (4%), 12 s,
ETA 4:10``), so a long batch job is never silent and its log stays readable.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

#: Seconds between two status lines when stderr is not a terminal.
STATUS_EVERY = 30.0


def progress_bar(total: int, unit: str, desc: str = "", force: bool | None = None) -> Any:
    """A bar (``update(n)``, ``set_description(text)``, ``total`` that may grow, context
    manager).  ``force``: None picks by whether stderr is a terminal, True a tqdm bar,
    False the status line."""
    tty = sys.stderr.isatty() if force is None else force
    if tty:
        from tqdm import tqdm

        return tqdm(
            total=total,
            unit=unit,
            unit_scale=True,
            desc=desc or None,
            file=sys.stderr,
            leave=False,
            mininterval=0.5,
            disable=total == 1,  # 0: a total still to come (grows)
        )
    return StatusLine(total, unit, desc)


def _clock(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _count(n: float) -> str:
    return f"{n / 1000:.1f}k" if n >= 10_000 else f"{n:,.0f}"


class StatusLine:
    """The non-terminal progress report: a line per :data:`STATUS_EVERY` seconds and one
    at the end (if the work took longer than one interval)."""

    def __init__(
        self, total: int, unit: str, desc: str = "", file: TextIO | None = None,
        every: float = STATUS_EVERY,
    ) -> None:  # fmt: skip
        self.total, self.unit, self.desc = total, unit, desc
        self.n: float = 0
        self.file = file or sys.stderr
        self.every = every
        self.start = self.last = time.monotonic()
        self.printed = False

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_description(self, desc: str, refresh: bool = True) -> None:
        self.desc = desc

    def reset(self, total: int) -> None:
        """Start a new round of ``total`` (the clock keeps running)."""
        self.n, self.total = 0, total

    def refresh(self) -> None:
        self._maybe_print(force=False)

    def update(self, n: float = 1) -> None:
        self.n += n
        self._maybe_print(force=False)

    def close(self) -> None:
        if self.printed and self.n:
            self._maybe_print(force=True)

    def line(self) -> str:
        """``value: duel 12/78 (15%), 0:31, ETA 2:50``."""
        elapsed = time.monotonic() - self.start
        head = f"{self.desc}: " if self.desc else ""
        text = f"{head}{self.unit} {_count(self.n)}/{_count(self.total)}"
        if self.total:
            text += f" ({100 * self.n / self.total:.0f}%)"
        text += f", {_clock(elapsed)}"
        if 0 < self.n < self.total:
            text += f", ETA {_clock(elapsed * (self.total - self.n) / self.n)}"
        return text

    def _maybe_print(self, force: bool) -> None:
        now = time.monotonic()
        if force or now - self.last >= self.every:
            print(self.line(), file=self.file, flush=True)
            self.last = now
            self.printed = True


class LazyBar:
    """A :func:`progress_bar` drawn from the first finished piece of work, not before: an
    input that fails to load is then one error line, not a bar followed by the error.

    ``update(n)`` adds ``n`` done; ``step(done, total, label)`` reports where a loop is
    (its total learnt then); ``describe(label)`` names the current piece of work.
    """

    def __init__(self, unit: str, total: int = 0, desc: str = "") -> None:
        self.unit, self.total, self.desc = unit, total, desc
        self.label = ""
        self.bar: Any = None

    def _open(self) -> Any:
        if self.bar is None:
            self.bar = progress_bar(self.total, self.unit, self.desc)
            self.describe(self.label)
        return self.bar

    def describe(self, label: str) -> None:
        self.label = label
        if self.bar is not None:
            text = f"{self.desc}: {label}" if self.desc and label else self.desc or label
            self.bar.set_description(text, refresh=False)

    def update(self, n: int) -> None:
        self._open().update(n)

    def step(self, done: int, total: int, label: str) -> None:
        self.total = total
        self.label = label
        bar = self._open()
        self.describe(label)
        bar.update(done - bar.n)

    def __enter__(self) -> LazyBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()
