"""Cells, blocks and λ pairs of a FairBatch batch scheduler.

A scheduler over labels ``y_0 .. y_{K-1}`` and groups ``z_0 .. z_{G-1}`` has
``K·G`` cells ``(y, z)``, indexed by position, label-major: cell ``k`` is
``(labels[k // G], groups[k % G])``. Labels and groups are kept exactly as the
caller gave them (numbers or strings) and never used as keys internally.

A *block* is a set of cells whose total sampling mass is fixed, ``c = m_block / m``;
λ only moves mass between cells of one block (Section 2):

* equal opportunity — one block, the cells of the positive label; every other
  cell keeps its natural probability ``m_{y,z} / m``;
* equalized odds — one block per label. For more than two labels Appendix B.8
  adjusts every λ of the label with the largest disparity; following SPEC §5.4
  only the largest pair's λ moves (it lies in that label), as for two labels;
* demographic parity — one block per label as well, like equalized odds, with
  the disparities of Appendix A.1 (see :mod:`service.algorithms.fairbatch.disparity`).
  This is the pairing of Algorithm 4 and of the paper's released sampler, and the
  one SPEC §5.4 asks for (probability moves inside the compared pair only).
  Section 2's text instead adjusts each group's label balance ("between L_{0,z}
  and L_{1,z}"); with A.1's disparities that asks each group to match the other's
  true-negative mass and, on the paper's synthetic data, fell to 0.69 accuracy.

Disparities compare the same label in *adjacent* groups, taken in the order of
``groups`` among the groups that have examples of that label (Section 2, "beyond
binary": the ``n_z - 1`` sequential disparities). The disparity of pair ``(a, b)``
moves probability between exactly those two cells. ``λ_j`` is the probability
mass of its block's first ``j + 1`` cells, so that move changes ``λ_j`` alone (the
coordinate update of Section 3.2) and the feasible set is
``0 <= λ_0 <= ... <= λ_{n-2} <= c`` — for two groups the paper's box
``[0, m_{y,·}/m]``, and in general every cell's probability stays in ``[0, c]``.

References
----------
Roh, Lee, Whang, Suh (2021), "FairBatch: Batch Selection for Model Fairness",
ICLR — Section 2 (bilevel problems and "beyond binary"), Appendix A.1, Algorithm 4
(Appendix A.6), Appendix B.8.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from service.algorithms.validation import InputError, ambiguous_text_message, same_text

__all__ = [
    "METRICS",
    "CellLayout",
    "build_layout",
    "check_values",
    "count_vector",
    "default_positive",
    "value_index",
    "value_key",
]

METRICS = ("equal_opportunity", "equalized_odds", "demographic_parity")

Value = str | int | float


def value_key(value: object) -> tuple[str, object]:
    """Comparison key of a label or group: numbers by value (1 == 1.0), strings as text."""
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(float(value)):
        raise InputError(f"labels and groups must be strings or finite numbers, got {value!r}")
    return ("n", float(value))


def check_values(name: str, values: Sequence[Value], minimum: int) -> tuple[Value, ...]:
    """Validate a list of labels or groups: scalars, distinct, at least ``minimum`` of them."""
    if isinstance(values, str | bytes) or not isinstance(values, Sequence):
        raise InputError(f"{name} must be a list of strings or numbers")
    out = tuple(v.item() if isinstance(v, np.generic) else v for v in values)
    keys = [value_key(v) for v in out]
    if len(set(keys)) != len(keys):
        raise InputError(f"{name} must be distinct, got {list(out)!r}")
    ambiguous = same_text(out)
    if ambiguous is not None:  # 1 and "1" differ here but not as the keys of a client's JSON
        raise InputError(f"{name} {ambiguous_text_message(ambiguous)}")
    if len(out) < minimum:
        raise InputError(f"need at least {minimum} {name}, got {len(out)}")
    return out


def value_index(values: Sequence[Value]) -> dict[tuple[str, object], int]:
    """Map the comparison key of each value to its position."""
    return {value_key(v): i for i, v in enumerate(values)}


def default_positive(labels: Sequence[Value]) -> int:
    """Index of the positive label when none is given: the label equal to 1, else the last one."""
    index = value_index(labels)
    return index.get(("n", 1.0), len(labels) - 1)


def count_vector(
    labels: Sequence[Value], groups: Sequence[Value], counts: Mapping[tuple[Value, Value], int]
) -> np.ndarray:
    """Per-cell counts (label-major) from ``{(label, group): count}``; missing cells count 0."""
    if not isinstance(counts, Mapping):
        raise InputError("counts must map (label, group) to a count")
    label_at, group_at = value_index(labels), value_index(groups)
    out = np.zeros(len(labels) * len(groups), dtype=np.int64)
    for key, count in counts.items():
        if not (isinstance(key, tuple) and len(key) == 2):
            raise InputError(f"counts keys must be (label, group) pairs, got {key!r}")
        label, group = key
        if value_key(label) not in label_at:
            raise InputError(f"counts names unknown label {label!r}; labels are {list(labels)!r}")
        if value_key(group) not in group_at:
            raise InputError(f"counts names unknown group {group!r}; groups are {list(groups)!r}")
        if isinstance(count, bool) or not isinstance(count, Integral) or count < 0:
            raise InputError(f"count of cell ({label!r}, {group!r}) must be a non-negative integer")
        out[label_at[value_key(label)] * len(groups) + group_at[value_key(group)]] = int(count)
    if out.sum() == 0:
        raise InputError("counts are all zero; the scheduler needs training examples")
    return out


@dataclass(frozen=True)
class CellLayout:
    """Which cells share mass (blocks) and which adjacent pairs carry a λ.

    ``pairs[j] = (a, b)`` are the two cells (same label, adjacent groups) that
    disparity ``j`` compares and that ``λ_j`` moves probability between;
    ``lambda_blocks[j]`` is the block of ``λ_j``; ``block_mass[i]`` the fixed total
    probability ``c`` of block ``i``.
    """

    n_labels: int
    n_groups: int
    positive: int
    blocks: tuple[tuple[int, ...], ...]
    block_mass: tuple[float, ...]
    pairs: tuple[tuple[int, int], ...]
    lambda_blocks: tuple[int, ...]

    def box(self, natural: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per-cell feasible box ``[low, high]``: ``[0, c]`` in a block with a λ, else the natural value."""
        low, high = natural.astype(float).copy(), natural.astype(float).copy()
        for cells, mass in zip(self.blocks, self.block_mass, strict=True):
            low[list(cells)], high[list(cells)] = 0.0, mass
        return low, high

    def lambdas(self, probabilities: np.ndarray) -> np.ndarray:
        """λ_j: probability mass of its block's cells up to and including the first cell of pair j."""
        out: list[float] = []
        for cells in self.blocks:
            out.extend(np.cumsum(probabilities[list(cells)])[:-1].tolist())
        return np.asarray(out, dtype=float)


