"""Score terms of the adaptive sampling paper: the UCBs of eq. 6 and eq. 4 and tie-breaking.

Every function works on per-group arrays in the session's group order, so
choosing a group is O(groups) numpy work with no training; :func:`score_components`
puts the terms of a session's scores together. Undefined entries
(a group without samples has no ``c0 / sqrt(N_z)``) are ``nan``.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), "Adaptive Sampling for Minimax Fair
Classification", NeurIPS: eq. 4 (three-term UCB), Remark 1 (deviation e_z(N)),
eq. 6 (practical UCB with c0 and the Mann–Kendall term).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from service.algorithms.adaptive_sampling.state import SamplerConfig, SamplerState
from service.algorithms.adaptive_sampling.trend import standardized_trend

__all__ = [
    "TIE_TOL",
    "ScoreComponents",
    "argmax_lowest",
    "argmin_lowest",
    "deviation_bound",
    "empirical_bonus",
    "score_components",
    "theoretical_bonus",
    "trend_terms",
]

# Scores that are equal on paper can differ in the last bits after different
# float paths (0.1 + 0.2 against 0.3); treat them as tied so that "ties: lowest
# index" (SPEC §5.1) holds. Real score gaps are far larger than 1e-12.
TIE_TOL = 1e-12


def argmax_lowest(values: np.ndarray) -> int:
    """Index of the largest value; among values within ``TIE_TOL`` of it, the lowest index."""
    values = np.asarray(values, dtype=float)
    return int(np.flatnonzero(values >= values.max() - TIE_TOL)[0])


def argmin_lowest(values: np.ndarray) -> int:
    """Index of the smallest value; ties go to the lowest index."""
    return argmax_lowest(-np.asarray(values, dtype=float))


def empirical_bonus(counts: np.ndarray, c0: float) -> np.ndarray:
    """Exploration bonus ``c0 / sqrt(N_z)`` of eq. 6 (``nan`` where ``N_z = 0``).

    References
    ----------
    Shekhar et al. (2021), eq. 6, second term.
    """
    counts = np.asarray(counts, dtype=float)
    return np.where(counts > 0, c0 / np.sqrt(np.maximum(counts, 1.0)), np.nan)


def deviation_bound(counts: np.ndarray, vc_dim: int, delta: float, n_groups: int) -> np.ndarray:
    """Uniform deviation ``e_z(N)`` of Remark 1 for a class of VC dimension ``d``.

    ``e_z(N) = 2 sqrt((2 log Π(2N) + 2 log(2 N² π² |Z| / (3δ))) / N)`` with the
    growth function bounded by Sauer's lemma, ``log Π(2N) <= d log(2eN/d)``, as
    Remark 1 writes it. The lemma needs ``2N >= d``; below that (and wherever it
    is larger) the trivial ``log Π(2N) <= 2N log 2`` is used so the bound stays
    defined for every ``N >= 1``. ``nan`` where ``N_z = 0``.

    References
    ----------
    Shekhar et al. (2021), Remark 1 and Assumption 4.
    """
    n = np.asarray(counts, dtype=float)
    safe = np.maximum(n, 1.0)
    trivial = 2.0 * safe * np.log(2.0)
    sauer = vc_dim * np.log(2.0 * np.e * safe / vc_dim)
    log_growth = np.where(2.0 * safe >= vc_dim, np.minimum(trivial, sauer), trivial)
    confidence = np.log(2.0 * safe**2 * np.pi**2 * n_groups / (3.0 * delta))
    e = 2.0 * np.sqrt((2.0 * log_growth + 2.0 * confidence) / safe)
    return np.where(n > 0, e, np.nan)


def theoretical_bonus(counts: np.ndarray, c_bound: float, vc_dim: int, delta: float) -> np.ndarray:
    """Second and third terms of eq. 4: ``e_z(N_z) + 2C / π_t(z) · Σ_z' π_t(z') e_z'(N_z')``.

    ``π_t(z) = N_z / Σ N`` is the current mixture and ``C`` the constant of
    Assumption 3. ``nan`` for every group while some group has no samples.

    References
    ----------
    Shekhar et al. (2021), eq. 4 with ``e_z`` from Remark 1.
    """
    counts = np.asarray(counts, dtype=float)
    e = deviation_bound(counts, vc_dim, delta, len(counts))
    if np.any(counts <= 0):
        return np.full(len(counts), np.nan)
    pi = counts / counts.sum()
    return np.asarray(e + 2.0 * c_bound / pi * float(np.dot(pi, e)))


def trend_terms(mk_s: list[int], lengths: list[int], c1: float) -> np.ndarray:
    """Trend term ``c1 · S_z / sqrt(Var S_z)`` of eq. 6 per group (0 while a series has < 3 values).

    References
    ----------
    Shekhar et al. (2021), eq. 6, third term; SPEC §5.1.
    """
    if c1 == 0.0:
        return np.zeros(len(mk_s))
    return np.array([c1 * standardized_trend(s, n) for s, n in zip(mk_s, lengths, strict=True)])


@dataclass(frozen=True)
class ScoreComponents:
    """Per-group ``loss``, ``bonus``, ``trend`` and ``ucb = loss + bonus + trend`` (``nan``: undefined)."""

    loss: np.ndarray
    bonus: np.ndarray
    trend: np.ndarray
    ucb: np.ndarray

    def as_dict(self, groups: Sequence[str]) -> dict[str, dict[str, float | None]]:
        columns = [[x if math.isfinite(x) else None for x in v.tolist()]
                   for v in (self.loss, self.bonus, self.trend, self.ucb)]
        return {g: dict(zip(("loss", "bonus", "trend", "ucb"), row, strict=True))
                for g, row in zip(groups, zip(*columns, strict=True), strict=True)}


def score_components(config: SamplerConfig, state: SamplerState) -> ScoreComponents:
    """The terms of each group's score; only Aopt and Aopt+ have a bonus and a trend.

    References
    ----------
    Shekhar et al. (2021), eq. 6 (``bound="empirical"``) and eq. 4 (``"theoretical"``).
    """
    loss = np.array([np.nan if v is None else v for v in state.group_losses], dtype=float)
    counts = np.asarray(state.counts, dtype=float) + np.asarray(state.pending, dtype=float)
    if config.strategy not in ("aopt", "aopt_plus"):
        bonus = trend = np.zeros_like(loss)
    else:
        if config.bound == "empirical":
            bonus = empirical_bonus(counts, config.c0)
        else:
            bonus = theoretical_bonus(counts, config.bound_c, config.bound_vc_dim, config.bound_delta)
        lengths = [len(h) for h in state.accuracy_history]
        assert config.c1 is not None, "SamplerConfig resolves c1"
        trend = trend_terms(list(state.mk_s), lengths, float(config.c1))
    return ScoreComponents(loss, bonus, trend, loss + bonus + trend)
