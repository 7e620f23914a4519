"""Finished blocks on disk: one Parquet file per block, plus a manifest.

Layout of a results folder::

    blocks/<block id>.parquet   counts of one block (column ``count``; the names of
                                the counts, the task, index and seed in the metadata)
    manifest.jsonl              one line per stored block: id, task, index, seed, run
    sweep.json                  the sweep (spec, hashes, versions) and the log of runs

A block is written to a temporary file in ``blocks/`` and moved into place
with :func:`os.replace` (atomic), then appended to the manifest with the SHA-256
of its bytes, so a crash, ``kill -9`` or Ctrl-C leaves only whole blocks behind.
The block id is a hash of the task's content, the code that runs it, the seed and the block index
(:func:`analyzer.experiments.tasks.block_id`): a rerun finds the blocks it
already has and computes only the rest, and a changed spec or changed rules
produce new ids, so stale blocks are never reused.  On opening, the folder is
locked (a second run on it refuses with one line), temporary files of processes
that are gone are removed, every block is checked (readable Parquet, the checksum
the manifest recorded, counts that are non-negative and no more wins than duels)
and a block failing a check is discarded, to be recomputed, with a warning; the
manifest is repaired to list exactly the block files kept.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.experiments.tasks import KERNEL_COLUMNS
from analyzer.outputs import (
    OutputError,
    atomic_write_bytes,
    atomic_write_json,
    lock_folder,
    stale_temp_files,
    writable_dir,
)

BLOCKS = "blocks"
MANIFEST = "manifest.jsonl"
SWEEP = "sweep.json"

__all__ = ["BlockStore", "atomic_write_bytes", "atomic_write_json", "read_block"]


def checksum(data: bytes) -> str:
    """SHA-256 (hex) of a block file's bytes, as recorded in the manifest."""
    return hashlib.sha256(data).hexdigest()


def read_block(
    data: bytes, columns: Sequence[str] | None = None, trials: int | None = None
) -> np.ndarray:
    """Counts of a block file's bytes; ValueError if they are not a block (torn, random
    bytes ending in ``PAR1``, no ``count`` column) or impossible counts: negative, another
    number than ``columns`` (the manifest's, when it lists them), more wins than duels,
    or duels that do not add up to the block's ``trials`` (the manifest's, when known)."""
    if len(data) < 12 or not data.endswith(b"PAR1"):
        raise ValueError("not a whole Parquet file")
    try:
        table = pq.read_table(pa.BufferReader(data))
        counts = np.asarray(table.column("count").to_numpy(), dtype=np.int64)
    except (pa.ArrowException, KeyError, ValueError, TypeError, OSError) as err:
        raise ValueError(f"unreadable block ({type(err).__name__})") from None
    if (counts < 0).any() or (columns is not None and len(columns) != counts.size):
        raise ValueError("counts negative or not one per column")
    if columns is not None and tuple(columns) == KERNEL_COLUMNS:
        n, win_a, win_b = counts[0::3], counts[1::3], counts[2::3]  # per first-mover order
        if (win_a + win_b > n).any():
            raise ValueError("more wins than duels")
        if trials is not None and int(n.sum()) != trials:
            raise ValueError(f"{int(n.sum())} duels in a block of {trials}")
    return counts


