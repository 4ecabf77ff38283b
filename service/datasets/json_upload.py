"""JSON dataset uploads read without a Python object per number.

A 64 MiB body of features parsed as JSON and then by pydantic makes a Python float and a
list slot per value: about 4 GB and half a minute, before a row limit could refuse it.
Here the body's top-level object is scanned as bytes (regular expressions, no Python
loop over values), and:

* ``features`` — rows of plain JSON numbers — are counted by their ``],[`` separators,
  checked against the row and feature limits, checked to be rectangular, and only then
  parsed (by pydantic-core, a block of rows at a time) into one float matrix;
* ``labels`` (numbers) are parsed the same way once their count matches the rows;
* ``groups`` and ``ids`` are decoded by ``json`` once they are known to hold no more
  values than the row limit, and validated by pydantic like ``name``;
* any other key is a 422 naming it (the schema forbids unknown keys).

A body this reader does not expect (numbers as strings, nested objects, ``NaN``) goes to
pydantic whole when it is small (:data:`FULL_PARSE_BYTES`), so its answer and messages
are pydantic's; a large one is a 422 saying what shape to send. Peak memory stays about
three copies of the body plus the float matrix.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pydantic_core
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from service.algorithms.validation import InputError
from service.datasets.schemas import DatasetCreate, GroupValue, RowId
from service.errors import UNKNOWN_FIELD, InvalidInput
from service.fields import Name, RequestModel

__all__ = ["FULL_PARSE_BYTES", "Upload", "read_json_upload"]

# Bodies up to this size may be parsed whole by pydantic (a few dozen MB at most).
FULL_PARSE_BYTES = 1024 * 1024

_WS = re.compile(rb"[ \t\n\r]*+")
_KEY = re.compile(rb'"((?:[^"\\]|\\.)*+)"[ \t\n\r]*+:[ \t\n\r]*+', re.DOTALL)
_NUMBER = rb"-?+(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+"
_STRING = rb'"(?:[^"\\]|\\.)*+"'
_SCALAR = re.compile(rb"(?:" + _STRING + rb"|" + _NUMBER + rb"|true|false|null)", re.DOTALL)
# A flat array of scalars (groups, labels, ids), and an array of arrays with no string,
# object or nested array inside (features); their values are checked after the match.
# Possessive quantifiers: a body that does not match fails in one pass, never backtracks.
_FLAT = re.compile(rb"\[[ \t\n\r]*+(?:" + _SCALAR.pattern + rb"[ \t\n\r]*+(?:,[ \t\n\r]*+" + _SCALAR.pattern
                   + rb"[ \t\n\r]*+)*+)?+\]", re.DOTALL)
_ROW = rb'\[[^\[\]"{}]*+\][ \t\n\r]*+'
_MATRIX = re.compile(rb"\[[ \t\n\r]*+(?:" + _ROW + rb"(?:,[ \t\n\r]*+" + _ROW + rb")*+)?+\]")
_NUMERIC = b"0123456789+-.eE,[] \t\n\r"
# The largest integer a float holds (finite): a longer integer literal overflows.
FLOAT_INTEGER_MAX = int(np.finfo(float).max)
# Rows parsed at a time: the Python floats of one block (a few MB) are all that exists at once.
PARSE_ROWS = 4096
_BLANKS = b" \t\n\r"


class _Unexpected(Exception):
    """A body this reader does not parse itself."""


@dataclass
class Upload:
    """A dataset upload: the feature matrix (or rows) and the other fields, validated for their types."""

    features: Any
    groups: list[Any] | None
    labels: Any
    ids: list[str] | None
    name: str | None
    unknown: str | None = None  # a key the schema does not have: refused once the fields are checked

    def refuse_unknown(self) -> None:
        """An unknown key is a 422, after the fields' own errors (as pydantic orders them)."""
        if self.unknown is not None:
            raise InvalidInput(UNKNOWN_FIELD, ["body", self.unknown])


