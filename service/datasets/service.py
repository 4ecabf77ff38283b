"""Dataset use cases, and the loader other resources call for a ``*_dataset_id`` or inline data."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from service import arrays
from service.algorithms.validation import ambiguous_text_message, as_matrix, same_text
from service.datasets.encoding import find_nul, parse_csv
from service.datasets.json_upload import read_json_upload
from service.datasets.models import Dataset
from service.datasets.repository import DatasetRepository
from service.datasets.schemas import DatasetCreate, InlineData
from service.errors import InUse, InvalidInput
from service.quotas import check_stored_bytes
from service.settings import Settings

__all__ = ["DatasetArrays", "bounded_matrix", "create_dataset", "create_dataset_from_csv", "create_dataset_from_json",
           "delete_dataset", "load_arrays", "resolve_data", "table_from_inline"]

# Label sets larger than this are reported as continuous (no ``label_values``).
MAX_REPORTED_LABELS = 100
# The fewest bytes a value takes in a JSON upload ("0,"): a table may hold no more values than
# a JSON body at FAIRACQ_MAX_BODY_BYTES could, however compact its CSV (one-hot columns).
BYTES_PER_JSON_VALUE = 2


def max_values(settings: Settings) -> int:
    """The most values (rows × features) one table may hold: 32 Mi at the default 64 MiB body limit."""
    return settings.max_body_bytes // BYTES_PER_JSON_VALUE


@dataclass
class DatasetArrays:
    """A validated table: ``group_codes`` index into ``group_values``."""

    features: np.ndarray
    group_codes: np.ndarray | None
    group_values: list[Any] | None
    labels: np.ndarray | None
    ids: list[str] | None
    feature_names: list[str]

    @property
    def n_rows(self) -> int:
        return int(self.features.shape[0])

    def groups(self) -> np.ndarray | None:
        """Group values per row, as given (strings or integers)."""
        if self.group_codes is None or self.group_values is None:
            return None
        return np.asarray(self.group_values, dtype=object)[self.group_codes]


def _sorted_values(values: set[Any]) -> list[Any]:
    return sorted(values, key=lambda v: (isinstance(v, str), v if not isinstance(v, str) else 0, str(v)))


def bounded_matrix(features: Any, settings: Settings, loc: tuple[str, ...] = ()) -> np.ndarray:
    """``features`` as a matrix of at most FAIRACQ_MAX_ROWS rows and FAIRACQ_MAX_FEATURES columns
    (a 422 at ``loc`` + ``features`` otherwise)."""
    matrix = as_matrix(features, (*loc, "features"))
    n, d = matrix.shape
    if n > settings.max_rows:
        raise InvalidInput(f"has {n} rows; the limit is {settings.max_rows} (FAIRACQ_MAX_ROWS)", (*loc, "features"))
    if d > settings.max_features:
        raise InvalidInput(f"has {d} features; the limit is {settings.max_features} (FAIRACQ_MAX_FEATURES)",
                         (*loc, "features"))
    return matrix


def build_table(
    features: Any, groups: list[Any] | None, labels: list[float] | None, ids: list[str] | None,
    settings: Settings, *, feature_names: list[str] | None = None, loc: tuple[str, ...] = (),
) -> DatasetArrays:
    """Validate a table against shapes and the configured limits."""
    matrix = bounded_matrix(features, settings, loc)
    n, d = matrix.shape
    codes = values = None
    if groups is not None:
        if len(groups) != n:
            raise InvalidInput(f"has {len(groups)} values; expected {n} (one per row of features)",
                             (*loc, "groups"))
        values = _sorted_values(set(groups))
        if len(values) > settings.max_groups:
            raise InvalidInput(f"has {len(values)} distinct groups; the limit is {settings.max_groups}",
                             (*loc, "groups"))
        ambiguous = same_text(values)
        if ambiguous is not None:
            raise InvalidInput(ambiguous_text_message(ambiguous), (*loc, "groups"))
        lookup = {v: i for i, v in enumerate(values)}
        codes = np.fromiter((lookup[g] for g in groups), dtype=np.int32, count=n)
    label_array = None
    if labels is not None:
        if len(labels) != n:
            raise InvalidInput(f"has {len(labels)} values; expected {n} (one per row of features)",
                             (*loc, "labels"))
        label_array = np.asarray(labels, dtype=float)
    if ids is not None:
        if len(ids) != n:
            raise InvalidInput(f"has {len(ids)} values; expected {n} (one per row of features)", (*loc, "ids"))
        if len(set(ids)) != n:
            raise InvalidInput("ids must be unique", (*loc, "ids"))
    names = feature_names or [f"x{j}" for j in range(d)]
    return DatasetArrays(matrix, codes, values, label_array, ids, names)


def table_from_inline(data: InlineData, settings: Settings, loc: tuple[str, ...] = ()) -> DatasetArrays:
    return build_table(data.features, data.groups, data.labels, data.ids, settings, loc=loc)


def _store(db: Session, tenant_id: uuid.UUID, table: DatasetArrays, name: str | None,
           encoding: dict[str, Any] | None, settings: Settings) -> Dataset:
    """Pack and store a validated table: its first query (the quota) comes after all the parsing."""
    packed: dict[str, np.ndarray] = {"features": table.features}
    if table.group_codes is not None:
        packed["group_codes"] = table.group_codes
    if table.labels is not None:
        packed["labels"] = table.labels
    if table.ids is not None:
        packed["ids"] = np.asarray(table.ids, dtype=str)
    label_values = None
    if table.labels is not None:
        distinct = np.unique(table.labels)
        if len(distinct) <= MAX_REPORTED_LABELS:
            label_values = [int(v) if float(v).is_integer() else float(v) for v in distinct]
    dataset = Dataset(
        name=name, n_rows=table.n_rows, n_features=int(table.features.shape[1]),
        feature_names=table.feature_names, group_values=table.group_values, label_values=label_values,
        has_ids=table.ids is not None, encoding=encoding, arrays=arrays.pack(packed),
    )
    check_stored_bytes(db, tenant_id, len(dataset.arrays), settings.max_stored_bytes)
    return DatasetRepository(db, tenant_id).add(dataset)


def create_dataset(db: Session, tenant_id: uuid.UUID, payload: DatasetCreate, settings: Settings) -> Dataset:
    return _store(db, tenant_id, table_from_inline(payload, settings, ("body",)), payload.name, None, settings)


def create_dataset_from_json(db: Session, tenant_id: uuid.UUID, body: bytes, settings: Settings) -> Dataset:
    """A JSON upload, read by :mod:`.json_upload` (limits first, no Python object per number)."""
    upload = read_json_upload(body, max_rows=settings.max_rows, max_features=settings.max_features)
    table = build_table(upload.features, upload.groups, upload.labels, upload.ids, settings, loc=("body",))
    upload.refuse_unknown()
    return _store(db, tenant_id, table, upload.name, None, settings)


def create_dataset_from_csv(
    db: Session, tenant_id: uuid.UUID, body: bytes, settings: Settings, *, name: str | None,
    group_column: str | None, label_column: str | None, id_column: str | None,
    feature_columns: list[str] | None,
) -> Dataset:
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput("the CSV must be UTF-8 text", ["body"]) from None
    line = find_nul(text)
    if line is not None:
        raise InvalidInput(f"the CSV has a NUL character (\\u0000) on line {line}; text may not contain it",
                         ["body", f"line {line}"])
    parsed = parse_csv(text, group_column=group_column, label_column=label_column, id_column=id_column,
                       feature_columns=feature_columns, max_rows=settings.max_rows,
                       max_features=settings.max_features, max_values=max_values(settings))
    table = build_table(parsed.features, parsed.groups, parsed.labels, parsed.ids, settings,
                        feature_names=parsed.feature_names)
    return _store(db, tenant_id, table, name, parsed.encoding, settings)


def delete_dataset(db: Session, tenant_id: uuid.UUID, dataset_id: uuid.UUID) -> None:
    repository = DatasetRepository(db, tenant_id)
    dataset = repository.get(dataset_id)
    if repository.in_use(dataset_id):
        raise InUse(f"dataset {dataset_id} is used by a session; delete or finish that first")
    repository.delete(dataset)


def load_arrays(db: Session, tenant_id: uuid.UUID, dataset_id: uuid.UUID) -> DatasetArrays:
    dataset = DatasetRepository(db, tenant_id).get_with_arrays(dataset_id)
    stored = arrays.unpack(dataset.arrays)
    return DatasetArrays(
        features=stored["features"],
        group_codes=stored.get("group_codes"),
        group_values=dataset.group_values,
        labels=stored.get("labels"),
        ids=stored["ids"].tolist() if "ids" in stored else None,
        feature_names=list(dataset.feature_names),
    )


def resolve_data(
    db: Session, tenant_id: uuid.UUID, settings: Settings, *, dataset_id: uuid.UUID | None,
    inline: InlineData | None, loc: str, require: tuple[str, ...] = (),
) -> DatasetArrays:
    """The table a request names by ``<loc>_dataset_id`` or sends inline as ``<loc>``."""
    if dataset_id is not None and inline is not None:
        raise InvalidInput(f"send either {loc}_dataset_id or {loc}, not both", [loc])
    if dataset_id is not None:
        table = load_arrays(db, tenant_id, dataset_id)
    elif inline is not None:
        table = table_from_inline(inline, settings, (loc,))
    else:
        raise InvalidInput(f"send {loc}_dataset_id or inline {loc}", [loc])
    for field in require:
        if field == "groups" and table.group_codes is None:
            raise InvalidInput("this table needs groups", [loc, "groups"])
        if field == "labels" and table.labels is None:
            raise InvalidInput("this table needs labels", [loc, "labels"])
    return table
