"""FairBatch: batch selection for model fairness (Roh, Lee, Whang, Suh 2021).

A batch scheduler is a λ controller as pure session steps: :func:`init_state`
creates it from the per-cell counts, :func:`epoch_step` takes the per-cell losses
of an epoch and returns the next epoch's sampling probabilities and batch
composition, :func:`example_weights` turns them into per-example probabilities.

Modules: ``steps`` (the epoch step), ``state`` (the scheduler state, creation and JSON
round trip), ``cells`` (cells, blocks and the λ pairs), ``disparity`` (disparities and
the signed update), ``history`` (λ after each epoch).
"""

from service.algorithms.fairbatch.cells import METRICS
from service.algorithms.fairbatch.disparity import largest_remainder
from service.algorithms.fairbatch.state import EpochOrderError, FairBatchState, cell_index, init_state
from service.algorithms.fairbatch.steps import EpochResult, epoch_step, example_weights

__all__ = [
    "METRICS",
    "EpochOrderError",
    "EpochResult",
    "FairBatchState",
    "cell_index",
    "epoch_step",
    "example_weights",
    "init_state",
    "largest_remainder",
]
