"""Where a group sampler's session stands: counts, mixture, losses, round and budget.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), Algorithm 1: the mixture π_n(z) = N_z / Σ N
of the samples acquired so far.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.algorithms.adaptive_sampling.state import SamplerConfig, SamplerState

__all__ = ["SamplerSummary", "summary"]


@dataclass(frozen=True)
class SamplerSummary:
    """Where a session stands: per-group counts ``N_z``, the mixture π(z) = N_z / Σ N, the last
    reported losses (group order of the config), the round, the samples pending decisions
    reserve per group (P_z) and the budget neither spent nor reserved."""

    counts: tuple[int, ...]
    mixture: tuple[float, ...]
    group_losses: tuple[float | None, ...]
    round: int
    budget_remaining: int
    pending: tuple[int, ...] = ()
    exhausted: bool = False  # every sample of the budget is acquired: no decision is left


def summary(config: SamplerConfig, state: SamplerState) -> SamplerSummary:
    """The session's counts, mixture π(z) = N_z / Σ N (0 before any sample), losses and budget."""
    total = sum(state.counts)
    return SamplerSummary(
        counts=tuple(state.counts),
        mixture=tuple((n / total if total else 0.0) for n in state.counts),
        group_losses=tuple(state.group_losses),
        round=state.round,
        budget_remaining=config.budget - state.budget_spent - state.reserved,
        pending=tuple(state.pending),
        exhausted=state.budget_spent >= config.budget,
    )
