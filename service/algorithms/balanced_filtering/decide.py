"""Accepting candidates (Algorithm 2) with coins fixed by the candidate id.

Every random choice about a candidate -- the classifier a randomised split
uses, the acceptance coin -- is a uniform number derived from
``(seed, candidate id, stream)`` by a fixed hash, so the same id always gets
the same leaf and the same answer, in any batch, order or process, and a
decision log can be replayed without stored random state. Stream 0 is the
acceptance coin; stream ``1 + level`` routes through a randomised split at that
tree level.

The hash folds the id's Unicode code points, two per 64-bit word, with a
multiply-xorshift step and finishes with splitmix64's mixer (Steele, Lea,
Flood 2014); ``NUL`` characters are ignored (they are the
padding of numpy's fixed-width strings). Ids are compared as strings: ``7`` and
``"7"`` are the same candidate. Changing this function changes every
filter's answers -- tests pin its values.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Algorithm 2 (accept with probability ``rho`` of the candidate's proxy value).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from service.algorithms.balanced_filtering.tree import ProxyTree, leaf_of

__all__ = ["assign_leaves", "candidate_uniforms", "decide"]

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32, _S11 = (np.uint64(s) for s in (30, 27, 31, 32, 11))
# 53 random bits make a double in [0, 1) with every value equally likely.
_TO_UNIT = 2.0**-53


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on a uint64 array (wrapping arithmetic)."""
    x = x ^ (x >> _S30)
    x = x * _M1
    x = x ^ (x >> _S27)
    x = x * _M2
    return np.asarray(x ^ (x >> _S31))


def _id_words(candidate_ids: Sequence[Any] | np.ndarray) -> np.ndarray:
    ids = np.asarray(candidate_ids)
    if ids.dtype.kind != "U":
        ids = ids.astype(str)
    ids = np.ascontiguousarray(ids.ravel())
    width = ids.dtype.itemsize // 4
    codes = ids.view(np.uint32).reshape(len(ids), width).astype(np.uint64)
    if width % 2:
        codes = np.hstack([codes, np.zeros((len(ids), 1), dtype=np.uint64)])
    return codes[:, 0::2] | (codes[:, 1::2] << _S32)


def candidate_uniforms(candidate_ids: Sequence[Any] | np.ndarray, seed: int, n_streams: int = 1) -> np.ndarray:
    """Uniform numbers in [0, 1), shape (n, n_streams), fixed by ``(seed, id, stream)``."""
    words = _id_words(candidate_ids)
    state = _mix(np.full(len(words), (int(seed) & _MASK64) ^ _GOLDEN, dtype=np.uint64))
    for column in words.T:  # multiply-xorshift per word, one full mix at the end
        step = (state ^ column) * _M1
        state = np.where(column != 0, step ^ (step >> _S32), state)
    state = _mix(state)
    out = np.empty((len(words), n_streams))
    for stream in range(n_streams):
        offset = np.uint64(((stream + 1) * _GOLDEN) & _MASK64)
        out[:, stream] = (_mix(state + offset) >> _S11).astype(np.float64) * _TO_UNIT
    return out


def decide(
    rho: np.ndarray, leaves: np.ndarray, candidate_ids: Sequence[Any] | np.ndarray, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2 for a batch: ``(accept, probability)`` with ``probability = rho[leaf]``.

    No training and no solver: one hash per id and a comparison.
    """
    probability = np.asarray(rho, dtype=float)[np.asarray(leaves, dtype=np.int64)]
    coin = candidate_uniforms(candidate_ids, seed, 1)[:, 0]
    return coin < probability, probability


def assign_leaves(
    tree: ProxyTree, X: np.ndarray, candidate_ids: Sequence[Any] | np.ndarray, seed: int
) -> np.ndarray:
    """Proxy value of each candidate; randomised splits draw from the id's streams 1..depth."""
    if not tree.randomised:
        return leaf_of(tree, X)
    uniforms = candidate_uniforms(candidate_ids, seed, 1 + tree.depth)[:, 1:]
    return leaf_of(tree, X, uniforms)
