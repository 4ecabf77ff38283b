"""``/v1/datasets``: upload (JSON or CSV), read, list, delete."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Header, Query, Response, status

from service.api import LimitQuery, RawBody, parse_cursor, resource_router
from service.auth import TenantDep
from service.datasets import service
from service.datasets.repository import DatasetRepository
from service.datasets.schemas import DatasetCreate, DatasetList, DatasetOut
from service.db import SessionDep
from service.errors import ServiceError
from service.fields import Name, Text
from service.pages import page, readable
from service.settings import SettingsDep

router = resource_router("/datasets", "datasets")
WHAT = "dataset"


class UnsupportedMediaType(ServiceError):
    status, title, slug = 415, "Unsupported media type", "unsupported-media-type"


# The body is read raw (JSON or CSV), so FastAPI never registers DatasetCreate as a
# component: its schema is inlined (it has no $defs) rather than referenced.
_UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": DatasetCreate.model_json_schema()},
            "text/csv": {"schema": {"type": "string", "description": "CSV with a header row"}},
        },
    }
}


@router.post(
    "", status_code=status.HTTP_201_CREATED, operation_id="create_dataset", response_model=DatasetOut,
    openapi_extra=_UPLOAD_BODY, responses={415: {"description": "neither JSON nor CSV"}},
)
def create_dataset(
    db: SessionDep, tenant: TenantDep, settings: SettingsDep, response: Response, body: RawBody,
    # OpenAPI ignores a Content-Type header parameter (the body's media types say it), and
    # generated clients would otherwise send the header twice.
    content_type: Annotated[str, Header(include_in_schema=False)] = "application/json",
    name: Annotated[Name | None, Query(description="CSV only")] = None,
    group_column: Annotated[Text | None, Query(description="CSV only")] = None,
    label_column: Annotated[Text | None, Query(description="CSV only")] = None,
    id_column: Annotated[Text | None, Query(description="CSV only")] = None,
    feature_columns: Annotated[Text | None, Query(description="CSV only: comma-separated names")] = None,
) -> DatasetOut:
    """Upload a dataset as JSON or as CSV (categorical columns are one-hot encoded)."""
    media = content_type.split(";")[0].strip().lower()
    if media == "text/csv":
        columns = [c.strip() for c in feature_columns.split(",") if c.strip()] if feature_columns else None
        dataset = service.create_dataset_from_csv(
            db, tenant.id, body, settings, name=name, group_column=group_column,
            label_column=label_column, id_column=id_column, feature_columns=columns,
        )
    elif media in ("application/json", ""):
        dataset = service.create_dataset_from_json(db, tenant.id, body, settings)
    else:
        raise UnsupportedMediaType(f"send application/json or text/csv, not {media}")
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
