"""A partition bandit's decisions: ``next`` (one or a batch), each holding its batch until it is settled.

A decision takes its batch of pool items off offer and reserves its size from the
budget (``datasift.reserve``); it is pending (service.sessions.pending) until the
feedback naming its ``decision_id`` settles it, it is released, or it expires after
the bandit's ``pending_ttl_seconds``; then its items are offered again and its
budget is free. Concurrent workers therefore never get the same items, and n_j of
eq. 2 counts their pending pulls.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms import datasift
from service.db import utcnow
from service.errors import Conflict
from service.partition_bandits.models import SessionRecord
from service.partition_bandits.repository import PartitionBanditRepository, repository
from service.partition_bandits.state import NOUN, Config, State, load
from service.sessions import pending
from service.sessions.lifecycle import require_ready
from service.sessions.repository import Entry
from service.sessions.service import algorithm_errors

__all__ = ["WORK", "expire_due", "logged_decision", "make_decisions", "release_decision"]

WORK = "partitioning"  # the job a pool bandit waits for, as messages name it


def logged_decision(bandit: datasift.BanditState, logged: dict[str, Any]) -> datasift.Decision:
    """A decision as its ``next`` log entry recorded it (``take`` and ``positions`` are kept there)."""
    positions = logged.get("positions")
    return datasift.Decision(
        round=int(logged["round"]), partition=logged["partition"],
        partition_index=bandit.partition_ids.index(logged["partition"]), reason=logged["reason"],
        batch_size=int(logged["batch_size"]), take=logged["take"], item_indices=None, scores={},
        positions=None if positions is None else tuple(int(p) for p in positions),
    )


def expire_due(db: Session, repo: PartitionBanditRepository, record: SessionRecord, config: Config,
               state: State) -> State:
    """The bandit once every decision past its time has given its items and budget back."""
    bandit = state.bandit
    if bandit is None:
        return state

    def give_back(reservation: pending.Reservation) -> None:
        nonlocal bandit
        assert bandit is not None
        logged = repo.find_decision(record, reservation.decision_id)
        assert logged is not None, "a pending decision is in the log"
        bandit = datasift.release(config.bandit, bandit, logged_decision(bandit, logged.response))

    next_expiry = pending.expire_due(db, record.id, state.next_expiry, give_back)
    return replace(state, bandit=bandit, next_expiry=next_expiry)


def make_decisions(db: Session, tenant_id: uuid.UUID, bandit_id: uuid.UUID, count: int,
                   if_match: str | None) -> tuple[list[dict[str, Any]], SessionRecord]:
    """``count`` decisions, each holding its batch; fewer when the budget or the pool runs out after the first."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    require_ready(db, tenant_id, record, WORK, NOUN)
    config, state = load(record)
    state = expire_due(db, repo, record, config, state)
    assert state.bandit is not None, "a ready bandit has its partitions"
    bandit: datasift.BanditState = state.bandit
    expires = pending.expiry(utcnow(), config.pending_ttl_seconds)
    issued = pending.Issued(expires)

    def decide(sequence: int, rng: np.random.Generator) -> None:
        nonlocal bandit
        with algorithm_errors():
            decision = datasift.next_decision(config.bandit, bandit, rng)
        bandit = datasift.reserve(config.bandit, bandit, decision)
        decision_id = uuid.uuid4()
        assert decision.positions is not None, "next_decision names the batch's offer positions"
        response = {
            "decision_id": str(decision_id), "round": decision.round, "partition": decision.partition,
            "reason": decision.reason, "batch_size": decision.batch_size,
            "item_ids": None if state.pool is None else _batch_ids(repo, record, decision),
            "budget_remaining": decision_budget(config, bandit) + decision.batch_size, "scores": decision.scores,
            "expires_at": expires.isoformat().replace("+00:00", "Z"),
        }
        # ``take`` and ``positions`` (where in the partition's offer order) are kept for the feedback.
        issued.add(decision_id, sequence, decision.partition_index, decision.batch_size, response, {},
                   logged={**response, "take": decision.take, "positions": list(decision.positions)})

    pending.one_after_another(record.seed, record.sequence, count, decide)  # the budget or pool may end it early
    pending.reserve(db, record.id, issued.reservations)
    new = replace(state, bandit=bandit, next_expiry=min(state.next_expiry or expires, expires))
    repo.record(record, state=new.to_dict(), log=issued.entries)
    return issued.responses, record


def decision_budget(config: Config, bandit: datasift.BanditState) -> int:
    """Budget neither spent nor held by pending decisions."""
    return config.bandit.budget - bandit.budget_spent - bandit.reserved


def _batch_ids(repo: PartitionBanditRepository, record: SessionRecord, decision: datasift.Decision) -> list[str]:
    assert decision.positions is not None
    rows, ids = repo.offer_positions(record, decision.partition_index, decision.positions)
    return [str(v) for v in (ids if ids is not None else rows).tolist()]


def release_decision(db: Session, tenant_id: uuid.UUID, bandit_id: uuid.UUID, decision_id: uuid.UUID,
                     if_match: str | None) -> tuple[dict[str, Any], SessionRecord]:
    """Let a pending decision go: its items are offered again and its budget is free at once."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(bandit_id, if_match)
    config, state = load(record)
    state = expire_due(db, repo, record, config, state)
    held = pending.settle(db, record.id, decision_id)
    logged = repo.find_decision(record, decision_id)
    if held is None or logged is None or state.bandit is None:
        raise Conflict(f"decision {decision_id} is not pending on this bandit: it was reported on, released or "
                       "expired, or it is not one of this bandit's")
    with algorithm_errors():
        bandit = datasift.release(config.bandit, state.bandit, logged_decision(state.bandit, logged.response))
    new = replace(state, bandit=bandit)
    response = {"decision_id": str(decision_id), "partition": logged.response["partition"], "released": held.size,
                "budget_remaining": decision_budget(config, bandit)}
    repo.record(record, state=new.to_dict(), status="done" if bandit.done else "ready",
                log=Entry("release", {"decision_id": str(decision_id)}, response))
    return response, record
