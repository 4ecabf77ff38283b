"""The λ history of a FairBatch scheduler, kept as columns of numpy arrays.

One row per processed epoch: its number, the disparity seen (the paper's, against
the overall rate), the largest pair disparity, λ after the update and the index of
the λ that moved (``-1``: none). Columns rather than a list of records so that
loading, stepping and storing a scheduler after a thousand epochs stays well under
a millisecond of array work (JSON of the same records took about 20 ms); the
service stores the arrays compressed. The arrays are read-only, so a state that
holds them cannot be changed in place.

References
----------
Roh, Lee, Whang, Suh (2021), "FairBatch: Batch Selection for Model Fairness",
ICLR — Appendix B.7, Figure 7b (the sampling weights plotted against the epoch).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.algorithms.validation import InputError

__all__ = ["COLUMNS", "LambdaHistory"]

COLUMNS = ("epoch", "disparity", "max_pair_disparity", "lambdas", "moved")


def _frozen(values: Any, dtype: type, shape: tuple[int, ...] | None = None) -> np.ndarray:
    out: np.ndarray = np.array(values, dtype=dtype)
    if shape is not None:
        out = out.reshape(shape)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class LambdaHistory:
    """λ after each epoch; ``lambdas`` has one row per epoch and one column per λ."""

    epoch: np.ndarray
    disparity: np.ndarray
    max_pair_disparity: np.ndarray
    lambdas: np.ndarray
    moved: np.ndarray

    @classmethod
    def empty(cls, n_lambdas: int) -> LambdaHistory:
        return cls(
            _frozen([], np.int64), _frozen([], float), _frozen([], float),
            _frozen(np.empty((0, n_lambdas)), float), _frozen([], np.int64),
        )

    def __len__(self) -> int:
        return len(self.epoch)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LambdaHistory):
            return NotImplemented
        return all(np.array_equal(getattr(self, c), getattr(other, c)) for c in COLUMNS)

    def append(
        self, epoch: int, disparity: float, max_pair_disparity: float, lambdas: np.ndarray, moved: int | None
    ) -> LambdaHistory:
        """A new history with one more row (the arrays of this one are not touched)."""
        return LambdaHistory(
            _frozen(np.append(self.epoch, epoch), np.int64),
            _frozen(np.append(self.disparity, disparity), float),
            _frozen(np.append(self.max_pair_disparity, max_pair_disparity), float),
            _frozen(np.vstack([self.lambdas, np.asarray(lambdas, dtype=float)[None, :]]), float),
            _frozen(np.append(self.moved, -1 if moved is None else moved), np.int64),
        )

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {c: getattr(self, c) for c in COLUMNS}

    @classmethod
    def from_arrays(cls, data: Mapping[str, Any], n_lambdas: int) -> LambdaHistory:
        """Rebuild from :meth:`to_arrays` output or the same columns as JSON lists."""
        n = len(data["epoch"])
        history = cls(
            _frozen(data["epoch"], np.int64, (n,)),
            _frozen(data["disparity"], float, (n,)),
            _frozen(data["max_pair_disparity"], float, (n,)),
            _frozen(data["lambdas"], float, (n, n_lambdas)),
            _frozen(data["moved"], np.int64, (n,)),
        )
        if n and (np.any(np.diff(history.epoch) <= 0) or history.epoch[0] < 1):
            raise InputError("history epochs must count up from 1")
        if np.any((history.moved < -1) | (history.moved >= n_lambdas)):
            raise InputError("history moved must be -1 or a λ index")
        return history

    def entries(self) -> list[dict[str, Any]]:
        """One JSON-ready record per epoch, ``moved`` as ``None`` when no λ changed."""
        return [
            {
                "epoch": int(e), "disparity": float(d), "max_pair_disparity": float(m),
                "lambdas": lam.tolist(), "moved": None if k < 0 else int(k),
            }
            for e, d, m, lam, k in zip(
                self.epoch, self.disparity, self.max_pair_disparity, self.lambdas, self.moved, strict=True
            )
        ]
