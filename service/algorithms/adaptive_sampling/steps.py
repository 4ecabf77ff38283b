"""Adaptive sampling for minimax fair classification: the session steps of a group sampler.

A session chooses which group to sample next (:func:`next_decision`) and learns
from the client's report of its retrained model (:func:`apply_observation`).
Both are pure functions of plain data (:class:`SamplerConfig`,
:class:`SamplerState`); randomness comes only from the ``rng`` passed in.
Managed mode's training lives in :mod:`service.algorithms.adaptive_sampling.model`:
:func:`~service.algorithms.adaptive_sampling.model.fit_and_evaluate` refits and yields
the losses that :func:`apply_observation` takes.

Rules (SPEC §5.1), in the order :func:`next_decision` applies them, at round
``t = state.round + 1``:

1. ``warmup``: rounds ``t <= warmup_rounds`` go round-robin; after that a group
   that has no reported loss yet is taken first (lowest index).
2. ``uniform``: the group with the fewest samples (round-robin when every
   round acquires the same batch).
3. Aopt / Aopt+: ``forced_exploration`` of ``argmin N_z`` when
   ``min N_z < t^ξ``, where t counts samples including this round's batch
   (so t is the round number when ``batch_size = 1``); otherwise ``ucb``:
   ``argmax U(z)`` with ``U(z) = L̂_z + c0 / sqrt(N_z) + c1 · S_z / sqrt(Var S_z)``
   (eq. 6) or, with ``bound="theoretical"``, the three terms of eq. 4 plus the
   same trend term.
4. ε-greedy / greedy: with probability ε a uniformly random group (``epsilon``),
   otherwise ``argmax L̂_z`` (``greedy``). Forced exploration belongs to Aopt
   (Algorithm 1) and is not applied to these baselines.

Ties go to the lowest index.

Pending decisions. Several workers may ask before any reports: each decision
reserves its batch (:func:`reserve`) until its observation settles it
(:func:`apply_observation` with ``settles``) or it is released (:func:`release`).
Where a rule counts samples it counts N_z + P_z, the samples acquired plus those
reserved; the round number t counts pending decisions as rounds; warm-up's
round-robin (from the slot of the first unreported round) and the no-loss-yet
rule skip groups a pending decision already covers; losses (L̂_z) and trends come from reported data only. With nothing
pending every rule is the paper's.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), "Adaptive Sampling for Minimax Fair
Classification", NeurIPS: Algorithm 1, eq. 4, eq. 6; Abernethy et al. (2020) for ε-greedy.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from service.algorithms.adaptive_sampling import trend as mann_kendall
from service.algorithms.adaptive_sampling.scores import ScoreComponents, argmax_lowest, argmin_lowest, score_components
from service.algorithms.adaptive_sampling.state import (
    BudgetExhaustedError,
    Decision,
    SamplerConfig,
    SamplerState,
)
from service.algorithms.validation import InputError

__all__ = ["apply_observation", "draws_random", "next_decision", "release", "reserve"]

GroupValues = Mapping[str, float | None] | Sequence[float | None] | np.ndarray


def next_decision(config: SamplerConfig, state: SamplerState, rng: np.random.Generator) -> Decision:
    """Choose the group to sample in the next round; O(groups), no training.

    Raises :class:`BudgetExhaustedError` when the budget is spent. Only
    ``epsilon_greedy`` draws from ``rng`` (one uniform, and one integer when it explores).

    References
    ----------
    Shekhar et al. (2021), Algorithm 1 (warm-up, forced exploration with t^ξ,
    argmax of the UCB), eq. 4 and eq. 6.
    """
    remaining = config.budget - state.budget_spent - state.reserved
    if remaining <= 0:
        if state.reserved:
            raise BudgetExhaustedError(
                f"the budget of {config.budget} samples is spent or reserved: {state.reserved} by "
                f"{state.pending_decisions} pending decisions; retry once one is settled, released or expired")
        raise BudgetExhaustedError(f"budget of {config.budget} samples is spent")
    batch = min(config.batch_size, remaining)
    t = state.round + state.pending_decisions + 1
    scores = score_components(config, state)
    index, reason, note = _choose(config, state, scores, t, batch, rng)
    return Decision(
        round=t,
        group_index=index,
        group=config.groups[index],
        reason=reason,
        batch_size=batch,
        budget_remaining=remaining,
        scores=scores.as_dict(config.groups),
        note=note,
    )


def draws_random(config: SamplerConfig) -> bool:
    """Whether :func:`next_decision` may draw from its ``rng`` under this config (only ε-greedy does)."""
    return config.strategy == "epsilon_greedy"


def _choose(
    config: SamplerConfig,
    state: SamplerState,
    scores: ScoreComponents,
    t: int,
    batch: int,
    rng: np.random.Generator,
) -> tuple[int, str, str]:
    m = config.n_groups
    counts = np.asarray(state.counts) + np.asarray(state.pending)
    free = np.asarray(state.pending) == 0  # no pending decision covers the group
    assert config.warmup_rounds is not None, "SamplerConfig resolves warmup_rounds"
    if t <= config.warmup_rounds:
        order = [(state.round + k) % m for k in range(m)]  # from the slot of the first round not yet reported
        index = next((z for z in order if free[z]), order[0])
        return index, "warmup", f"warm-up round {t} of {config.warmup_rounds}, round-robin"
    if config.strategy == "uniform":
        index = argmin_lowest(counts)
        return index, "uniform", f"fewest samples ({counts[index]})"
    missing = np.flatnonzero(np.isnan(scores.loss) & free)
    if missing.size:
        return int(missing[0]), "warmup", "no loss reported for this group yet"
    if config.strategy in ("aopt", "aopt_plus"):
        threshold = float(counts.sum() + batch) ** config.xi
        if counts.min() < threshold:
            index = argmin_lowest(counts)
            note = f"min N_z = {counts[index]} < t^xi = {threshold:.3f} (t = {counts.sum() + batch} samples)"
            return index, "forced_exploration", note
        index = argmax_lowest(_known(scores.ucb))
        return index, "ucb", f"largest upper confidence bound {scores.ucb[index]:.6g}"
    epsilon = config.epsilon if config.strategy == "epsilon_greedy" else 0.0
    if epsilon > 0 and rng.random() < epsilon:
        index = int(rng.integers(m))
        return index, "epsilon", f"uniformly random group (probability epsilon = {epsilon})"
    index = argmax_lowest(_known(scores.loss))
    return index, "greedy", f"largest loss {scores.loss[index]:.6g}"


def _known(values: np.ndarray) -> np.ndarray:
    """Undefined values (a group with no loss yet, already covered by a pending decision) never win."""
    return np.where(np.isnan(values), -np.inf, values)


def reserve(config: SamplerConfig, state: SamplerState, decision: Decision) -> SamplerState:
    """The state once ``decision`` holds its batch: P_z and the pending count go up."""
    pending = list(state.pending)
    pending[decision.group_index] += decision.batch_size
    return replace(state, pending=tuple(pending), pending_decisions=state.pending_decisions + 1)


def release(config: SamplerConfig, state: SamplerState, group: str | int, reserved: int) -> SamplerState:
    """The state once a pending decision of ``group`` that held ``reserved`` samples is let go."""
    index = config.group_index(group)
    pending = list(state.pending)
    if pending[index] < reserved or state.pending_decisions < 1:
        raise InputError(f"group {config.groups[index]!r} holds {pending[index]} reserved samples, not {reserved}")
    pending[index] -= reserved
    return replace(state, pending=tuple(pending), pending_decisions=state.pending_decisions - 1)


def apply_observation(
    config: SamplerConfig,
    state: SamplerState,
    group: str | int,
    n_acquired: int,
    group_losses: GroupValues,
    group_accuracies: GroupValues | None = None,
    settles: int | None = None,
) -> SamplerState:
    """Count ``n_acquired`` samples of ``group`` and record the retrained model's losses.

    ``settles`` is the reservation of the pending decision this observation answers
    (its batch size), released as the samples are counted; ``None`` for samples no
    pending decision holds, which must fit the budget nobody reserved.

    ``group_losses`` and ``group_accuracies`` map group names to values (or list
    them in group order, ``None`` for not measured); groups left out keep their
    last value. For Aopt+ each measured group's accuracy is appended to its
    Mann–Kendall series; without a reported accuracy ``1 − loss`` (zero-one) or
    ``−loss`` (log loss) stands in, which gives the same S since S depends only
    on the order of the values. Returns a new state; ``state`` is unchanged.

    References
    ----------
    Shekhar et al. (2021), Algorithm 1 lines 10–13 (update N_z and the model),
    Section 4 (S_z of the accuracy on D_z over time).
    """
    index = config.group_index(group)
    if not isinstance(n_acquired, int | np.integer) or n_acquired < 0:
        raise InputError("n_acquired must be an integer >= 0")
    if settles is not None:
        state = release(config, state, index, settles)
    if state.budget_spent + state.reserved + n_acquired > config.budget:
        remaining = config.budget - state.budget_spent - state.reserved
        raise BudgetExhaustedError(f"n_acquired = {n_acquired} exceeds the remaining budget {remaining}"
                                   + (f" ({state.reserved} samples are reserved by pending decisions)"
                                      if state.reserved else ""))
    max_loss = 1.0 if config.loss == "zero_one" else math.inf
    losses = _per_group(config, group_losses, "group_losses", 0.0, max_loss)
    accuracies = _per_group(config, {} if group_accuracies is None else group_accuracies, "group_accuracies", 0.0, 1.0)
    counts = list(state.counts)
    counts[index] += int(n_acquired)
    new = replace(
        state,
        counts=tuple(counts),
        group_losses=tuple(o if n is None else n for o, n in zip(state.group_losses, losses, strict=True)),
        group_accuracies=tuple(o if n is None else n for o, n in zip(state.group_accuracies, accuracies, strict=True)),
        round=state.round + 1,
        budget_spent=state.budget_spent + int(n_acquired),
    )
    if config.strategy != "aopt_plus":
        return new
    history, mk_s = list(state.accuracy_history), list(state.mk_s)
    for z, (loss, accuracy) in enumerate(zip(losses, accuracies, strict=True)):
        value = accuracy if accuracy is not None else _trend_proxy(config, loss)
        if value is not None:
            history[z], mk_s[z] = mann_kendall.push(history[z], mk_s[z], value, config.trend_window)
    return replace(new, accuracy_history=tuple(history), mk_s=tuple(mk_s))


def _trend_proxy(config: SamplerConfig, loss: float | None) -> float | None:
    if loss is None:
        return None
    return 1.0 - loss if config.loss == "zero_one" else -loss


def _per_group(config: SamplerConfig, values: GroupValues, name: str, low: float, high: float) -> list[float | None]:
    if isinstance(values, Mapping):
        out: list[float | None] = [None] * config.n_groups
        for group, value in values.items():
            out[config.group_index(group)] = value
    else:
        out = [None if v is None else v for v in values]
        if len(out) != config.n_groups:
            raise InputError(f"{name} lists {len(out)} values for {config.n_groups} groups")
    for i, value in enumerate(out):
        if value is None:
            continue
        if not isinstance(value, int | float | np.floating | np.integer) or not math.isfinite(value):
            raise InputError(f"{name}[{config.groups[i]!r}] must be a finite number")
        if not low <= value <= high:
            raise InputError(f"{name}[{config.groups[i]!r}] = {value} is outside [{low}, {high}]")
        out[i] = float(value)
    return out
