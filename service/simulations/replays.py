"""One repetition of any decision type's simulation, and what each type's results are made of."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.simulations.common import Problem, Progress, Repetition, Stop
from service.simulations.replay import run_group_sampler
from service.simulations.replay_bandit import run_partition_bandit
from service.simulations.replay_batches import run_batch_scheduler
from service.simulations.replay_filter import run_balanced_filter

__all__ = ["KINDS", "Kind", "run_repetition"]


@dataclass(frozen=True)
class Kind:
    """A decision type's replay, the quantity its curves are plotted against and its curves.

    ``curves`` are each (policies, points) array a repetition returns and the summary keeps,
    with whether higher is better; the first is the one the recommendation compares.
    """

    replay: Callable[[Problem, int, Stop, Progress], Repetition]
    x_label: str
    unit: str  # what the budget counts, as the recommendation says it
    curves: tuple[tuple[str, bool], ...]


KINDS: dict[str, Kind] = {
    "group_sampler": Kind(run_group_sampler, "samples acquired", "samples", ()),
    "partition_bandit": Kind(run_partition_bandit, "points acquired", "points",
                             (("fairness", False), ("accuracy", True), ("acquired", True))),
    "batch_scheduler": Kind(run_batch_scheduler, "epoch", "epochs", (("disparity", False), ("accuracy", True))),
    "balanced_filter": Kind(run_balanced_filter, "candidates seen", "candidates",
                            (("imbalance", False), ("acceptance_rate", True), ("disclosivity", False))),
}


def run_repetition(problem: Problem, repetition: int, should_stop: Stop = lambda: False,
                   progress: Progress = lambda _: None) -> Repetition:
    """Replay every policy of ``problem`` on its repetition ``repetition``."""
    return KINDS[problem.decision_type].replay(problem, repetition, should_stop, progress)
