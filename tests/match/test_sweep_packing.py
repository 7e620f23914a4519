"""Packing a match-up's arrays into one int64 parameter vector (analyzer.match.sweep)."""

import numpy as np
import pytest

from analyzer.match.sweep import pack_arrays, unpack_arrays


def test_every_supported_dtype_round_trips_exactly_and_compactly():
    rng = np.random.default_rng(3)
    arrays = (
        rng.normal(size=(3, 5)),
        rng.integers(-9, 9, size=7),
        rng.integers(-100, 100, size=(2, 3, 3)).astype(np.int8),
        rng.integers(0, 255, size=11).astype(np.uint8),
        rng.random(5) < 0.5,
        rng.normal(size=3).astype(np.float32),
        rng.integers(0, 2**40, size=4).astype(np.uint64),
        np.zeros((0, 4), dtype=np.int16),
    )
    vector = pack_arrays(arrays)
    back = unpack_arrays(vector)
    assert len(back) == len(arrays)
    for a, b in zip(arrays, back, strict=True):
        assert b.dtype == a.dtype and b.shape == a.shape
        assert np.array_equal(a, b)
        assert b.flags.c_contiguous and b.flags.writeable
    # an int8 table of 18 entries takes 3 words, not 18
    alone = pack_arrays((arrays[2],))
    assert alone.size == 1 + 2 + 3 + 3


def test_int64_and_float64_vectors_keep_their_historic_layout():
    vector = pack_arrays((np.array([1.5]), np.array([[7, 8]], dtype=np.int64)))
    head = [2, 1, 1, 1, 2, 2, 1, 2]
    assert vector[:8].tolist() == head
    assert vector[8] == np.array([1.5]).view(np.int64)[0]
    assert vector[9:].tolist() == [7, 8]


def test_unsupported_dtype_and_malformed_vectors_are_refused():
    with pytest.raises(TypeError, match="complex128"):
        pack_arrays((np.zeros(2, dtype=np.complex128),))
    vector = pack_arrays((np.arange(3),))
    with pytest.raises(ValueError, match="malformed"):
        unpack_arrays(vector[:-1])
    bad = vector.copy()
    bad[1] = 99
    with pytest.raises(ValueError, match="malformed"):
        unpack_arrays(bad)