def build_layout(metric: str, n_labels: int, n_groups: int, positive: int, counts: np.ndarray) -> CellLayout:
    """Blocks and adjacent λ pairs for ``metric`` given the per-cell counts."""
    if metric not in METRICS:
        raise InputError(f"unknown metric {metric!r}; use one of {list(METRICS)}")
    if metric == "demographic_parity" and n_labels != 2:
        raise InputError(
            "demographic_parity needs exactly two labels: Appendix A.1 writes P(ŷ = 1 | z) through "
            f"the per-cell losses of a binary label; got {n_labels} labels"
        )
    rows = [positive] if metric == "equal_opportunity" else range(n_labels)
    blocks: list[tuple[int, ...]] = []
    pairs: list[tuple[int, int]] = []
    lambda_blocks: list[int] = []
    for y in rows:
        cells = tuple(y * n_groups + z for z in range(n_groups) if counts[y * n_groups + z] > 0)
        if len(cells) < 2:
            continue
        blocks.append(cells)
        for pair in zip(cells[:-1], cells[1:], strict=True):
            pairs.append(pair)
            lambda_blocks.append(len(blocks) - 1)
    if not pairs:
        what = "of the positive label" if metric == "equal_opportunity" else "of one label"
        raise InputError(f"{metric} needs at least two groups with examples {what}")
    total = float(counts.sum())
    mass = tuple(float(counts[list(cells)].sum()) / total for cells in blocks)
    return CellLayout(n_labels, n_groups, positive, tuple(blocks), mass, tuple(pairs), tuple(lambda_blocks))
