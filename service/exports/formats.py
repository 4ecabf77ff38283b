"""Encoders: rows in, the file's bytes out a bounded piece at a time (CSV, JSON Lines, Parquet).

A decision log's CSV and JSON Lines are the dashboard's (:mod:`service.sessions.export`: its
columns, its formula-neutralised cells). Parquet is written with pyarrow's ``ParquetWriter``
into a sink this module drains after every row group of :data:`ROW_GROUP_ROWS` rows, so no
more than one row group is held, whatever the size of the file; request and response are
columns of their stored JSON text, ``created_at`` a UTC timestamp in microseconds.

A dataset's rows are its columns as stored: the ids (if any), one column per feature (its
name), the group and the label; a special column whose name a feature already has gets
underscores after it. In CSV, a number we format is a number (``-1.5`` stays as it is); the
text cells (header, ids, groups) are neutralised as the log's are.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from service.datasets.service import DatasetArrays
from service.sessions import export

__all__ = ["DATASET_SLICE", "LOG_SCHEMA", "ROW_GROUP_ROWS", "dataset_chunks", "dataset_columns", "log_chunks"]

ROW_GROUP_ROWS = 20_000  # a log's row group: ~6 MB of Python objects before it is encoded (50,000 peaked at 287 MB)
DATASET_SLICE = 10_000  # dataset rows encoded at a time
COMPRESSION = "zstd"
LOG_SCHEMA = pa.schema([
    ("sequence", pa.int64()), ("id", pa.string()), ("kind", pa.string()), ("client_ref", pa.string()),
    ("state_version", pa.int64()), ("key_id", pa.string()), ("created_at", pa.timestamp("us", tz="UTC")),
    ("request", pa.string()), ("response", pa.string()),
])


class _Sink(io.RawIOBase):
    """What pyarrow writes, held until drained (a row group's encoded bytes at most)."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []
        self._position = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        part = bytes(data)
        self._parts.append(part)
        self._position += len(part)
        return len(part)

    def tell(self) -> int:
        return self._position

    def drain(self) -> bytes:
        out = b"".join(self._parts)
        self._parts.clear()
        return out


def _parquet(schema: pa.Schema, batches: Iterable[dict[str, list[Any]]]) -> Iterator[bytes]:
    sink = _Sink()
    writer = pq.ParquetWriter(sink, schema, compression=COMPRESSION)
    pending: list[pa.RecordBatch] = []
    count = 0
    try:
        for batch in batches:
            pending.append(pa.RecordBatch.from_pydict(batch, schema=schema))
            count += pending[-1].num_rows
            if count >= ROW_GROUP_ROWS:
                writer.write_table(pa.Table.from_batches(pending, schema=schema), row_group_size=count)
                pending, count = [], 0
                yield sink.drain()
        if pending:
            writer.write_table(pa.Table.from_batches(pending, schema=schema), row_group_size=count)
    finally:
        writer.close()
    yield sink.drain()


def _compact(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _log_batch(page: list[export.LogEntry]) -> dict[str, list[Any]]:
    return {
        "sequence": [item.sequence for item in page], "id": [str(item.id) for item in page],
        "kind": [item.kind for item in page], "client_ref": [item.client_ref for item in page],
        "state_version": [item.state_version for item in page],
        "key_id": [None if item.key_id is None else str(item.key_id) for item in page],
        "created_at": [item.created_at for item in page],
        "request": [item.request for item in page], "response": [item.response for item in page],
    }


def log_chunks(fmt: str, pages: Iterator[list[export.LogEntry]]) -> Iterator[bytes]:
    """A decision log's file, a page (CSV, JSON Lines) or a row group (Parquet) at a time."""
    if fmt == "parquet":
        yield from _parquet(LOG_SCHEMA, (_log_batch(page) for page in pages))
        return
    text = export.csv_chunks(pages) if fmt == "csv" else export.jsonl_chunks(pages)
    for chunk in text:
        yield chunk.encode("utf-8")


def _unique(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def dataset_columns(table: DatasetArrays) -> list[str]:
    """The file's column names: ``id``, the features, ``group``, ``label`` (those the dataset has)."""
    taken = set(table.feature_names)
    names = [_unique("id", taken)] if table.ids is not None else []
    names += table.feature_names
    if table.group_codes is not None:
        names.append(_unique("group", taken))
    if table.labels is not None:
        names.append(_unique("label", taken))
    return names


def _dataset_batch(table: DatasetArrays, start: int, stop: int, group_values: list[Any] | None) -> list[list[Any]]:
    """The columns of rows ``start:stop``, as Python values."""
    columns: list[list[Any]] = []
    if table.ids is not None:
        columns.append(table.ids[start:stop])
    columns.extend(table.features[start:stop].T.tolist())
    if table.group_codes is not None and group_values is not None:
        columns.append([group_values[code] for code in table.group_codes[start:stop].tolist()])
    if table.labels is not None:
        columns.append(table.labels[start:stop].tolist())
    return columns


def _group_type(values: list[Any] | None) -> pa.DataType:
    return pa.int64() if values and all(isinstance(v, int) for v in values) else pa.string()


def dataset_chunks(fmt: str, table: DatasetArrays) -> Iterator[bytes]:
    """A dataset's file, :data:`DATASET_SLICE` rows at a time."""
    names = dataset_columns(table)
    group_values = table.group_values
    if group_values is not None and _group_type(group_values) == pa.string():
        group_values = [str(v) for v in group_values]
    slices = ((start, min(start + DATASET_SLICE, table.n_rows)) for start in range(0, table.n_rows, DATASET_SLICE))
    if fmt == "parquet":
        types = ([pa.string()] if table.ids is not None else []) + [pa.float64()] * len(table.feature_names)
        types += [_group_type(group_values)] if table.group_codes is not None else []
        types += [pa.float64()] if table.labels is not None else []
        schema = pa.schema(list(zip(names, types, strict=True)))
        batches = ({n: c for n, c in zip(names, _dataset_batch(table, a, b, group_values), strict=True)}
                   for a, b in slices)
        yield from _parquet(schema, batches)
        return
    # Cells we format from numbers (features, labels, integer groups) are numbers, never formulas.
    first = 1 if table.ids is not None else 0
    numeric = set(range(first, first + len(table.feature_names)))
    if table.group_codes is not None and _group_type(group_values) == pa.int64():
        numeric.add(first + len(table.feature_names))
    if table.labels is not None:
        numeric.add(len(names) - 1)
    if fmt == "csv":
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerow([export.csv_cell(n) for n in names])
        yield buffer.getvalue().encode("utf-8")
    for a, b in slices:
        rows = list(zip(*_dataset_batch(table, a, b, group_values), strict=True))
        if fmt == "jsonl":
            yield "".join(_compact(dict(zip(names, row, strict=True))) + "\n" for row in rows).encode("utf-8")
            continue
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerows([repr(v) if j in numeric else export.csv_cell(str(v)) for j, v in enumerate(row)]
                         for row in rows)
        yield buffer.getvalue().encode("utf-8")

