"""DataSift: a UCB bandit over pool partitions that acquires data to make a model fairer.

The session is two pure steps on plain data (SPEC §5.2):

* :func:`next_decision` picks the partition with the highest UCB (untried ones
  first) and the batch to evaluate — O(partitions) work.
* :func:`apply_feedback` takes the fairness before and after training with the
  batch, keeps or rejects the batch (Algorithm 1), credits every partition with
  eq. 1's share of the improvement and decides whether to stop.

Each partition's pool items are laid out once, at :func:`~service.algorithms.datasift.setup.init_state`, in the
order they will be offered (shuffled for random batches, by predicted influence
for DataSift-Inf), so a step only moves a window ``[start, end)`` over them and
the big index array never changes.

Pending decisions: several clients may ask before any reports. A decision takes
its batch off offer when it is made (:func:`reserve`), so two pending decisions
never share an item; n_j of eq. 2 counts pending pulls, an untried partition is
one with neither pulls nor pending ones, and rewards come from feedback only. A
decision's feedback may come in any order (:func:`apply_feedback` with
``reserved=True``); a released decision (:func:`release`) gives its items and
budget back. With nothing pending every step is the paper's.

References
----------
Hasan, Pradhan, "Data Acquisition for Improving Model Fairness using
Reinforcement Learning" (DataSift): eq. 1 (shared reward), eq. 2 (UCB),
Algorithm 1 (accept/reject and stopping), Algorithm 2 (DataSift-Inf).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from service.algorithms.datasift import guard
from service.algorithms.datasift.config import BanditConfig, check_finite
from service.algorithms.datasift.rewards import shared_rewards, ucb_scores
from service.algorithms.datasift.state import (
    BanditFinishedError,
    BanditReservedError,
    BanditState,
    Decision,
    FeedbackResult,
    StaleDecisionError,
)
from service.algorithms.validation import InputError

__all__ = ["apply_feedback", "next_decision", "partition_scores", "release", "reserve"]

# UCB values closer than this are ties, broken uniformly at random with ``rng``.
UCB_TIE_TOLERANCE = 1e-12


def _scale(config: BanditConfig, state: BanditState, accuracy: bool = False, change: float = 0.0) -> float:
    largest = max(state.max_abs_accuracy_delta if accuracy else state.max_abs_delta, abs(change))
    return largest if config.reward_scale == "running_max" and largest > 0 else 1.0


def _means(config: BanditConfig, state: BanditState, pulls: np.ndarray) -> tuple[np.ndarray, ...]:
    if config.accuracy_weight == 0:  # the paper's reward, computed exactly as before the option existed
        return ucb_scores(state.reward_sums, state.reward_counts, pulls, config.alpha, _scale(config, state))
    sums = guard.reward_sums(config, np.asarray(state.reward_sums), np.asarray(state.accuracy_sums),
                             _scale(config, state), _scale(config, state, accuracy=True))
    return ucb_scores(sums, state.reward_counts, pulls, config.alpha)


def partition_scores(config: BanditConfig, state: BanditState) -> dict[str, dict[str, Any]]:
    """Per partition: reward (R_j), bonus, ucb, pulls, remaining items and eligibility (eq. 2)."""
    pulls = np.asarray(state.pulls) + np.asarray(state.pending_pulls)
    mean, bonus, ucb = _means(config, state, pulls)
    need = state.round_batch_size(config)
    return {
        pid: {
            "reward": float(mean[j]),
            "bonus": float(bonus[j]),
            "ucb": float(ucb[j]),
            "pulls": int(state.pulls[j]),
            "pending": int(state.pending_pulls[j]),
            "remaining": state.remaining(j),
            "eligible": need > 0 and state.remaining(j) >= need,
        }
        for j, pid in enumerate(state.partition_ids)
    }


def next_decision(config: BanditConfig, state: BanditState, rng: np.random.Generator) -> Decision:
    """Choose the partition to evaluate next and its batch (Algorithm 1, lines 10–11).

    Untried eligible partitions come first, the one with the largest UCB
    among them (they share the bonus, so the largest mean of the rewards
    eq. 1 has already credited them); then the eligible partition with the
    largest UCB. A partition is eligible when it still holds a full
    batch (``min(batch_size, budget remaining)`` items). Ties are broken with
    ``rng``. Does not change ``state``.

    Raises
    ------
    BanditFinishedError
        When the bandit has stopped.

    References
    ----------
    DataSift, eq. 2 (UCB) and Algorithm 1, lines 10–11.
    """
    if state.done:
        raise BanditFinishedError(f"the bandit has stopped ({state.stop_reason})")
    size = state.round_batch_size(config)
    busy = config.max_evaluations is not None and state.evaluations + state.pending_decisions >= config.max_evaluations
    if size <= 0 or busy:
        held = "budget" if size <= 0 else "evaluations"
        raise BanditReservedError(f"the {held} left is held by {state.pending_decisions} pending decisions; retry "
                                  "once one is settled, released or expired")
    scores = partition_scores(config, state)
    eligible = np.array([s["eligible"] for s in scores.values()])
    if not eligible.any():
        raise BanditReservedError(f"no partition holds a full batch of {size} items outside the "
                                  f"{state.pending_decisions} pending decisions; retry once one is settled or released")
    untried = eligible & (np.asarray(state.pulls) + np.asarray(state.pending_pulls) == 0)
    among, reason = (untried, "untried") if untried.any() else (eligible, "ucb")
    ucb = np.array([s["ucb"] for s in scores.values()])
    top = ucb[among].max()
    candidates = np.flatnonzero(among & (ucb >= top - UCB_TIE_TOLERANCE))
    chosen = int(candidates[rng.integers(len(candidates))]) if len(candidates) > 1 else int(candidates[0])
    take = "front"
    if config.batch_selection == "influence" and (state.best_fairness or 0.0) * state.influence_sign < 0:
        take = "back"
    offered = state.offer_positions(chosen)
    positions = offered[:size] if take == "front" else offered[len(offered) - size:]
    items = None if state.items is None else tuple(state.items[state.offsets[chosen] + positions].tolist())
    return Decision(
        round=state.evaluations + state.pending_decisions + 1,
        partition=state.partition_ids[chosen],
        partition_index=chosen,
        reason=reason,
        batch_size=size,
        take=take,
        item_indices=items,
        scores=scores,
        positions=tuple(positions.tolist()),
    )


def reserve(config: BanditConfig, state: BanditState, decision: Decision) -> BanditState:
    """The state once ``decision`` holds its batch: its items leave the offer, its budget is reserved."""
    j, size = decision.partition_index, decision.batch_size
    start, end, returned = list(state.start), list(state.end), list(state.returned)
    if decision.take == "front":  # given-back items first, then the window's front
        from_returned = min(len(returned[j]), size)
        start[j] += size - from_returned
        returned[j] = returned[j][from_returned:]
    else:  # the window's back, then given-back items from the end of that list
        from_window = min(end[j] - start[j], size)
        end[j] -= from_window
        returned[j] = returned[j][: len(returned[j]) - (size - from_window)]
    pending = list(state.pending_pulls)
    pending[j] += 1
    return replace(state, start=tuple(start), end=tuple(end), returned=tuple(returned),
                   pending_pulls=tuple(pending), reserved=state.reserved + size)


def release(config: BanditConfig, state: BanditState, decision: Decision) -> BanditState:
    """The state once a pending ``decision`` is let go: its items are on offer again, its budget free."""
    j, size = decision.partition_index, decision.batch_size
    if (not 0 <= j < len(state.partition_ids) or state.pending_pulls[j] < 1 or state.reserved < size
            or decision.positions is None):
        raise InputError("the decision is not pending on this bandit")
    pending, returned = list(state.pending_pulls), list(state.returned)
    pending[j] -= 1
    returned[j] = returned[j] + tuple(decision.positions)
    released = replace(state, pending_pulls=tuple(pending), reserved=state.reserved - size, returned=tuple(returned))
    return released if released.done else released.with_stop_check(config)


def apply_feedback(
    config: BanditConfig,
    state: BanditState,
    decision: Decision,
    fairness_before: float,
    fairness_after: float,
    *,
    reserved: bool = False,
    accuracy_before: float | None = None,
    accuracy_after: float | None = None,
) -> tuple[BanditState, FeedbackResult]:
    """Record one evaluated batch: accept or reject it, share the reward, check stopping.

    ΔF = |F_before| − |F_after|. The batch is kept when |F_after| ≤ |F_best| and
    ΔF ≠ 0 (with ``acceptance="objective"``, beyond the paper: when ΔF / s_F + β·ΔA / s_A
    > 0, and F_best then follows the kept model); kept items spend the budget. Kept or not, the batch leaves the
    pool. Every partition j is credited eq. 1's r_j (divided by the largest
    |ΔF| so far with ``reward_scale="running_max"``). The bandit stops when
    |F_best| < ``fairness_threshold``, the budget is spent, ``max_evaluations``
    is reached or no partition holds a full batch.

    With ``reserved`` the decision was pending (its items already left the offer at
    :func:`reserve`): its feedback may come in any order, and after the bandit stopped.

    Beyond the paper, with ``accuracy_weight`` β > 0 or ``accuracy_tolerance`` δ set
    (:mod:`~service.algorithms.datasift.guard`), ``accuracy_before`` / ``accuracy_after``
    are required: the reward shares ΔF / s_F + β·ΔA / s_A, and the batch is kept only
    if also accuracy_after ≥ A_best − δ (A_best: the best accuracy of a kept model,
    ``accuracy_before`` included). Neither option set: the accuracies are ignored.

    Raises
    ------
    StaleDecisionError
        When ``decision`` is not for the current round (and was not reserved).
    BanditFinishedError
        When the bandit has already stopped (and the decision was not reserved).

    References
    ----------
    DataSift, eq. 1 (shared reward) and Algorithm 1, lines 9 and 13–25.
    """
    if state.done and not reserved:
        raise BanditFinishedError(f"the bandit has stopped ({state.stop_reason})")
    if not reserved and decision.round != state.evaluations + 1:
        raise StaleDecisionError(f"decision for round {decision.round}; the bandit is at round "
                                 f"{state.evaluations + 1}")
    before = check_finite(fairness_before, "fairness_before")
    after = check_finite(fairness_after, "fairness_after")
    accuracy = guard.accuracy_pair(config, accuracy_before, accuracy_after)
    best = before if state.best_fairness is None else state.best_fairness
    delta = abs(before) - abs(after)
    fairer = abs(after) <= abs(best) and delta != 0.0
    delta_acc = best_acc = None
    accepted = improves = fairer
    if accuracy is not None:
        delta_acc = accuracy[1] - accuracy[0]
        best_acc = max(accuracy[0], accuracy[0] if state.best_accuracy is None else state.best_accuracy)
        if config.acceptance == "objective":  # the scales include this batch's changes
            improves = guard.objective_change(
                config, delta, delta_acc, _scale(config, state, change=delta),
                _scale(config, state, True, delta_acc)) > 0
        accepted = improves and guard.guard_accepts(config, best_acc, accuracy[1])
        best_acc = max(best_acc, accuracy[1]) if accepted else best_acc
    best_after = after if accepted else best
    i = decision.partition_index
    if not 0 <= i < len(state.partition_ids) or (
            state.pending_pulls[i] < 1 or state.reserved < decision.batch_size if reserved
            else decision.batch_size > state.remaining(i)):
        raise InputError("the decision does not fit this bandit's state")
    rewards, credited = shared_rewards(delta, i, np.asarray(state.base_rate_difference),
                                       np.asarray(state.distance), config.reward)
    acc_rewards = shared_rewards(delta_acc or 0.0, i, np.asarray(state.base_rate_difference),
                                 np.asarray(state.distance), config.reward)[0]
    start, end, pending = list(state.start), list(state.end), list(state.pending_pulls)
    if reserved:  # its items left the offer when it was made
        pending[i] -= 1
    elif decision.take == "front":
        start[i] += decision.batch_size
    else:
        end[i] -= decision.batch_size
    pulls = list(state.pulls)
    pulls[i] += 1
    new = replace(
        state,
        start=tuple(start),
        end=tuple(end),
        pending_pulls=tuple(pending),
        reserved=state.reserved - (decision.batch_size if reserved else 0),
        reward_sums=tuple(float(s) for s in np.asarray(state.reward_sums) + np.where(credited, rewards, 0.0)),
        reward_counts=tuple(int(c) for c in np.asarray(state.reward_counts) + credited),
        pulls=tuple(pulls),
        best_fairness=best_after,
        max_abs_delta=max(state.max_abs_delta, abs(delta)),
        budget_spent=state.budget_spent + (decision.batch_size if accepted else 0),
        evaluations=state.evaluations + 1,
        accepted_batches=state.accepted_batches + int(accepted),
        accuracy_sums=tuple(float(s) for s in np.asarray(state.accuracy_sums) + np.where(credited, acc_rewards, 0)),
        best_accuracy=state.best_accuracy if best_acc is None else best_acc,
        max_abs_accuracy_delta=max(state.max_abs_accuracy_delta, abs(delta_acc or 0.0)),
    )
    new = new if new.done else new.with_stop_check(config)
    shown = rewards / _scale(config, new)
    if config.accuracy_weight > 0:
        shown = guard.reward_sums(config, rewards, acc_rewards, _scale(config, new), _scale(config, new, True))
    result = FeedbackResult(
        accepted=accepted,
        delta_fairness=delta,
        rewards={pid: float(shown[j]) for j, pid in enumerate(new.partition_ids) if credited[j]},
        best_fairness=float(best_after),
        budget_remaining=config.budget - new.budget_spent - new.reserved,
        done=new.done,
        stop_reason=new.stop_reason,
        delta_accuracy=delta_acc,
        best_accuracy=best_acc,
        accuracy_guard_rejected=improves and not accepted,
    )
    return new, result
