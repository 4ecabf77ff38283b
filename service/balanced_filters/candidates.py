"""Reading and writing a decisions call's 10,000 candidates without a pydantic object per row.

FastAPI's default (``json.loads``, then one model per candidate) spends most
of the hot path's budget here, so the route takes the raw body: the JSON is
parsed by pydantic-core, the ids are checked in one loop and the features
become one numpy matrix. The checks are those of :class:`~.schemas.DecisionRequest`
(which documents the body in OpenAPI, unknown fields refused too), and a problem is a 422 naming the row.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pydantic_core

from service.algorithms.validation import InputError
from service.balanced_filters.models import MAX_CANDIDATE_ID
from service.errors import UNKNOWN_FIELD, InvalidInput
from service.fields import INT64_MIN, UINT64_MAX

__all__ = ["CandidateBatch", "decisions_json", "digest", "parse_candidates"]

LOC = ("body", "candidates")
# Strings JSON writes as they are: no quote, backslash or control character.
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')


@dataclass(frozen=True)
class CandidateBatch:
    """Candidates in request order: ids as given, as strings, and the feature matrix."""

    given: list[Any]
    ids: list[str]
    features: np.ndarray


def _bad_id(value: Any) -> str | None:
    """What is wrong with a candidate id, as :data:`~.schemas.CandidateId` would say (None: nothing)."""
    if type(value) is str:
        if not 0 < len(value) <= MAX_CANDIDATE_ID:
            return f"must have 1 to {MAX_CANDIDATE_ID} characters"
        return "must not contain the NUL character (\\u0000)" if "\x00" in value else None
    if type(value) is int:
        return None if INT64_MIN <= value <= UINT64_MAX else "must be a 64-bit integer (signed or unsigned)"
    return "must be a string or an integer"


def _feature_error(rows: list[Any]) -> InputError:
    """The first row that is not a list of numbers as long as row 0 (after numpy refused the batch)."""
    width = len(rows[0]) if isinstance(rows[0], list) else -1
    for i, row in enumerate(rows):
        loc: list[str | int] = [*LOC, i, "features"]
        if not isinstance(row, list) or not row:
            return InputError("must be a non-empty list of numbers", loc)
        if len(row) != width:
            return InputError(f"has {len(row)} values but candidate 0 has {width}; every candidate needs the "
                              "same features", loc)
        for j, value in enumerate(row):
            if type(value) not in (int, float):
                return InputError("must be a number", [*loc, j])
    return InputError("must be lists of numbers", list(LOC))


def parse_candidates(body: bytes, max_candidates: int, max_features: int) -> CandidateBatch:
    """Validate a ``{"candidates": [{"id", "features"}]}`` body (see the module docstring)."""
    try:
        data = pydantic_core.from_json(body or b"null")
    except ValueError as exc:
        raise InvalidInput(f"is not valid JSON ({exc})", ["body"]) from None
    unknown = next((key for key in data if key != "candidates"), None) if isinstance(data, dict) else None
    if unknown is not None:
        raise InvalidInput(UNKNOWN_FIELD, ["body", unknown])
    if not isinstance(data, dict) or not isinstance(data.get("candidates"), list):
        raise InvalidInput('send {"candidates": [{"id": ..., "features": [...]}, ...]}', ["body"])
    candidates = data["candidates"]
    if not candidates:
        raise InvalidInput("must hold at least one candidate", list(LOC))
    if len(candidates) > max_candidates:
        raise InvalidInput(f"has {len(candidates)} candidates; the limit is {max_candidates} per call "
                         "(FAIRACQ_MAX_CANDIDATES)", list(LOC))
    try:
        given = [c["id"] for c in candidates]
        rows = [c["features"] for c in candidates]
    except (TypeError, KeyError):
        for i, c in enumerate(candidates):
            if not isinstance(c, dict) or "id" not in c or "features" not in c:
                raise InvalidInput('must be an object {"id": ..., "features": [...]}', [*LOC, i]) from None
        raise
    if sum(map(len, candidates)) != 2 * len(candidates):  # a key besides id and features (both are there)
        i, extra = next((i, k) for i, c in enumerate(candidates) for k in c if k not in ("id", "features"))
        raise InvalidInput(UNKNOWN_FIELD, [*LOC, i, extra])
    for i, value in enumerate(given):
        problem = _bad_id(value)
        if problem is not None:
            raise InvalidInput(problem, [*LOC, i, "id"])
    try:
        X = np.array(rows)
    except ValueError:
        raise _feature_error(rows) from None
    if X.ndim != 2 or X.shape[1] == 0 or X.dtype.kind not in "iuf":
        raise _feature_error(rows)
    if X.shape[1] > max_features:
        raise InvalidInput(f"has {X.shape[1]} features; the limit is {max_features} (FAIRACQ_MAX_FEATURES)",
                         [*LOC, 0, "features"])
    X = X.astype(float, copy=False)
    bad = ~np.isfinite(X)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InvalidInput("must be a finite number (NaN and infinity are not allowed)",
                         [*LOC, int(i), "features", int(j)])
    ids = [v if type(v) is str else str(v) for v in given]
    return CandidateBatch(given=given, ids=ids, features=X)


def digest(ids: bytes, *arrays: np.ndarray) -> str:
    """A short fingerprint of a batch for the decision log (the joined ids, then each array's bytes)."""
    h = hashlib.sha256(ids)
    for array in arrays:
        h.update(np.ascontiguousarray(array).tobytes())
    return "sha256:" + h.hexdigest()


def decisions_json(given: list[Any], accept: np.ndarray, probability: np.ndarray, leaf: np.ndarray,
                   rho: np.ndarray, new: int, repeated: int) -> bytes:
    """The response body of a decisions call (:class:`~.schemas.DecisionBatch`).

    Each entry is its id's JSON followed by one of ``2 × leaves`` precomputed
    tails (accept, probability and leaf), so the 10,000 entries are string joins
    rather than dicts; ids that need escaping fall back to the JSON encoder.
    """
    tails = [[f'"accept":{flag},"probability":{pydantic_core.to_json(float(p)).decode()},"leaf":{j}}}'
              for flag in ("false", "true")] for j, p in enumerate(rho.tolist())]
    if all(type(v) is str for v in given) and _PLAIN.fullmatch("".join(given)):
        heads = [f'{{"id":"{v}",' for v in given]
    else:
        heads = [f'{{"id":{pydantic_core.to_json(v).decode()},' for v in given]
    body = ",".join([head + tails[k][a] for head, k, a in zip(heads, leaf.tolist(), accept.tolist(), strict=True)])
    return f'{{"decisions":[{body}],"new":{new},"repeated":{repeated}}}'.encode()
