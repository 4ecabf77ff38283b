"""Group sampler use cases: create, next (logged), observations (counted once), read.

``next`` and reported observations read and write only the small JSON state on the
session row, so they are O(groups). Managed mode (``managed.py``) stores each
observation's samples as a blob, counts them against the budget at once and
queues a refit. A sampler is ``ready`` until its budget is spent, then ``done``;
a refit never makes it wait (its decisions use the latest fitted losses).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.orm import Session

from service import jobs
from service.algorithms import adaptive_sampling
from service.algorithms.adaptive_sampling import BudgetExhaustedError, SamplerConfig, SamplerState
from service.errors import BudgetExhausted, InvalidInput
from service.group_samplers.models import SessionRecord
from service.group_samplers.repository import GroupSamplerRepository, repository
from service.group_samplers.schemas import (
    DEFAULT_TREND_WINDOW,
    GroupSamplerCreate,
    GroupSamplerOut,
    ObservationReport,
    ObservationResult,
    SamplerModelSpec,
)
from service.group_samplers.state import Managed, SamplerSession, load
from service.sessions import pending
from service.sessions.lifecycle import DONE, READY, new_seed
from service.sessions.repository import Entry
from service.sessions.service import Step, algorithm_errors, report_once
from service.settings import Settings

__all__ = ["create_sampler", "library_errors", "report_observation", "sampler_out",
           "status_of", "summary"]

REPORTED_FIELDS = ("n_acquired", "group_losses", "group_accuracies")
MANAGED_FIELDS = ("train", "validation")
PARAMS = ("c0", "c1", "epsilon", "xi", "warmup_rounds", "bound", "trend_window", "bound_c", "bound_delta",
          "bound_vc_dim")


@contextmanager
def library_errors() -> Iterator[None]:
    """The library's input errors as 422, a spent budget as 409 ``budget-exhausted``."""
    with algorithm_errors():
        try:
            yield
        except BudgetExhaustedError as exc:
            raise BudgetExhausted(str(exc)) from None


def status_of(session: SamplerSession) -> str:
    return DONE if session.exhausted else READY


# -- create ------------------------------------------------------------------------------------


def create_sampler(db: Session, tenant_id: uuid.UUID, settings: Settings,
                   payload: GroupSamplerCreate) -> SessionRecord:
    """Validate the configuration once, store it with the initial state, log the creation."""
    if len(payload.groups) > settings.max_groups:
        raise InvalidInput(f"has {len(payload.groups)} groups; the limit is {settings.max_groups} "
                           "(FAIRACQ_MAX_GROUPS)", ["body", "groups"])
    managed = payload.mode == "managed"
    if payload.model is not None and not managed:
        raise InvalidInput("the service trains a model in managed mode only; leave model out or use mode "
                           "'managed'", ["body", "model"])
    params = payload.params
    with library_errors():
        config = SamplerConfig(
            groups=tuple(payload.groups), budget=payload.budget, strategy=payload.strategy, c0=params.c0,
            c1=params.c1, epsilon=params.epsilon, xi=params.xi, warmup_rounds=params.warmup_rounds,
            bound=params.bound, batch_size=payload.batch_size, loss=payload.loss,
            trend_window=params.trend_window or DEFAULT_TREND_WINDOW, bound_c=params.bound_c,
            bound_delta=params.bound_delta, bound_vc_dim=params.bound_vc_dim,
        )
    session = SamplerSession(
        mode=payload.mode, sampler=config, state=SamplerState.initial(config),
        model=(payload.model or SamplerModelSpec()).model_dump() if managed else None,
        managed=Managed.initial(config.n_groups) if managed else None,
        pending_ttl_seconds=float(payload.pending_ttl_seconds))
    repo = repository(db, tenant_id)
    record = repo.create(config=session.config_json(), state=session.state_json(), seed=new_seed(payload.seed),
                         status=READY, name=payload.name)
    repo.record(record, log=Entry("create", payload.model_dump(mode="json"), {"config": session.config_json()}))
    return record


# -- observations ------------------------------------------------------------------------------


