"""FairBatch benchmark settings: the paper's batch sizes and epochs, and the tuned lr and step size."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["METRIC_SHORT", "NAME", "SETTINGS", "Run", "Setting"]

NAME = "fairbatch"  # bench/results/fairbatch/
METRIC_SHORT = {"equal_opportunity": "EO", "demographic_parity": "DP", "equalized_odds": "ED"}


@dataclass(frozen=True)
class Run:
    """FairBatch's settings for one metric: epochs (the paper's), Adam learning rate, step size α,
    and Appendix B.5's threshold T (λ moves only while the largest disparity exceeds T)."""

    epochs: int
    lr: float
    step_size: float | tuple[float, ...]  # one α, or one per seed (nested tuning of a cross-fit)
    threshold: float = 0.0


@dataclass(frozen=True)
class Setting:
    """One dataset: the paper's batch size, the plain-LR baseline, and FairBatch per metric."""

    dataset: str
    batch_size: int
    lr: float
    lr_epochs: int
    fairbatch: dict[str, Run]


# Batch sizes and epochs are the paper's (Section 4 and Tables 1, 2, 4), except synthetic DP.
# Everything below is what tuning.md picked, as it picked it (synthetic EO's step size 0.001 now
# replaces SPEC §5.4's 0.005, which the earlier protocol kept because validation could not tell
# the grid apart).
# The LR baseline uses SPEC §5.4's learning rate. FairBatch's learning rate and step size come
# from `--tune` (bench/results/fairbatch/tuning.md): a grid on validation rows held out of the
# training rows, never a test row, trained with the final run's epochs and Adam steps per epoch
# (batch size scaled by the rows held out), so λ makes as many updates as in the final run.
# Synthetic DP: Appendix B.5's threshold T (gated on the parity gap,
# fairbatch.disparity.gate_disparity) is searched too, and the epochs (150-450; the paper uses
# 450), because A.1's negative-label λ sits at the edge of its box and the trade-off is set by
# where training stops. Adult-race's step sizes are chosen per seed on that seed's own training
# folds (nested, see bench.fairbatch_tuning.tune).
SETTINGS = {
    "synthetic": Setting("synthetic", 100, 0.0005, 400, {
        "equal_opportunity": Run(300, 0.0005, 0.001),
        "demographic_parity": Run(400, 0.00075, 0.005, threshold=0.08),
        "equalized_odds": Run(400, 0.0005, 0.001),
    }),
    "compas": Setting("compas", 200, 0.0005, 300, {
        "equal_opportunity": Run(100, 0.005, 0.001),
        "demographic_parity": Run(300, 0.005, 0.001),
        "equalized_odds": Run(100, 0.005, 0.005),
    }),
    "adult": Setting("adult", 1000, 0.0005, 300, {
        "equal_opportunity": Run(400, 0.002, 0.001),
        "demographic_parity": Run(600, 0.002, 0.0005),
        "equalized_odds": Run(500, 0.002, 0.0005),
    }),
    "adult_race": Setting("adult_race", 1000, 0.0005, 300, {
        "equal_opportunity": Run(400, 0.0005, (0.0005, 0.001, 0.01, 0.0005, 0.0005, 0.0005, 0.0005, 0.01,
                                               0.005, 0.0005)),
    }),
}
