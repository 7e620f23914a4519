"""Finished blocks on disk: one Parquet file per block, plus a manifest.

Layout of a results folder::

    blocks/<block id>.parquet   counts of one block (column ``count``; the names of
                                the counts, the task, index and seed in the metadata)
    manifest.jsonl              one line per stored block: id, task, index, seed, run
    sweep.json                  the sweep (spec, hashes, versions) and the log of runs

A block is written to a temporary file in ``blocks/`` and moved into place
with :func:`os.replace` (atomic), then appended to the manifest, so a crash,
``kill -9`` or Ctrl-C leaves only whole blocks behind.  The block id is a hash
of the task's content, the code that runs it, the seed and the block index
(:func:`analyzer.experiments.tasks.block_id`): a rerun finds the blocks it
already has and computes only the rest, and a changed spec or changed rules
produce new ids, so stale blocks are never reused.  On opening, leftover
temporary files are removed, truncated block files are discarded and the
manifest is repaired to list exactly the block files present.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

BLOCKS = "blocks"
MANIFEST = "manifest.jsonl"
SWEEP = "sweep.json"
_TMP = ".tmp"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and :func:`os.replace`."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}{_TMP}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def atomic_write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=2, default=str) + "\n").encode())


def _is_whole_parquet(path: Path) -> bool:
    """A Parquet file ends with its footer magic; a torn write does not."""
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() < 12:
                return False
            f.seek(-4, os.SEEK_END)
            return f.read(4) == b"PAR1"
    except OSError:
        return False


class BlockStore:
    """The blocks of a results folder (creating it if needed)."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.blocks_dir = self.root / BLOCKS
        self.blocks_dir.mkdir(parents=True, exist_ok=True)
        self.manifest_path = self.root / MANIFEST
        self._cache: dict[str, np.ndarray] = {}
        self.present: set[str] = set()
        self.discarded = 0
        self._open()
        self.initial = len(self.present)

    def _open(self) -> None:
        for tmp in self.blocks_dir.glob(f".*{_TMP}"):
            tmp.unlink(missing_ok=True)
        for tmp in self.root.glob(f".*{_TMP}"):
            tmp.unlink(missing_ok=True)
        for path in self.blocks_dir.glob("*.parquet"):
            if _is_whole_parquet(path):
                self.present.add(path.stem)
            else:
                path.unlink(missing_ok=True)
                self.discarded += 1
        entries = self.manifest()
        listed = {e["block"] for e in entries}
        kept = [e for e in entries if e["block"] in self.present]
        seen: set[str] = set()
        unique = []
        for entry in kept:
            if entry["block"] not in seen:
                seen.add(entry["block"])
                unique.append(entry)
        recovered = [{"block": b, "recovered": True} for b in sorted(self.present - listed)]
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
        final = self.path(block)
        tmp = final.with_name(f".{final.name}.{os.getpid()}{_TMP}")
        pq.write_table(  # one small column, no statistics: ~0.4 ms per block
            table,
            tmp,
            compression="NONE",
            use_dictionary=False,
            write_statistics=False,
            store_schema=False,
        )
        os.replace(tmp, final)
        self.present.add(block)
        self._cache[block] = counts
        entry = {"block": block, **meta, "time": round(time.time(), 3)}
        self._manifest.write(json.dumps(entry) + "\n")
        self._manifest.flush()

    def read(self, block: str) -> np.ndarray:
        """Counts of a stored block."""
        if block not in self._cache:
            table = pq.read_table(self.path(block))
            self._cache[block] = np.asarray(table.column("count").to_numpy(), dtype=np.int64)
        return self._cache[block]

    def close(self) -> None:
        self._manifest.close()

    def __enter__(self) -> BlockStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