def report_observation(db: Session, tenant_id: uuid.UUID, settings: Settings, sampler_id: uuid.UUID,
                       payload: ObservationReport, if_match: str | None,
                       ) -> tuple[ObservationResult, SessionRecord, bool]:
    """Apply one observation once; a retry with the same ``observation_id`` gets the first answer."""
    from service.group_samplers.decisions import expire_due, settle_for_observation
    from service.group_samplers.managed import apply_managed

    repo = repository(db, tenant_id)
    record = repo.get_for_update(sampler_id, if_match)
    session = expire_due(db, record, load(record))

    def apply() -> Step:
        _check_fields(payload, session.is_managed)
        _check_decision(repo, record, payload)
        settles = settle_for_observation(db, record, payload.decision_id)
        if session.is_managed:
            new, job_id, n_acquired = apply_managed(db, settings, repo, record, session, payload, settles)
            response = {**observation_response(new, payload, n_acquired), "job_id": str(job_id)}
        else:
            reported, losses = payload.n_acquired, payload.group_losses
            assert reported is not None and losses is not None, "_check_fields requires them in reported mode"
            with library_errors():
                state = adaptive_sampling.apply_observation(
                    session.sampler, session.state, payload.group, reported, losses, payload.group_accuracies,
                    settles=settles)
            new = session.with_state(state)
            response = observation_response(new, payload, reported)
        return Step(response, state=new.state_json(), status=status_of(new))

    response, replayed = report_once(repo, record, f"observation:{payload.observation_id}",
                                     _logged_request(payload), apply, "observation")
    job = None if response.get("job_id") is None else jobs.describe(db, tenant_id, uuid.UUID(response["job_id"]))
    body = {k: v for k, v in response.items() if k != "job_id"}
    return ObservationResult.model_validate({**body, "job": job}), record, replayed


def _logged_request(payload: ObservationReport) -> dict[str, Any]:
    """The request as the decision log keeps it: samples by size and digest (they are in a blob)."""
    request = payload.model_dump(mode="json", exclude_none=True)
    for name in MANAGED_FIELDS:
        if name in request:
            text = json.dumps(request[name], sort_keys=True, separators=(",", ":"))
            request[name] = {"rows": len(request[name]["features"]),
                             "sha256": hashlib.sha256(text.encode()).hexdigest()}
    return request


def _check_fields(payload: ObservationReport, managed: bool) -> None:
    wrong, needed = (REPORTED_FIELDS, MANAGED_FIELDS) if managed else (MANAGED_FIELDS, REPORTED_FIELDS[:2])
    mode, send = ("managed", "train and validation samples") if managed else ("reported", "n_acquired and "
                                                                                          "group_losses")
    for name in wrong:
        if getattr(payload, name) is not None:
            raise InvalidInput(f"this sampler is in {mode} mode: send {send}, not {name}", ["body", name])
    for name in needed:
        if getattr(payload, name) is None:
            raise InvalidInput(f"is required in {mode} mode (send {send})", ["body", name])


def _check_decision(repo: GroupSamplerRepository, record: SessionRecord, payload: ObservationReport) -> None:
    if payload.decision_id is None:
        return
    logged = repo.find_decision(record, payload.decision_id)
    if logged is None or logged.kind != "next":
        raise InvalidInput(f"no next decision {payload.decision_id} on this sampler; send a decision_id that next "
                           "returned, or leave it out", ["body", "decision_id"])
    if logged.response["group"] != payload.group:
        raise InvalidInput(f"decision {payload.decision_id} chose group {logged.response['group']!r}; report that "
                           "group, or leave decision_id out for samples of another group", ["body", "group"])


def summary(session: SamplerSession) -> dict[str, Any]:
    """The session view of SPEC §4.3 ``GET``: counts, mixture and losses by group name, round, budget, status."""
    view, groups = adaptive_sampling.summary(session.sampler, session.state), session.sampler.groups
    return {"counts": dict(zip(groups, view.counts, strict=True)),
            "mixture": dict(zip(groups, view.mixture, strict=True)),
            "group_losses": dict(zip(groups, view.group_losses, strict=True)),
            "round": view.round, "budget_remaining": view.budget_remaining, "status": status_of(session),
            "pending": dict(zip(groups, view.pending, strict=True))}


def observation_response(session: SamplerSession, payload: ObservationReport, n_acquired: int) -> dict[str, Any]:
    return {"observation_id": payload.observation_id,
            "decision_id": None if payload.decision_id is None else str(payload.decision_id),
            "group": payload.group, "n_acquired": n_acquired, **summary(session)}


# -- read --------------------------------------------------------------------------------------


def sampler_out(record: SessionRecord, db: Session | None = None) -> GroupSamplerOut:
    """The sampler as the API shows it; with ``db``, with its oldest pending decisions listed."""
    session = load(record)
    config, managed, stored = session.sampler, session.managed, session.sampler.to_dict()
    return GroupSamplerOut(
        id=record.id, name=record.name, groups=list(config.groups), strategy=config.strategy,
        mode=session.mode, budget=config.budget, batch_size=config.batch_size,
        loss=config.loss, params={k: stored[k] for k in PARAMS},
        model=session.model,
        group_accuracies=dict(zip(config.groups, session.state.group_accuracies, strict=True)),
        model_version=None if managed is None else managed.model_version,
        fitted_observations=None if managed is None else managed.fitted_observations,
        fit_job_id=record.job_id, version=record.version, seed=record.seed, created_at=record.created_at,
        pending_ttl_seconds=session.pending_ttl_seconds,
        pending_decisions=[] if db is None else pending.shown(db, record.id, config.groups),
        **summary(session),
    )
