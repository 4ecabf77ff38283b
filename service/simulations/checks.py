"""A simulation request checked against its table, per decision type: policies, sizes and the work it asks for.

Each check raises ``InvalidInput`` naming the field; :func:`policy_names` gives every
policy its stored name and :func:`options` the type's own settings as the replay reads them.
The total work is capped per type (the count each replay spends its time on), so that one
request cannot occupy the worker pool for days.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from service.algorithms.adaptive_sampling import SamplerConfig
from service.algorithms.balanced_filtering import GroupEncoding, make_proxy, target_vector
from service.algorithms.datasift import BanditConfig
from service.algorithms.fairbatch import init_state
from service.algorithms.fairbatch.cells import Value
from service.algorithms.validation import InputError
from service.errors import InvalidInput
from service.simulations.replay_bandit import EVALUATIONS_PER_BATCH
from service.simulations.replay_filter import proxy_params
from service.simulations.schemas import (
    BalancedFilterSimulation,
    BatchSchedulerSimulation,
    GroupSamplerSimulation,
    PartitionBanditSimulation,
    SimulationCreate,
)

__all__ = ["check_policies", "options", "policy_names", "sampler_policy"]

# Sampler rounds in one simulation (policies × repetitions × budget / batch): about an hour
# of worker time at 3 ms a refit.
MAX_ROUNDS = 1_000_000
# Logistic fits of partition-bandit replays (policies × repetitions × batches evaluated):
# about an hour of worker time at 20 ms a fit on a few thousand rows.
MAX_BANDIT_FITS = 200_000
# Example-gradients of batch-scheduler replays (policies × repetitions × epochs × training rows):
# about an hour at ~7 ns each for 100 features.
MAX_EXAMPLE_STEPS = 500_000_000
# Proxy fits of balanced-filter replays (policies × repetitions): a tree with its QP takes
# ~0.1–1 s, an ab_tree's split games up to a minute.
MAX_PROXY_FITS = 4_000


@contextmanager
def _at(*loc: str | int) -> Iterator[None]:
    try:
        yield
    except InputError as exc:
        raise InvalidInput(exc.errors[0]["msg"] if exc.errors else str(exc), list(loc)) from None


def _name(decision_type: str, spec: dict[str, Any]) -> str:
    if spec.get("name"):
        return str(spec["name"])
    if decision_type == "group_sampler":
        return str(spec["strategy"])
    if decision_type == "partition_bandit":
        return "random" if spec["policy"] == "random" else f"datasift_{spec['batch_selection']}"
    if decision_type == "batch_scheduler":
        return str(spec["policy"])
    proxy = spec["proxy"]
    return str(proxy["type"]) if proxy.get("alpha") is None else f"{proxy['type']}_alpha_{proxy['alpha']:g}"


def policy_names(payload: SimulationCreate, policies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The stored policies, each with its name; 422 when two share one."""
    named = [{**p, "name": _name(payload.decision_type, p)} for p in policies]
    names = [p["name"] for p in named]
    if len(set(names)) != len(names):
        raise InvalidInput("policies need distinct names: give each a name when two would share one",
                           ["body", "policies"])
    return named


def sampler_policy(spec: dict[str, Any], loss: str) -> dict[str, Any]:
    """A stored group-sampler policy as ``SamplerConfig`` fields (besides groups and budget)."""
    fields = {k: spec[k] for k in ("strategy", "c0", "c1", "epsilon", "xi", "batch_size")}
    return {**fields, "loss": loss}


def _limit(work: int, limit: int, what: str) -> None:
    if work > limit:
        raise InvalidInput(f"{work} {what} exceed the limit of {limit}; run fewer repetitions or a smaller budget",
                           ["body"])


