"""Seeds for logical blocks of trials.

Randomness is tied to *logical blocks*, never to threads or workers: block
``b`` of task ``task`` always gets the same generator state, derived with
:class:`numpy.random.SeedSequence` from ``(seed, task..., b)``.  Counts from
blocks are integers and are summed, so any chunking or thread count gives
identical totals.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analyzer.dice.random_nb import STATE_WORDS

#: Trials per block. Fixed, so results never depend on the thread count.
BLOCK_SIZE = 1 << 16


def block_sizes(trials: int, block_size: int = BLOCK_SIZE) -> np.ndarray:
    """Split ``trials`` into full blocks plus one remainder block."""
    if trials < 0:
        raise ValueError("trials must be >= 0")
    full, rest = divmod(trials, block_size)
    sizes = [block_size] * full + ([rest] if rest else [])
    return np.asarray(sizes, dtype=np.int64)


def block_states(
    seed: int, n_blocks: int, task: Sequence[int] = (), first_block: int = 0
) -> np.ndarray:
    """Generator states (``n_blocks x STATE_WORDS`` uint64) for consecutive blocks.

    Block ``first_block + i`` of ``task`` is seeded from
    ``SeedSequence(seed, spawn_key=(*task, first_block + i))``.
    """
    states = np.zeros((n_blocks, STATE_WORDS), dtype=np.uint64)
    for i in range(n_blocks):
        seq = np.random.SeedSequence(seed, spawn_key=(*task, first_block + i))
        words = seq.generate_state(4, dtype=np.uint64)
        if not words.any():
            words[0] = 1
        states[i, :4] = words
    return states