class _Fields(RequestModel):
    """:class:`~.schemas.DatasetCreate`'s fields other than the numeric arrays."""

    groups: list[GroupValue] | None = None
    ids: list[RowId] | None = None
    name: Name | None = None


def read_json_upload(body: bytes, *, max_rows: int, max_features: int) -> Upload:
    """The upload in ``body``; limits and shapes are checked before any value is parsed."""
    small = len(body) <= FULL_PARSE_BYTES
    try:
        if small:
            pydantic_core.from_json(body or b"null")  # broken JSON gets pydantic's message, as it always did
        return _read(body, max_rows, max_features)
    except InputError:
        raise
    except (_Unexpected, ValueError) as exc:
        if small:
            payload = _validated(DatasetCreate, body)
            return Upload(payload.features, payload.groups, payload.labels, payload.ids, payload.name)
        raise InvalidInput(f"{exc}; send an object of features (rows of numbers), groups, labels, ids and name",
                         ["body"]) from None


def _validated(model: type[BaseModel], data: Any) -> Any:
    """``model`` validated from JSON bytes or Python data, errors located as FastAPI's."""
    try:
        if isinstance(data, bytes):
            return model.model_validate_json(data or b"null")
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]) from None


def _skip_blanks(body: bytes, i: int = 0) -> int:
    """Where the first byte at or after ``i`` that is not JSON white space is."""
    blanks = _WS.match(body, i)
    assert blanks is not None, "the pattern matches the empty string"
    return blanks.end()


def _spans(body: bytes) -> dict[str, tuple[int, int]]:
    """Where each top-level key's value starts and ends (the last of repeated keys wins, as in ``json``)."""
    i = _skip_blanks(body)
    if body[i:i + 1] != b"{":
        raise _Unexpected("the body is not a JSON object")
    i = _skip_blanks(body, i + 1)
    spans: dict[str, tuple[int, int]] = {}
    if body[i:i + 1] == b"}":
        i += 1
    else:
        while True:
            key = _KEY.match(body, i)
            if key is None:
                raise _Unexpected("the body is not a JSON object of fields")
            end = _value_end(body, key.end())
            spans[json.loads(b'"' + key.group(1) + b'"')] = (key.end(), end)
            i = _skip_blanks(body, end)
            if body[i:i + 1] == b",":
                i = _skip_blanks(body, i + 1)
            elif body[i:i + 1] == b"}":
                i += 1
                break
            else:
                raise _Unexpected("the body is not valid JSON")
    if _skip_blanks(body, i) != len(body):
        raise _Unexpected("the body has more after its JSON object")
    return spans


def _value_end(body: bytes, start: int) -> int:
    if body[start:start + 1] == b"[":
        for pattern in (_FLAT, _MATRIX):
            found = pattern.match(body, start)
            if found is not None:
                return found.end()
        raise _Unexpected("a field holds an array this reader does not expect")
    found = _SCALAR.match(body, start)
    if found is None:
        raise _Unexpected("a field holds a value this reader does not expect")
    return found.end()


def _read(body: bytes, max_rows: int, max_features: int) -> Upload:
    spans = _spans(body)
    if "features" not in spans:
        raise _Unexpected("features are missing")
    features = _matrix(body, *spans["features"], max_rows, max_features)
    n = features.shape[0]
    labels = _labels(body[slice(*spans["labels"])], n) if "labels" in spans else None
    others = {key: _decoded(body[slice(*spans[key])], key, max_rows) for key in ("groups", "ids", "name")
              if key in spans}
    fields = _validated(_Fields, others)
    unknown = next((key for key in spans if key not in DatasetCreate.model_fields), None)
    return Upload(features, fields.groups, labels, fields.ids, fields.name, unknown)


