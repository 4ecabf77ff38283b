"""Reference models for the stateful tests: what a group sampler and a batch scheduler must hold.

Plain Python, written from SPEC §4.3, §4.6, §5.1 and §5.4 and worked by hand; nothing
here imports ``service``, so a bug there cannot hide in a shared helper.
``tests/reliability/test_stateful.py`` checks the models themselves on numbers worked
out by hand before using them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AOPT_C0", "TIE", "TOL", "SamplerModel", "SchedulerModel"]

# Probabilities are sums of a few dozen ±step moves: they agree with the hand model to
# ~1e-15; 1e-9 leaves room without hiding a wrong step (the smallest step is 0.005).
TOL = 1e-9
# SPEC §5.1 breaks ties by lowest index; scores equal on paper may differ in the last
# bits (0.1 + 0.2 against 0.3), so values within this of the maximum count as tied.
TIE = 1e-12
AOPT_C0 = 0.1  # the default exploration weight c0 (SPEC §4.3)
AOPT_XI = 0.5  # the default forced-exploration exponent ξ


@dataclass
class SamplerModel:
    """A group sampler with pending decisions (issue 15): each ``next`` holds its batch.

    ``pending`` maps a pending decision's id to (group index, samples held); P_z sums
    them per group. Where a rule counts samples it counts N_z + P_z; the round number
    t counts pending decisions as rounds; warm-up and the no-loss-yet rule skip groups
    a pending decision already covers; losses are reported data only.
    """

    id: str
    groups: list[str]
    strategy: str
    budget: int
    batch_size: int
    counts: list[int]
    losses: list[float | None]
    round: int = 0
    spent: int = 0
    version: int = 1
    nexts: int = 0
    releases: int = 0
    reports: dict[str, tuple[dict, Any]] = field(default_factory=dict)  # id -> (body, answer)
    last_decision: dict | None = None
    pending: dict[str, tuple[int, int]] = field(default_factory=dict)  # decision id -> (group, held)

    @property
    def held(self) -> list[int]:
        """P_z: samples held per group by pending decisions."""
        held = [0] * len(self.groups)
        for group, size in self.pending.values():
            held[group] += size
        return held

    @property
    def remaining(self) -> int:
        return self.budget - self.spent - sum(self.held)

    def expected_choice(self) -> tuple[str, str]:
        """SPEC §5.1 by hand, counting pending decisions: the group ``next`` must choose and its reason."""
        t, m = self.round + len(self.pending) + 1, len(self.groups)
        held = self.held
        counts = [n + p for n, p in zip(self.counts, held, strict=True)]
        free = [p == 0 for p in held]
        if t <= m:  # warm-up: round-robin from the first unreported round, skipping covered groups
            order = [(self.round + k) % m for k in range(m)]
            return self.groups[next((z for z in order if free[z]), order[0])], "warmup"
        fewest = counts.index(min(counts))
        if self.strategy == "uniform":
            return self.groups[fewest], "uniform"
        missing = [z for z in range(m) if self.losses[z] is None and free[z]]
        if missing:
            return self.groups[missing[0]], "warmup"
        known = [-math.inf if loss is None else loss for loss in self.losses]
        if self.strategy == "aopt":
            batch = min(self.batch_size, self.remaining)
            if min(counts) < float(sum(counts) + batch) ** AOPT_XI:
                return self.groups[fewest], "forced_exploration"
            ucb = [k + AOPT_C0 / math.sqrt(n) for k, n in zip(known, counts, strict=True)]
            return self.groups[_lowest_argmax(ucb)], "ucb"
        return self.groups[_lowest_argmax(known)], "greedy"  # greedy: ε = 0


def _lowest_argmax(values: list) -> int:
    top = max(values)
    return next(i for i, v in enumerate(values) if v >= top - TIE)


@dataclass
class SchedulerModel:
    """Binary equal opportunity by hand: cells label-major, (y_0,g_0) (y_0,g_1) (y_1,g_0) (y_1,g_1).

    λ is the probability of the positive label's first cell; the positive label's two
    cells share c = (m_{+,0} + m_{+,1}) / m, the negative cells keep m_{y,z} / m.
    """

    id: str
    labels: list
    groups: list
    counts: list[int]
    step: float
    batch_size: int
    probabilities: list[float]
    positive: int  # index of the positive label
    epoch: int = 0
    version: int = 1
    history: list[float] = field(default_factory=list)  # λ after each applied epoch
    reports: dict[int, tuple[dict, Any]] = field(default_factory=dict)

    @property
    def cells(self) -> list[tuple]:
        return [(y, z) for y in self.labels for z in self.groups]

    @property
    def pair(self) -> tuple[int, int]:
        return 2 * self.positive, 2 * self.positive + 1

    @property
    def box(self) -> float:
        a, b = self.pair
        return (self.counts[a] + self.counts[b]) / sum(self.counts)

    @property
    def lam(self) -> float:
        return self.probabilities[self.pair[0]]

    def step_epoch(self, losses: list[float]) -> dict:
        """One epoch (Section 3's signed update), worked by hand for two groups.

        e = L(+, g_0) - L(+, g_1). When e > 0 group 0 is behind: step_size of
        probability moves from (+, g_1) to (+, g_0), so λ grows; e < 0 moves it back;
        e = 0 moves nothing. The move is cut to what the giving cell holds, which keeps
        λ in [0, c]. The reported disparity is each group's positive-label loss
        against the positive label's overall loss, L_+ = (m_a L_a + m_b L_b) / (m_a + m_b).
        Worked through in ``test_stateful.test_the_scheduler_model_by_hand``.
        """
        a, b = self.pair
        e = losses[a] - losses[b]
        moved = None
        if e != 0.0:
            receiver, giver = (a, b) if e > 0 else (b, a)
            amount = min(self.step, self.probabilities[giver])
            if amount > 0.0:
                self.probabilities[receiver] += amount
                self.probabilities[giver] -= amount
                moved = 0
        m_a, m_b = self.counts[a], self.counts[b]
        overall = (m_a * losses[a] + m_b * losses[b]) / (m_a + m_b)
        return {"disparity": max(abs(losses[a] - overall), abs(losses[b] - overall)),
                "pair_disparities": [e], "moved": moved}
