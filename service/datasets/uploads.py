"""A CSV upload's file and options, from a multipart form or from a raw body's query parameters."""

from __future__ import annotations

from typing import Any

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from service.datasets.schemas import DatasetCsvOptions
from service.errors import UNKNOWN_FIELD, InvalidInput
from service.media import parse_form

__all__ = ["csv_query_options", "read_csv_form"]

FILE_FIELD = "file"


def _options(values: dict[str, Any], where: str) -> DatasetCsvOptions:
    try:
        return DatasetCsvOptions.model_validate(values)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": (where, *e["loc"])} for e in exc.errors()]) from None


def read_csv_form(content_type: str, body: bytes) -> tuple[bytes, DatasetCsvOptions]:
    """The CSV file and the options of a ``multipart/form-data`` upload; an unknown field is a 422."""
    fields = parse_form(content_type, body)
    for name in fields:
        if name != FILE_FIELD and name not in DatasetCsvOptions.model_fields:
            raise InvalidInput(UNKNOWN_FIELD, ["body", name])
    file = fields.pop(FILE_FIELD, None)
    if file is None:
        raise InvalidInput("a CSV upload needs its file in the form field `file`", ["body", FILE_FIELD])
    return file.data, _options({name: part.text(name) for name, part in fields.items()}, "body")


def csv_query_options(name: str | None, group_column: str | None, label_column: str | None,
                      id_column: str | None, feature_columns: str | None) -> DatasetCsvOptions:
    """The options of a raw ``text/csv`` upload (query parameters, already validated by FastAPI)."""
    return DatasetCsvOptions(name=name, group_column=group_column, label_column=label_column, id_column=id_column,
                             feature_columns=feature_columns)
