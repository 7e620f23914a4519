"""Writing output files safely: temp file then :func:`os.replace`, and folders checked first.

Every table, chart list, JSON and block is written to ``.NAME.PID.tmp`` next to its
final name and moved into place with :func:`os.replace` (atomic), so a crash or a
full disk never leaves a truncated file under the final name.  A write that fails
(disk full, read-only folder) removes its temp file and raises :class:`OutputError`,
one line naming the file.  Temp files carry the writer's process id, so a cleanup
removes only those of processes that are gone (:func:`stale_temp_files`).
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from analyzer.errors import AnalyzerError, InputError

TMP_SUFFIX = ".tmp"


class OutputError(AnalyzerError):
    """An output file or folder that cannot be written (one line, exit code 2)."""


def _describe(err: OSError) -> str:
    return err.strerror or str(err)


def temp_path(path: Path) -> Path:
    """``dir/.NAME.PID.tmp``: this process's temp file for ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}{TMP_SUFFIX}")


def atomic_write(path: str | Path, write: Callable[[Path], Any]) -> Path:
    """Call ``write(tmp)`` to fill a temp file, then move it to ``path`` (atomic).

    On any OSError (e.g. ``No space left on device``) the temp file is removed, ``path``
    keeps its old content (or stays absent) and :class:`OutputError` names the file.
    """
    path = Path(path)
    tmp = temp_path(path)
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {_describe(err)}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temp file and :func:`os.replace`."""
    return atomic_write(path, lambda tmp: tmp.write_bytes(data))


def atomic_write_text(path: str | Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | Path, data: Any, indent: int | None = 2) -> Path:
    return atomic_write_text(path, json.dumps(data, indent=indent, default=str) + "\n")


def write_table(table: Any, path: str | Path, **options: Any) -> Path:
    """A DataFrame as Parquet (``.parquet``) or CSV (anything else), atomically;
    ``options`` go to ``to_parquet`` / ``to_csv`` (default ``index=False``)."""
    path = Path(path)
    options.setdefault("index", False)
    if path.suffix == ".parquet":
        return atomic_write(path, lambda tmp: table.to_parquet(tmp, **options))
    return atomic_write(path, lambda tmp: table.to_csv(tmp, **options))


def save_figure(fig: Any, path: str | Path, dpi: int = 120) -> Path:
    """A matplotlib figure as PNG, atomically (the format is given: the temp name has none)."""
    return atomic_write(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format="png"))


def writable_dir(path: str | Path, option: str = "--out") -> Path:
    """Create the output folder if needed and check that a file can be written in it.

    Called before any work, so that a folder under a file, read-only or under ``/proc``
    is one line at once rather than an error after minutes of computing.
    """
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = temp_path(path / "write-check")
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise OutputError(f"{option} {path}: cannot write there: {_describe(err)}") from None
    return path


#: The lock file of a results folder.
LOCK = ".lock"


def lock_folder(root: Path) -> IO[bytes]:
    """An exclusive lock on the results folder ``root``, held until the returned handle
    is closed (released by the system if the process dies); a second run refuses with
    one line naming the holder."""
    handle = (root / LOCK).open("a+b")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        owner = handle.read().decode(errors="replace").strip() or "another process"
        handle.close()
        raise InputError(
            f"{root} is in use by another run ({owner}); wait for it to finish "
            "or give another --out"
        ) from None
    handle.truncate(0)
    handle.write(f"pid {os.getpid()}".encode())
    handle.flush()
    return handle


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def stale_temp_files(folder: Path) -> Iterator[Path]:
    """Temp files in ``folder`` left by processes that no longer run (not by live ones)."""
    for tmp in folder.glob(f".*{TMP_SUFFIX}"):
        pid = tmp.name.removesuffix(TMP_SUFFIX).rsplit(".", 1)[-1]
        if not pid.isdigit() or not _pid_alive(int(pid)):
            yield tmp


# ------------------------------------------------------------------ reading results back
def _unreadable(path: Path, what: str, err: Exception) -> InputError:
    detail = " ".join(str(err).split())[:120]
    return InputError(
        f"{path}: cannot read it as {what} (truncated or damaged? {type(err).__name__}: "
        f"{detail}); rerun the command that wrote it"
    )


def read_parquet(path: str | Path) -> Any:
    """A results table (Parquet) as a DataFrame; a damaged file is one InputError line."""
    import pandas as pd
    import pyarrow as pa

    path = Path(path)
    try:
        return pd.read_parquet(path)
    except (OSError, ValueError, pa.ArrowException) as err:
        raise _unreadable(path, "a Parquet table", err) from None


def read_csv(path: str | Path, **options: Any) -> Any:
    """A CSV table as a DataFrame; a damaged file is one InputError line."""
    import pandas as pd

    path = Path(path)
    try:
        return pd.read_csv(path, **options)
    except (OSError, ValueError, UnicodeDecodeError, pd.errors.ParserError) as err:
        raise _unreadable(path, "a CSV table", err) from None


def read_json(path: str | Path) -> Any:
    """A JSON file written by a command; a truncated one is one InputError line."""
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise _unreadable(path, "JSON", err) from None