class BlockStore:
    """The blocks of a results folder (creating it if needed)."""

    def __init__(self, root: str | Path) -> None:
        self.root = writable_dir(root)
        self._lock = lock_folder(self.root)
        self.blocks_dir = writable_dir(self.root / BLOCKS)
        self.manifest_path = self.root / MANIFEST
        self._cache: dict[str, np.ndarray] = {}
        self.present: set[str] = set()
        self.discarded = 0  # torn files (a crash while writing)
        self.corrupted = 0  # whole files failing a check (edited, overwritten)
        try:
            self._open()
        except BaseException:
            self._lock.close()
            raise
        self.initial = len(self.present)

    def _open(self) -> None:
        for folder in (self.blocks_dir, self.root):
            for tmp in stale_temp_files(folder):
                tmp.unlink(missing_ok=True)
        entries = self.manifest()
        sums = {e["block"]: e.get("sha256") for e in entries}
        columns = {e["block"]: e.get("columns") for e in entries}
        trials = {e["block"]: e.get("trials") for e in entries}
        for path in self.blocks_dir.glob("*.parquet"):
            data = path.read_bytes()
            try:
                if sums.get(path.stem) not in (None, checksum(data)):
                    raise ValueError("checksum differs from the manifest's")
                self._cache[path.stem] = read_block(
                    data, columns.get(path.stem), trials.get(path.stem)
                )
            except ValueError:
                torn = not data.endswith(b"PAR1")
                path.unlink(missing_ok=True)
                self.discarded += torn
                self.corrupted += not torn
                continue
            self.present.add(path.stem)
            if sums.get(path.stem) is None:
                sums[path.stem] = checksum(data)
        listed = {e["block"] for e in entries}
        kept = [e for e in entries if e["block"] in self.present]
        seen: set[str] = set()
        unique = []
        for entry in kept:
            if entry["block"] not in seen:
                seen.add(entry["block"])
                unique.append(entry)
        recovered = [
            {"block": b, "recovered": True, "sha256": sums[b]}
            for b in sorted(self.present - listed)
        ]
        if len(unique) != len(entries) or recovered or self._torn_manifest():
            lines = "".join(json.dumps(e) + "\n" for e in unique + recovered)
            atomic_write_bytes(self.manifest_path, lines.encode())
        self._manifest = self.manifest_path.open("a", encoding="utf-8")

    def _torn_manifest(self) -> bool:
        if not self.manifest_path.exists():
            return False
        data = self.manifest_path.read_bytes()
        return bool(data) and not data.endswith(b"\n")

    def manifest(self) -> list[dict[str, Any]]:
        """The manifest's entries (a torn last line, left by a kill, is skipped)."""
        if not self.manifest_path.exists():
            return []
        entries = []
        for line in self.manifest_path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict) and "block" in entry:
                entries.append(entry)
        return entries

    def files_on_disk(self) -> int:
        """Block files present now (exact even if a write was cut short by a signal)."""
        return sum(1 for _ in self.blocks_dir.glob("*.parquet"))

    def has(self, block: str) -> bool:
        return block in self.present

    def path(self, block: str) -> Path:
        return self.blocks_dir / f"{block}.parquet"

    def write(
        self, block: str, counts: np.ndarray, meta: dict[str, Any], columns: tuple[str, ...]
    ) -> None:
        """Store one block atomically and record it in the manifest."""
        counts = np.asarray(counts, dtype=np.int64)
        info = {"block": block, **meta, "columns": list(columns)}
        table = pa.Table.from_arrays(
            [pa.array(counts, type=pa.int64())], names=["count"]
        ).replace_schema_metadata({"analyzer.block": json.dumps(info)})
        sink = pa.BufferOutputStream()
        pq.write_table(  # one small column, no statistics: ~0.4 ms per block
            table,
            sink,
            compression="NONE",
            use_dictionary=False,
            write_statistics=False,
            store_schema=False,
        )
        data = sink.getvalue().to_pybytes()
        atomic_write_bytes(self.path(block), data)
        self.present.add(block)
        self._cache[block] = counts
        entry = {
            "block": block,
            **meta,
            "columns": list(columns),
            "sha256": checksum(data),
            "time": round(time.time(), 3),
        }
        try:
            self._manifest.write(json.dumps(entry) + "\n")
            self._manifest.flush()
        except OSError as err:
            raise OutputError(f"cannot write {self.manifest_path}: {err.strerror}") from None

    def read(self, block: str) -> np.ndarray:
        """Counts of a stored block (checked when the store was opened or written)."""
        return self._cache[block]

    def close(self) -> None:
        self._manifest.close()
        self._lock.close()

    def __enter__(self) -> BlockStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
