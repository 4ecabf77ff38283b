"""``/v1/datasets``: upload (JSON, or CSV as a multipart form or a raw body), read, list, delete."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Header, Query, Response, status

from service.api import LimitQuery, RawBody, parse_cursor, resource_router
from service.auth import TenantDep
from service.datasets import service
from service.datasets.repository import DatasetRepository
from service.datasets.schemas import DatasetCreate, DatasetCsvUpload, DatasetList, DatasetOut
from service.datasets.uploads import csv_query_options, read_csv_form
from service.db import SessionDep
from service.errors import UnsupportedMediaType
from service.fields import Name, Text
from service.media import is_json, media_type
from service.openapi import component_of
from service.pages import page, readable
from service.settings import SettingsDep

router = resource_router("/datasets", "datasets")
WHAT = "dataset"


# The body is read raw (JSON, a multipart form or CSV), so FastAPI registers neither body
# schema: they are named components (service.openapi.component_of). A raw text/csv body, as
# curl sends it, is left out of the document: generated clients cannot model it (the
# multipart form is their way to send a CSV file), and its options are query parameters.
_UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": component_of(DatasetCreate)},
            "multipart/form-data": {"schema": component_of(DatasetCsvUpload)},
        },
    }
}
_CSV_ONLY = "a raw text/csv body only (a multipart form has these as fields)"
CsvOption = Annotated[Text | None, Query(include_in_schema=False, description=_CSV_ONLY)]


@router.post(
    "", status_code=status.HTTP_201_CREATED, operation_id="create_dataset", response_model=DatasetOut,
    openapi_extra=_UPLOAD_BODY, responses={415: {"description": "not JSON, a multipart form or CSV"}},
)
def create_dataset(
    db: SessionDep, tenant: TenantDep, settings: SettingsDep, response: Response, body: RawBody,
    # OpenAPI ignores a Content-Type header parameter (the body's media types say it), and
    # generated clients would otherwise send the header twice.
    content_type: Annotated[str, Header(include_in_schema=False)] = "application/json",
    name: Annotated[Name | None, Query(include_in_schema=False)] = None,
    group_column: CsvOption = None, label_column: CsvOption = None, id_column: CsvOption = None,
    feature_columns: CsvOption = None,
) -> DatasetOut:
    """Upload a dataset: JSON, or a CSV file as a multipart form (``file`` and the column options) or
    as a raw ``text/csv`` body with the options in the query (categorical columns are one-hot encoded)."""
    media = media_type(content_type)
    if media == "multipart/form-data":
        csv, options = read_csv_form(content_type, body)
    elif media == "text/csv":
        csv, options = body, csv_query_options(name, group_column, label_column, id_column, feature_columns)
    elif is_json(content_type) or media == "":
        csv, options = None, None
    else:
        raise UnsupportedMediaType(f"send application/json, multipart/form-data or text/csv, not {media}")
    if csv is None or options is None:
        dataset = service.create_dataset_from_json(db, tenant.id, body, settings)
    else:
        dataset = service.create_dataset_from_csv(
            db, tenant.id, csv, settings, name=options.name, group_column=options.group_column,
            label_column=options.label_column, id_column=options.id_column, feature_columns=options.columns(),
        )
    response.headers["Location"] = f"/v1/datasets/{dataset.id}"
    return DatasetOut.model_validate(dataset)


@router.get("", operation_id="list_datasets")
def list_datasets(db: SessionDep, tenant: TenantDep, limit: LimitQuery = 50,
                  cursor: str | None = None) -> DatasetList:
    """List datasets, oldest first."""
    rows = DatasetRepository(db, tenant.id).list(limit, parse_cursor(cursor))
    return DatasetList(**page(rows, limit, WHAT, DatasetOut.model_validate))


@router.get("/{dataset_id}", operation_id="get_dataset")
def get_dataset(dataset_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> DatasetOut:
    """Read a dataset's metadata."""
    dataset = DatasetRepository(db, tenant.id).get(dataset_id)
    return readable(dataset, WHAT, lambda: DatasetOut.model_validate(dataset))


@router.delete("/{dataset_id}", status_code=status.HTTP_204_NO_CONTENT, operation_id="delete_dataset",
               responses={409: {"description": "a session uses the dataset"}})
def delete_dataset(dataset_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> Response:
    """Delete a dataset no session uses."""
    service.delete_dataset(db, tenant.id, dataset_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