def _group_sampler(payload: GroupSamplerSimulation, groups: list[str]) -> None:
    rounds = 0
    for k, spec in enumerate(payload.policies):
        with _at("body", "policies", k):
            SamplerConfig(groups=tuple(groups), budget=payload.budget,
                          **sampler_policy(spec.model_dump(), payload.loss))
        rounds += payload.repetitions * -(-payload.budget // spec.batch_size)
    _limit(rounds, MAX_ROUNDS, "sampler rounds (policies × repetitions × budget / batch_size)")


def _partition_bandit(payload: PartitionBanditSimulation, sizes: np.ndarray) -> None:
    held = 2 * np.maximum(1, np.round(payload.test_fraction * sizes))  # test and selection rows
    pool = int((sizes - held).sum()) - payload.initial_size
    if pool < payload.budget:
        raise InvalidInput(f"each repetition's pool has about {max(pool, 0)} rows (the table less the test and "
                           f"selection sets and {payload.initial_size} initial rows): fewer than the budget",
                           ["body", "budget"])
    fits = 0
    for k, spec in enumerate(payload.policies):
        batches = math.ceil(payload.budget / spec.batch_size)
        if spec.policy == "datasift":
            with _at("body", "policies", k):
                BanditConfig(batch_size=spec.batch_size, budget=payload.budget, metric=payload.metric,
                             reward=spec.reward, reward_scale=spec.reward_scale, batch_selection=spec.batch_selection,
                             alpha=spec.alpha, fairness_threshold=spec.fairness_threshold,
                             max_evaluations=spec.max_evaluations)
            batches = spec.max_evaluations or EVALUATIONS_PER_BATCH * batches
        fits += payload.repetitions * batches
    _limit(fits, MAX_BANDIT_FITS, "model fits (policies × repetitions × batches evaluated)")


def _batch_scheduler(payload: BatchSchedulerSimulation, groups: list[str], labels: np.ndarray,
                     codes: np.ndarray) -> None:
    counts: dict[tuple[Value, Value], int] = {
        (y, g): int(np.sum((labels == y) & (codes == i))) for y in (0, 1) for i, g in enumerate(groups)}
    for k, spec in enumerate(payload.policies):
        if spec.policy == "fairbatch":
            with _at("body", "policies", k):
                init_state(payload.metric, [0, 1], groups, counts, batch_size=payload.batch_size,
                           step_size=spec.step_size, threshold=spec.threshold, positive_label=1)
    rows = int(len(labels) * (1 - payload.test_fraction))
    _limit(len(payload.policies) * payload.repetitions * payload.budget * rows, MAX_EXAMPLE_STEPS,
           "example gradients (policies × repetitions × epochs × training rows)")


def _balanced_filter(payload: BalancedFilterSimulation, groups: list[str]) -> None:
    encoding = GroupEncoding(values=(tuple(groups),))
    with _at("body", "target"):
        target_vector(encoding, payload.target)
    for k, spec in enumerate(payload.policies):
        with _at("body", "policies", k, "proxy"):
            make_proxy(spec.proxy.type, **proxy_params(spec.proxy.model_dump()), target=payload.target)
    _limit(len(payload.policies) * payload.repetitions, MAX_PROXY_FITS, "proxy fits (policies × repetitions)")


def check_policies(payload: SimulationCreate, groups: list[str], labels: np.ndarray, codes: np.ndarray) -> None:
    """The type's policies against the table, and the work they ask for."""
    sizes = np.bincount(codes, minlength=len(groups))
    if isinstance(payload, GroupSamplerSimulation):
        _group_sampler(payload, groups)
    elif isinstance(payload, PartitionBanditSimulation):
        _partition_bandit(payload, sizes)
    elif isinstance(payload, BatchSchedulerSimulation):
        _batch_scheduler(payload, groups, labels, codes)
    else:
        _balanced_filter(payload, groups)


def options(config: dict[str, Any]) -> dict[str, Any]:
    """The type's own settings from a stored config, as its replay reads them."""
    keys = {"group_sampler": (), "partition_bandit": ("metric", "initial_size", "max_partitions"),
            "batch_scheduler": ("metric", "batch_size", "learning_rate"), "balanced_filter": ("target",)}
    return {k: config[k] for k in keys[config["decision_type"]]}
