"""Arrays stored compressed in binary columns: ``.npz`` bytes, never pickles."""

from __future__ import annotations

import io

import numpy as np

__all__ = ["pack", "unpack"]


def pack(arrays: dict[str, np.ndarray]) -> bytes:
    """Compress named arrays into ``.npz`` bytes (object arrays are refused)."""
    buffer = io.BytesIO()
    clean = {}
    for name, value in arrays.items():
        array = np.asarray(value)
        if array.dtype == object:
            array = array.astype(str)
        clean[name] = array
    np.savez_compressed(buffer, allow_pickle=False, **clean)
    return buffer.getvalue()


def unpack(data: bytes) -> dict[str, np.ndarray]:
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}