def _matrix(body: bytes, start: int, end: int, max_rows: int, max_features: int) -> np.ndarray:
    """Rows of plain numbers as a matrix; row count, width and shape checked before parsing.

    The span matched :data:`_MATRIX`, so rows hold no bracket and each ``[`` but the
    outer one opens a row.
    """
    loc: list[str | int] = ["body", "features"]
    n = body.count(b"[", start, end) - 1
    if n == 0:
        raise _Unexpected("features hold no rows")
    if n > max_rows:
        raise InvalidInput(f"has {n} rows; the limit is {max_rows} (FAIRACQ_MAX_ROWS)", loc)
    rows = [part[:part.index(b"]")] for part in body[start + 1:end - 1].split(b"[")[1:]]
    widths = [row.count(b",") + 1 if row.strip(_BLANKS) else 0 for row in rows]
    d = widths[0]
    if d == 0:
        raise InvalidInput("rows must have at least one feature", loc)
    if d > max_features:
        raise InvalidInput(f"has {d} features; the limit is {max_features} (FAIRACQ_MAX_FEATURES)", loc)
    for i, width in enumerate(widths):
        if width != d:
            raise InvalidInput(f"has {width} values but row 0 has {d}; rows must be equal length", [*loc, i])
    matrix = np.empty((n, d))
    for first in range(0, n, PARSE_ROWS):
        block = rows[first:first + PARSE_ROWS]
        matrix[first:first + len(block)] = _numbers(block, loc, first).reshape(len(block), d)
    return matrix


def _numbers(rows: list[bytes], loc: list[str | int], first_row: int | None = None) -> np.ndarray:
    """Comma-separated plain JSON numbers (each row of ``rows``) as one float array, row after row;
    ``rows`` are a matrix's from ``first_row`` on, or (None) one list's."""
    text = b"[" + b",".join(rows) + b"]"
    if text.translate(None, _NUMERIC):
        raise _Unexpected("numbers are expected where there is something else")
    try:  # strict JSON numbers: no NaN, Infinity, leading zeros or dangling exponents
        values = pydantic_core.from_json(text, allow_inf_nan=False)
    except ValueError:
        raise _Unexpected("numbers are expected where there is something else") from None
    try:
        return np.asarray(values, dtype=float)
    except OverflowError:  # an integer literal beyond float's range: say which (rare, so found again slowly)
        huge = ((i, j) for i, row in enumerate(rows)
                for j, value in enumerate(pydantic_core.from_json(b"[" + row + b"]"))
                if isinstance(value, int) and abs(value) > FLOAT_INTEGER_MAX)
        i, j = next(huge, (0, 0))
        where = [*loc, j] if first_row is None else [*loc, first_row + i, j]
        raise InvalidInput("must be a finite number (NaN and infinity are not allowed)", where) from None


def _labels(text: bytes, n: int) -> np.ndarray | None:
    """One plain number per row; ``null`` for none."""
    if text == b"null":
        return None
    if _FLAT.fullmatch(text) is None:
        raise _Unexpected("labels are not a list of numbers")
    inner = text[1:-1]
    count = inner.count(b",") + 1 if inner.strip(_BLANKS) else 0
    if count != n:
        raise InvalidInput(f"has {count} values; expected {n} (one per row of features)", ["body", "labels"])
    labels = _numbers([inner], ["body", "labels"])
    bad = np.flatnonzero(~np.isfinite(labels))
    if bad.size:
        raise InvalidInput("must be a finite number (NaN and infinity are not allowed)",
                         ["body", "labels", int(bad[0])])
    return labels


def _decoded(text: bytes, key: str, max_rows: int) -> Any:
    """A field's JSON value; a list is decoded only once it is known to hold at most ``max_rows`` values."""
    if text.startswith(b"[") and text.count(b",") >= max_rows:  # commas inside strings count too: look closer
        for count, _ in enumerate(_SCALAR.finditer(text), start=1):
            if count > max_rows:
                raise InvalidInput(f"has more than {max_rows} values (FAIRACQ_MAX_ROWS)", ["body", key])
    try:
        return json.loads(text)
    except ValueError:
        raise _Unexpected("the body is not valid JSON") from None
