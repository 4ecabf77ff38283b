"""The accept path (Algorithm 2) and outcome reports, each decided or counted once per candidate id.

A decisions call locks the filter's row, decides its distinct candidate ids
with the cached proxy (O(depth) numpy work and one hash per id: no training,
no solver), and stores them in ``filter_candidates``, which keeps each id's
first decision: an id seen before -- in an earlier call, or earlier in the same
batch -- gets that first decision back and is not counted again, whatever
features come with it. Only the ids stored by this call are added to the
counts. The decision log gets one compact entry per call (counts and digests);
the rows of ``filter_candidates`` keep every answer and the log sequence that
gave it.
"""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service.algorithms.balanced_filtering import record_decisions, record_outcomes
from service.balanced_filters import groups as group_checks
from service.balanced_filters.candidates import CandidateBatch, decisions_json, digest
from service.balanced_filters.models import SessionRecord
from service.balanced_filters.repository import repository
from service.balanced_filters.schemas import OutcomeReport
from service.balanced_filters.service import WORK, loaded_proxy, realized_out
from service.balanced_filters.state import NOUN, load_fitted
from service.errors import InvalidInput
from service.sessions.lifecycle import require_ready
from service.sessions.repository import Entry
from service.settings import Settings

__all__ = ["decide", "report_outcomes"]


def decide(db: Session, tenant_id: uuid.UUID, filter_id: uuid.UUID, batch: CandidateBatch,
           if_match: str | None) -> tuple[bytes, SessionRecord]:
    """Accept or reject each candidate; the response body (JSON) and the filter."""
    repo = repository(db, tenant_id)
    record = repo.get_for_update(filter_id, if_match)
    require_ready(db, tenant_id, record, WORK, NOUN)
    _, fitted = load_fitted(record)
    proxy = loaded_proxy(repo, record, fitted.model).proxy
    X, ids = batch.features, batch.ids
    if X.shape[1] != proxy.n_features_in_:
        raise InvalidInput(f"candidates have {X.shape[1]} features; this filter was trained on "
                         f"{proxy.n_features_in_}", ["body", "candidates", 0, "features"])
    unique, rows, position = _distinct(ids)
    sequence = record.sequence + 1
    made = proxy.decide(X if rows is None else X[rows], unique, record.seed)
    leaf, accept = made.leaf.astype(np.int64), made.accept.astype(bool)
    earlier = repo.add_candidates(record, unique, leaf, accept, sequence)
    is_new = np.ones(len(unique), dtype=bool)
    if earlier:  # ids decided by an earlier call keep their first answer and are not counted again
        for j, cid in enumerate(unique):
            stored = earlier.get(cid)
            if stored is not None:
                is_new[j], leaf[j], accept[j] = False, stored.leaf, stored.accept
    n_new = int(is_new.sum())
    new_state = fitted.with_counts(record_decisions(fitted.counts, leaf[is_new], accept[is_new])) if n_new else None
    if position is not None:  # repeated ids within the batch get their first row's answer
        leaf, accept = leaf[position], accept[position]
    probability = proxy.rho_[leaf]
    repeated = len(ids) - n_new
    joined = "\x1f".join(ids).encode()
    repo.record(record, state=None if new_state is None else new_state.to_dict(), log=Entry(
        "decisions", {"candidates": len(ids), "digest": digest(joined, X)},
        {"new": n_new, "repeated": repeated, "accepted": int(accept.sum()), "digest": digest(joined, leaf, accept)},
    ))
    return decisions_json(batch.given, accept, probability, leaf, proxy.rho_, n_new, repeated), record


def _distinct(ids: list[str]) -> tuple[list[str], np.ndarray | None, np.ndarray | None]:
    """Distinct ids in order of first appearance, their first rows and each row's index among them.

    ``None`` for the rows and positions when every id is distinct (the common case).
    """
    if len(dict.fromkeys(ids)) == len(ids):
        return ids, None, None
    first: dict[str, int] = {}
    for i, cid in enumerate(ids):
        first.setdefault(cid, i)
    unique = list(first)
    slot = {cid: j for j, cid in enumerate(unique)}
    rows = np.fromiter(first.values(), dtype=np.int64, count=len(unique))
    return unique, rows, np.fromiter((slot[cid] for cid in ids), dtype=np.int64, count=len(ids))


def report_outcomes(db: Session, tenant_id: uuid.UUID, settings: Settings, filter_id: uuid.UUID,
                    payload: OutcomeReport, if_match: str | None) -> tuple[dict[str, Any], SessionRecord]:
    """Record the groups learned for accepted candidates; an id's outcome counts once."""
    loc = ["body", "outcomes"]
    if len(payload.outcomes) > settings.max_candidates:
        raise InvalidInput(f"has {len(payload.outcomes)} outcomes; the limit is {settings.max_candidates} per call "
                         "(FAIRACQ_MAX_CANDIDATES)", loc)
    repo = repository(db, tenant_id)
    record = repo.get_for_update(filter_id, if_match)
    require_ready(db, tenant_id, record, WORK, NOUN)
    config, fitted = load_fitted(record)
    encoding = config.encoding
    ids = [o.id if isinstance(o.id, str) else str(o.id) for o in payload.outcomes]
    try:
        "".join(ids).encode()
    except UnicodeEncodeError:
        raise InvalidInput("ids must be valid Unicode (no lone surrogates)", loc) from None
    labels = [o.group for o in payload.outcomes]
    codes = group_checks.codes_of(encoding, labels, loc, field="group")
    joint = group_checks.joint_codes(encoding, codes).tolist()
    wanted: dict[str, int] = {}
    for i, (cid, code) in enumerate(zip(ids, joint, strict=True)):
        if wanted.setdefault(cid, code) != code:
            raise InvalidInput(f"candidate {cid!r} appears twice with different groups", [*loc, i, "group"])
    stored = repo.find_candidates(record, list(wanted))
    new: dict[str, int] = {}
    for i, cid in enumerate(ids):
        found = stored.get(cid)
        if found is None:
            raise InvalidInput(f"this filter has not decided candidate {cid!r}; report outcomes of accepted "
                             "candidates", [*loc, i, "id"])
        if not found.accept:
            raise InvalidInput(f"candidate {cid!r} was rejected; report outcomes of accepted candidates only",
                             [*loc, i, "id"])
        if found.outcome is not None and found.outcome != wanted[cid]:
            raise InvalidInput(f"candidate {cid!r} was already reported in another group; an outcome counts once",
                             [*loc, i, "group"])
        if found.outcome is None:
            new.setdefault(cid, i)
    counts = fitted.counts
    if new:
        repo.set_outcomes(record, {cid: wanted[cid] for cid in new})
        counts = record_outcomes(counts, encoding, group_checks.values_of(encoding, codes[list(new.values())]))
    realized = realized_out(config, counts)
    result = {"received": len(ids), "counted": len(new), "repeated": len(ids) - len(new),
              "realized": realized.model_dump()}
    request = {"outcomes": len(ids), "digest": digest("\x1f".join(ids).encode(), np.asarray(joint))}
    state = fitted.with_counts(counts).to_dict() if new else None
    repo.record(record, state=state, log=Entry("outcomes", request, result))
    return result, record
