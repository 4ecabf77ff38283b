"""FairBatch batch scheduler: the λ controller as pure session steps.

A client trains its own model. Before each epoch it reports the mean loss of
every cell ``(label, group)`` on its training data; :func:`epoch_step` answers
with the sampling probability of each cell and the integer composition of a
batch, which the client uses to draw that epoch's minibatches (or per-example
probabilities from :func:`example_weights`). The HTTP layer only loads the
state (:meth:`FairBatchState.from_dict`), calls a step and stores the result.

How it works (details in the modules named):

* cells, blocks and λ — :mod:`service.algorithms.fairbatch.cells`. Probabilities
  start at ``m_{y,z}/m``. Equal opportunity moves mass among the positive
  label's cells; equalized odds and demographic parity among the cells of each
  label. Within a label, groups are compared in *adjacent pairs* in the order of
  ``groups`` (the paper's ``n_z - 1`` sequential disparities, Section 2), one λ
  per pair; more than two labels follow Appendix B.8.
* disparities and the update — :mod:`service.algorithms.fairbatch.disparity`.
  The pair with the largest disparity moves ``step_size`` of probability toward
  its cell with the larger loss (Section 3's signed update, only that pair,
  Section 3.2), clipped so both cells stay in ``[0, c]``. Demographic parity
  compares Appendix A.1's reweighted losses ``(m_{y,z}/m_{·,z}) L_{y,z}`` with
  ``|x|_c`` on the negative label, as Algorithm 4 does. Nothing moves while the
  disparity of the measure is at most the threshold T (Appendix B.5): the largest
  pair disparity for EO and ED, the largest parity gap ``|P(ŷ=1|z_a) - P(ŷ=1|z_b)|``
  between adjacent groups for DP.
* state, creation and JSON round trip — :mod:`service.algorithms.fairbatch.state`.

References
----------
Roh, Lee, Whang, Suh (2021), "FairBatch: Batch Selection for Model Fairness", ICLR.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from service.algorithms.fairbatch.cells import Value
from service.algorithms.fairbatch.disparity import (
    gate_disparity,
    largest_remainder,
    pair_disparities,
    reported_disparity,
    signed_update,
)
from service.algorithms.fairbatch.state import EpochOrderError, FairBatchState, cell_index, evolve
from service.algorithms.validation import InputError

__all__ = ["EpochResult", "epoch_step", "example_weights"]

Losses = Sequence[float] | np.ndarray | Mapping[tuple[Value, Value], float]


@dataclass(frozen=True)
class EpochResult:
    """The decision for one epoch: disparities seen, λ, and per cell (``cells``, label-major) the sampling
    probability and the batch composition."""

    epoch: int
    disparity: float
    max_pair_disparity: float
    pair_disparities: tuple[float, ...]
    moved: int | None
    lambdas: tuple[float, ...]
    cells: tuple[tuple[Value, Value], ...]
    sampling_probabilities: tuple[float, ...]
    batch_composition: tuple[int, ...]


def _loss_vector(state: FairBatchState, losses: Losses) -> np.ndarray:
    n = len(state.counts)
    if isinstance(losses, Mapping):
        out = np.full(n, np.nan)
        for (label, group), value in losses.items():
            out[cell_index(state, label, group)] = value
    else:
        out = np.asarray(losses, dtype=float).ravel()
        if out.shape != (n,):
            raise InputError(f"losses must have one value per cell ({n}), got {out.size}")
    occupied = np.asarray(state.counts) > 0
    bad = occupied & ~(np.isfinite(out) & (out >= 0))
    if bad.any():
        y, z = state.cells[int(np.flatnonzero(bad)[0])]
        raise InputError(f"loss of cell ({y!r}, {z!r}) must be a finite number >= 0")
    return np.where(occupied, out, 0.0)


def epoch_step(
    state: FairBatchState,
    losses: Losses,
    epoch: int,
) -> tuple[FairBatchState, EpochResult]:
    """Update λ from the per-cell mean losses and return the next epoch's sampling.

    Parameters
    ----------
    state : the scheduler; not modified.
    losses : mean loss of each cell on the client's training data, either one value
        per cell in label-major order or ``{(label, group): loss}``. Cells without
        examples may be left out (their loss is ignored).
    epoch : must exceed ``state.epoch`` (epochs count up from 1); :class:`EpochOrderError` if not.

    Returns
    -------
    (new_state, result) : ``result.batch_composition`` sums to ``state.batch_size``.

    References
    ----------
    Roh et al. (2021), Section 3.1-3.2 (signed update of the largest disparity's λ),
    Algorithms 2-4, Appendix A.1 (DP), Appendix B.5 (threshold), Appendix B.8 (multi-class).
    """
    if isinstance(epoch, bool) or not isinstance(epoch, int | np.integer) or epoch <= state.epoch:
        raise EpochOrderError(f"epoch must be an integer after {state.epoch}, got {epoch!r}")
    loss = _loss_vector(state, losses)
    counts = np.asarray(state.counts, dtype=np.int64)
    layout = state.layout
    pairs = pair_disparities(state.metric, layout, counts, loss)
    gate = gate_disparity(state.metric, layout, counts, loss, pairs)
    probabilities, move = signed_update(
        np.asarray(state.probabilities), layout, pairs, state.step_size, state.threshold, gate
    )
    lambda_values = layout.lambdas(probabilities)
    lambdas = tuple(lambda_values.tolist())
    disparity = reported_disparity(state.metric, layout, counts, loss)
    max_pair = float(np.max(np.abs(pairs)))
    history = state.history.append(int(epoch), disparity, max_pair, lambda_values, move.index)
    new_state = evolve(state, probabilities=tuple(probabilities.tolist()), epoch=int(epoch), history=history)
    result = EpochResult(
        epoch=int(epoch), disparity=disparity, max_pair_disparity=max_pair,
        pair_disparities=tuple(pairs.tolist()), moved=move.index, lambdas=lambdas, cells=state.cells,
        sampling_probabilities=new_state.probabilities,
        batch_composition=tuple(largest_remainder(probabilities, state.batch_size).tolist()),
    )
    return new_state, result


def example_weights(state: FairBatchState, cell_index_per_example: Sequence[int] | np.ndarray) -> np.ndarray:
    """Per-example sampling probability: the cell's probability divided by its count.

    ``cell_index_per_example[i]`` is the cell (label-major position) of training
    example ``i``; the cell sizes must match the counts the scheduler was made
    with, so the weights sum to 1 (the reweighted risk of Section 2).
    """
    cells = np.asarray(cell_index_per_example)
    n = len(state.counts)
    if cells.ndim != 1 or not np.issubdtype(cells.dtype, np.integer) or (cells.size and (
        cells.min() < 0 or cells.max() >= n
    )):
        raise InputError(f"cell_index_per_example must be integers in [0, {n})")
    sizes = np.bincount(cells, minlength=n)
    if not np.array_equal(sizes, np.asarray(state.counts)):
        k = int(np.flatnonzero(sizes != np.asarray(state.counts))[0])
        raise InputError(
            f"cell {state.cells[k]!r} has {sizes[k]} examples here but {state.counts[k]} in the scheduler"
        )
    per_example = np.divide(
        np.asarray(state.probabilities), sizes, out=np.zeros(n), where=sizes > 0
    )
    return np.asarray(per_example[cells])
