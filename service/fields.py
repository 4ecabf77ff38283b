"""Field types every request schema shares: numbers that fit their storage, text that can be stored.

Integers are bounded by what stores them, never more than int64 (PostgreSQL ``bigint``,
numpy ``int64`` arrays, SQLite integers); a value beyond is a 422 naming the field, not
an ``OverflowError`` deep in numpy or the driver. The bounds chosen, and why:

* :data:`Int64` — identifiers and codes given as integers (groups, labels, partition and
  candidate ids, learner hyperparameters), and epoch numbers (a client may number epochs
  by a timestamp): whatever fits a signed 64-bit integer.
* :data:`IntId` — integer ids kept as their text (candidate and partition ids): any 64-bit
  integer, signed or unsigned, since ids are often unsigned 64-bit hashes.
* :data:`Count` — counts of examples or items (cell counts, partition sizes, samples
  acquired): at most 10^12, so that a sum over a session's cells (4,096 at most: 64
  labels × 64 groups) stays below 2^53 and is exact both as int64 and as float64.
* :data:`Seed` — random seeds, non-negative int64.

Numbers are finite (:data:`FiniteFloat`): JSON has no infinity, but ``1e400`` overflows to
one and Python's JSON reader takes ``Infinity`` and ``NaN``.

Text (:data:`Text`) must be storable: no NUL character (PostgreSQL text refuses it, C
libraries cut strings there) and no lone UTF-16 surrogate (``"\\ud800"`` is valid JSON
but no UTF-8 text, so it could be neither stored nor sent back). The JSON schema says so
with a pattern, and the check runs in Python with messages that say what to fix.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictFloat, StrictInt, StrictStr, WithJsonSchema
from pydantic_core import PydanticCustomError

__all__ = ["COUNT_MAX", "INT64_MAX", "INT64_MIN", "MAX_NAME_LENGTH", "UINT64_MAX", "Count", "FiniteFloat", "Int64",
           "IntId", "Name", "RequestModel", "STORABLE", "Scalar", "Seed", "Text", "TextOrInt", "bounded_text",
           "check_text", "exactly_one"]

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
UINT64_MAX = 2**64 - 1
# 4,096 cells × 10^12 < 2^53: sums of counts are exact in int64 and float64 alike.
COUNT_MAX = 10**12


class RequestModel(BaseModel):
    """The base of every request body and its parts: an unknown field is a 422 naming it, never ignored."""

    model_config = ConfigDict(extra="forbid")


def exactly_one(first: object, second: object, message: str) -> None:
    """For a model validator: refuse a request that sends both of two alternatives, or neither (422, ``message``)."""
    if (first is None) == (second is None):
        raise ValueError(message)


# JSON Schema's regular expressions are ECMA-262: \u0000 is the NUL character.
TEXT_PATTERN = "^[^\\u0000]*$"
# Names and codes (groups, labels, ids, session names) are at most this long: they are stored in
# 200-character columns, and a table of them is as wide as its longest one.
MAX_NAME_LENGTH = 200
_TEXT_SCHEMA = {"type": "string", "maxLength": MAX_NAME_LENGTH, "pattern": TEXT_PATTERN}
_INT64_SCHEMA = {"type": "integer", "minimum": INT64_MIN, "maximum": INT64_MAX}


def check_text(value: str) -> str:
    """``value`` unchanged; a 422 error when it holds a NUL character or a lone surrogate."""
    if "\x00" in value:
        raise PydanticCustomError("text_nul", "must not contain the NUL character (\\u0000)")
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise PydanticCustomError(
                "text_surrogate", "must be valid Unicode text: a lone surrogate (\\ud800-\\udfff) is not a character"
            ) from None
    return value


def _check_scalar(value: Any) -> Any:
    """A name or code of a union: text of at most :data:`MAX_NAME_LENGTH`, an :data:`Int64`, a finite float."""
    if isinstance(value, str):
        if len(value) > MAX_NAME_LENGTH:
            raise PydanticCustomError("string_too_long", f"must be at most {MAX_NAME_LENGTH} characters")
        return check_text(value)
    if isinstance(value, int) and not isinstance(value, bool) and not INT64_MIN <= value <= INT64_MAX:
        raise PydanticCustomError("int64", "must be an integer from -2^63 to 2^63 - 1 (it is stored as int64)")
    if isinstance(value, float) and not math.isfinite(value):
        raise PydanticCustomError("finite_number", "must be a finite number (NaN and infinity are not allowed)")
    return value


Int64 = Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]
IntId = Annotated[int, Field(ge=INT64_MIN, le=UINT64_MAX)]
Count = Annotated[int, Field(ge=0, le=COUNT_MAX)]
Seed = Annotated[int, Field(ge=0, le=INT64_MAX)]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]


# What makes text storable, to follow a length range (checked first, so its message is pydantic's
# for strings): ``Annotated[str, Field(max_length=100), *STORABLE]`` is :data:`Text` of at most 100.
STORABLE = (AfterValidator(check_text), Field(json_schema_extra={"pattern": TEXT_PATTERN}))
Text = Annotated[str, *STORABLE]
Name = Annotated[str, Field(max_length=MAX_NAME_LENGTH), *STORABLE]


def bounded_text(*, min_length: int | None = None, max_length: int | None = None) -> Any:
    """:data:`Text` with a length range, built at run time. mypy takes no call as a type: write
    ``Annotated[str, Field(min_length=..., max_length=...), *STORABLE]``, the same type, instead."""
    return Annotated[str, Field(min_length=min_length, max_length=max_length), *STORABLE]
# Unions are checked as a whole, so that an error is located at the field, not at a union branch.
TextOrInt = Annotated[str | int, AfterValidator(_check_scalar),
                      WithJsonSchema({"anyOf": [_TEXT_SCHEMA, _INT64_SCHEMA]})]
Scalar = Annotated[StrictStr | StrictInt | StrictFloat, AfterValidator(_check_scalar),
                   WithJsonSchema({"anyOf": [_TEXT_SCHEMA, _INT64_SCHEMA, {"type": "number"}]})]
