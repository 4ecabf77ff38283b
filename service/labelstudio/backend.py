"""Label Studio's ML backend contract, answered by a session: ``/setup``, ``/predict``, ``/webhook``.

``/predict`` gives every task a prediction whose ``score`` is its priority under the session
(Label Studio's Data Manager sorts by it): for a managed group sampler, the tasks of the group
its rule chooses now come first (a preview of ``next``, not logged), then the other groups by
their upper confidence bound; for a
balanced filter, an accepted candidate's acceptance probability (0 for a rejected one).
Predictions carry no regions (``result: []``): a priority is not a label guess.

``/webhook`` turns each new annotation into what the session counts, once per annotation
id (the ledger's primary key; a repeated delivery changes nothing):

* a sampler's annotation becomes a training row, or a validation row (each group's first,
  then every ``validation_every``-th); a group's rows are sent as one managed observation
  (``observation_id = labelstudio:<connection>:<annotation id>``) as soon as they hold both
  kinds, and the refit it queues moves the next priorities;
* a filter's annotation reports its task's group as the candidate's outcome.

``ANNOTATION_UPDATED`` for an annotation already received is recorded (``updates``) and
changes nothing: a label is counted as first received. See docs/labelstudio.md.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms import adaptive_sampling
from service.algorithms.adaptive_sampling import BudgetExhaustedError, Decision
from service.balanced_filters import decisions as filter_decisions
from service.balanced_filters.candidates import CandidateBatch
from service.balanced_filters.schemas import OutcomeReport
from service.errors import BudgetExhausted, InvalidInput, ServiceError
from service.group_samplers import service as samplers
from service.group_samplers.schemas import ObservationReport, SampleSet
from service.group_samplers.state import load as load_sampler
from service.labelstudio.models import LedgerEntry
from service.labelstudio.repository import LedgerRepository
from service.labelstudio.schemas import LsAnnotation, LsTask, PredictRequest, WebhookPayload, WebhookResult
from service.labelstudio.service import BackendCaller, model_version
from service.sessions.repository import SessionRepository
from service.settings import Settings

__all__ = ["COUNTED_ACTIONS", "handle_webhook", "predict", "sampler_preview", "setup"]

COUNTED_ACTIONS = ("ANNOTATION_CREATED", "ANNOTATIONS_CREATED", "ANNOTATION_UPDATED")
# Within a group's tier, lower task ids first (Label Studio's own order): ids are its
# integer primary keys, far below 2**31, and float64 tells 1 / 2**31 apart at any score.
ID_SCALE = 2.0**31


def setup(caller: BackendCaller) -> dict[str, Any]:
    return {"model_version": model_version(caller.id)}


# -- /predict ----------------------------------------------------------------------------------


def predict(db: Session, settings: Settings, caller: BackendCaller, request: PredictRequest) -> bytes:
    """One prediction per task, in order; the response body as Label Studio reads it."""
    if len(request.tasks) > settings.max_candidates:
        raise InvalidInput(f"has {len(request.tasks)} tasks; the limit is {settings.max_candidates} per call "
                           "(FAIRACQ_MAX_CANDIDATES): lower the batch Label Studio sends", ["body", "tasks"])
    if caller.session_kind == "group_sampler":
        scores = _sampler_scores(db, caller, request.tasks)
    else:
        scores = _filter_scores(db, settings, caller, request.tasks)
    version = model_version(caller.id)
    results = [{"result": [], "score": score, "model_version": version} for score in scores]
    return json.dumps({"results": results, "model_version": version}, separators=(",", ":")).encode()


def _within(task_id: int | str) -> float:
    """A tie-break in (0, 1]: lower integer ids higher."""
    if isinstance(task_id, int) and 0 <= task_id < ID_SCALE:
        return 1.0 - task_id / ID_SCALE
    return 0.5


def sampler_preview(db: Session, caller: BackendCaller) -> Decision | None:
    """What the sampler's rule chooses now (``next`` on its current state), or None when its budget is spent.

    A preview, read-only: Label Studio calls /predict whenever it likes (on every "Retrieve
    predictions", for any subset of tasks), so its calls are not decisions of the session: they
    are not logged and hold nothing. The randomness is the next decision's, ``[seed, sequence + 1]``.
    """
    record = SessionRepository(db, caller.tenant_id, "group_sampler").get(caller.session_id)
    session = load_sampler(record)
    try:
        return adaptive_sampling.next_decision(session.sampler, session.state,
                                               np.random.default_rng([record.seed, record.sequence + 1]))
    except BudgetExhaustedError:
        return None


def _sampler_scores(db: Session, caller: BackendCaller, tasks: list[LsTask]) -> list[float]:
    """The chosen group's tasks in the top tier, then the other groups by UCB; unknown groups 0."""
    decision = sampler_preview(db, caller)
    if decision is None:
        return [0.0] * len(tasks)  # nothing left to acquire: no task is preferred
    groups = list(decision.scores)

    def rank_key(group: str) -> tuple[bool, float, int]:
        ucb = decision.scores[group].get("ucb")
        return (ucb is None, -(ucb or 0.0), groups.index(group))

    order = [decision.group, *sorted((g for g in groups if g != decision.group), key=rank_key)]
    tier = {group: len(order) - 1 - i for i, group in enumerate(order)}
    field, m = caller.mapping["group"], len(order)
    scores = []
    for task in tasks:
        level = tier.get(_text(task.data.get(field)) or "")
        scores.append(0.0 if level is None else (level + _within(task.id)) / m)
    return scores


def _filter_scores(db: Session, settings: Settings, caller: BackendCaller, tasks: list[LsTask]) -> list[float]:
    """Accepted candidates score their acceptance probability; rejected ones and unreadable tasks 0."""
    field = caller.mapping["features"]
    rows = [(i, _features(task.data.get(field), settings)) for i, task in enumerate(tasks)]
    usable = [(i, x) for i, x in rows if x is not None]
    scores = [0.0] * len(tasks)
    widths = {len(x) for _, x in usable}
    if not usable or len(widths) != 1:
        return scores
    ids = [str(tasks[i].id) for i, _ in usable]
    batch = CandidateBatch(given=list(ids), ids=ids, features=np.asarray([x for _, x in usable], dtype=float))
    content, _ = filter_decisions.decide(db, caller.tenant_id, caller.session_id, batch, None)
    for (i, _), made in zip(usable, json.loads(content)["decisions"], strict=True):
        scores[i] = float(made["probability"]) if made["accept"] else 0.0
    return scores


# -- /webhook ----------------------------------------------------------------------------------


def handle_webhook(db: Session, settings: Settings, caller: BackendCaller,
                   payload: WebhookPayload) -> list[WebhookResult]:
    """Count each annotation of the delivery once; other actions are acknowledged and ignored."""
    if payload.action not in COUNTED_ACTIONS or payload.annotation is None:
        return []
    ledger = LedgerRepository(db, caller.id)
    if ledger.lock_connection() is None:  # deleted since the request was authenticated
        return []
    annotations = payload.annotation if isinstance(payload.annotation, list) else [payload.annotation]
    given = payload.task if isinstance(payload.task, list) else [] if payload.task is None else [payload.task]
    tasks = {str(task.id): task for task in given}
    seen = ledger.find([str(a.id) for a in annotations])
    results = []
    for annotation in annotations:
        aid = str(annotation.id)
        entry = seen.get(aid)
        if entry is not None:
            results.append(_again(ledger, entry, payload.action))
            continue
        task = tasks.get(annotation.task_id or "")
        if caller.session_kind == "group_sampler":
            result = _sampler_annotation(db, settings, caller, ledger, annotation, task)
        else:
            result = _filter_annotation(db, settings, caller, ledger, annotation, task)
        seen[aid] = ledger.find([aid])[aid]
        results.append(result)
    return results


def _again(ledger: LedgerRepository, entry: LedgerEntry, action: str) -> WebhookResult:
    """A delivery of an annotation already received: an update is noted, nothing is counted again."""
    if action == "ANNOTATION_UPDATED":
        ledger.add_update(entry)
        return WebhookResult(annotation_id=entry.annotation_id, status="updated", observation_id=entry.observation_id,
                             reason="an annotation counts as first received; the change is noted, not counted")
    return WebhookResult(annotation_id=entry.annotation_id, status="repeated", observation_id=entry.observation_id)


def _ignore(ledger: LedgerRepository, annotation: LsAnnotation, reason: str,
            group: str | None = None) -> WebhookResult:
    aid = str(annotation.id)
    ledger.add(aid, annotation.task_id or "", role="ignored", group=group, reason=reason[:300])
    return WebhookResult(annotation_id=aid, status="ignored", reason=reason)


def _sampler_annotation(db: Session, settings: Settings, caller: BackendCaller, ledger: LedgerRepository,
                        annotation: LsAnnotation, task: LsTask | None) -> WebhookResult:
    mapping, options = caller.mapping, caller.options
    if annotation.was_cancelled:
        return _ignore(ledger, annotation, "the annotation was skipped (was_cancelled)")
    if task is None:
        return _ignore(ledger, annotation, "the delivery has no task for this annotation (send_payload is off?)")
    label = _label(annotation.result or [], mapping["label"]["control"], mapping["label"]["positive"])
    if label is None:
        return _ignore(ledger, annotation, f"no choice of control {mapping['label']['control']!r} in the result")
    group = _text(task.data.get(mapping["group"]))
    session = load_sampler(SessionRepository(db, caller.tenant_id, "group_sampler").get(caller.session_id))
    if group not in session.sampler.groups:
        return _ignore(ledger, annotation, f"task {task.id}'s group {group!r} is not one of the sampler's groups")
    features = _features(task.data.get(mapping["features"]), settings)
    width = session.managed.n_features if session.managed is not None else None
    if features is None or (width is not None and len(features) != width):
        return _ignore(ledger, annotation, f"task {task.id}'s {mapping['features']!r} is not a list of "
                       f"{width or 'some'} finite numbers", group=group)
    assert group is not None
    every = int(options["validation_every"])
    role = "validation" if ledger.count_in_group(group) % every == 0 else "train"
    aid = str(annotation.id)
    ledger.add(aid, annotation.task_id or "", role=role, group=group, label=label, features=features)
    waiting = ledger.waiting(group)
    train = [e for e in waiting if e.role == "train"]
    validation = [e for e in waiting if e.role == "validation"]
    if not train or not validation:
        return WebhookResult(annotation_id=aid, status="pending", reason=f"held as a {role} row until the group's "
                             "rows hold both training and validation data")
    observation_id = f"labelstudio:{caller.id}:{aid}"
    report = ObservationReport(observation_id=observation_id, group=group, train=_samples(train),
                               validation=_samples(validation))
    try:
        samplers.report_observation(db, caller.tenant_id, settings, caller.session_id, report, None)
    except BudgetExhausted as exc:
        return WebhookResult(annotation_id=aid, status="pending", reason=str(exc))
    ledger.mark_sent(waiting, observation_id)
    return WebhookResult(annotation_id=aid, status="counted", observation_id=observation_id)


def _filter_annotation(db: Session, settings: Settings, caller: BackendCaller, ledger: LedgerRepository,
                       annotation: LsAnnotation, task: LsTask | None) -> WebhookResult:
    if annotation.was_cancelled:
        return _ignore(ledger, annotation, "the annotation was skipped (was_cancelled)")
    if task is None:
        return _ignore(ledger, annotation, "the delivery has no task for this annotation (send_payload is off?)")
    value = task.data.get(caller.mapping["group"])
    group = value if isinstance(value, list) else _text(value)
    if group is None:
        return _ignore(ledger, annotation, f"task {task.id} has no {caller.mapping['group']!r}")
    report = OutcomeReport.model_validate({"outcomes": [{"id": str(task.id), "group": group}]})
    try:
        result, _ = filter_decisions.report_outcomes(db, caller.tenant_id, settings, caller.session_id, report, None)
    except ServiceError as exc:  # not decided, rejected, another group: the filter's own words
        return _ignore(ledger, annotation, str(exc), group=_text(value) if not isinstance(value, list) else None)
    aid = str(annotation.id)
    stored_group = None if isinstance(group, list) else group
    if not result["counted"]:
        return _ignore(ledger, annotation, f"task {task.id}'s outcome was already counted (another annotation)",
                       group=stored_group)
    observation_id = f"outcome:{task.id}"
    ledger.add(aid, annotation.task_id or "", role="outcome", group=stored_group, observation_id=observation_id)
    return WebhookResult(annotation_id=aid, status="counted", observation_id=observation_id)


# -- reading Label Studio's data ----------------------------------------------------------------


def _text(value: Any) -> str | None:
    """A group as text (JSON keys are text: 1 and "1" are one group), or None."""
    if value is None or isinstance(value, bool | dict | list):
        return None
    return str(value)


def _features(value: Any, settings: Settings) -> list[float] | None:
    if not isinstance(value, list) or not 0 < len(value) <= settings.max_features:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value):
        return None
    return [float(v) for v in value]


def _label(result: list[dict[str, Any]], control: str, positive: str) -> int | None:
    """1 when the control's chosen value is ``positive``, 0 for another choice, None without one."""
    for region in result:
        if region.get("from_name") != control:
            continue
        choices = (region.get("value") or {}).get("choices")
        if isinstance(choices, list) and choices:
            return int(positive in choices)
    return None


def _samples(entries: list[LedgerEntry]) -> SampleSet:
    return SampleSet(features=[e.features or [] for e in entries], labels=[float(e.label or 0) for e in entries])
