"""CSV upload: parse, pick columns, one-hot encode categorical columns, report the encoding."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.algorithms.validation import InputError

__all__ = ["ParsedTable", "parse_csv"]

# Above this many categories a column is almost surely an identifier, not a feature.
MAX_CATEGORIES = 1000


@dataclass
class ParsedTable:
    features: np.ndarray
    feature_names: list[str]
    groups: list[Any] | None
    labels: list[float] | None
    ids: list[str] | None
    encoding: dict[str, Any]


def _as_number(value: str) -> float | None:
    try:
        number = float(value)
    except ValueError:
        return None
    return number if np.isfinite(number) else None


def _number_or_text(value: str) -> int | str:
    try:
        return int(value)
    except ValueError:
        return value


def _records(reader: Any, max_rows: int) -> tuple[list[str], list[list[str]]]:
    """The header and the non-blank rows, checked for shape and count."""
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputError("the CSV is empty; send a header row and at least one data row", ["body"]) from None
    if len(set(header)) != len(header):
        raise InputError("the header repeats a column name", ["body", "header"])
    rows = []
    for line_no, row in enumerate(reader, start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InputError(f"line {line_no} has {len(row)} fields; the header has {len(header)}",
                             ["body", f"line {line_no}"])
        rows.append([cell.strip() for cell in row])
        if len(rows) > max_rows:
            raise InputError(f"the CSV has more than {max_rows} rows (FAIRACQ_MAX_ROWS); split it",
                             ["body"])
    return header, rows


def parse_csv(
    text: str,
    *,
    group_column: str | None,
    label_column: str | None,
    id_column: str | None,
    feature_columns: list[str] | None,
    max_rows: int,
) -> ParsedTable:
    # newline="": the csv module itself splits records, so a bare \r or a quoted newline is read right.
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header, rows = _records(reader, max_rows)
    except csv.Error as exc:  # a field over the csv module's size limit, a stray quote, …
        raise InputError(f"the CSV is malformed at line {reader.line_num}: {exc}", ["body"]) from None
    if not rows:
        raise InputError("the CSV has a header but no data rows", ["body"])
    columns = {name: [r[i] for r in rows] for i, name in enumerate(header)}
    for param, name in (("group_column", group_column), ("label_column", label_column),
                        ("id_column", id_column)):
        if name is not None and name not in columns:
            raise InputError(f"column {name!r} is not in the CSV header {header}", ["query", param])
    special = {c for c in (group_column, label_column, id_column) if c}
    chosen = feature_columns or [c for c in header if c not in special]
    for name in chosen:
        if name not in columns:
            raise InputError(f"feature column {name!r} is not in the CSV header {header}",
                             ["query", "feature_columns"])
        if name in special:
            raise InputError(f"column {name!r} cannot be both a feature and the group/label/id column",
                             ["query", "feature_columns"])
    if not chosen:
        raise InputError("no feature columns are left; name them in feature_columns", ["query"])

    blocks, names, encoded = [], [], []
    for name in chosen:
        values = columns[name]
        for i, value in enumerate(values):
            if value == "":
                raise InputError(f"column {name!r} is empty on data row {i + 1}; fill or drop missing values",
                                 ["body", name, i])
        numbers = [_as_number(v) for v in values]
        if all(n is not None for n in numbers):
            blocks.append(np.asarray(numbers, dtype=float)[:, None])
            names.append(name)
            encoded.append({"name": name, "type": "numeric"})
            continue
        categories = sorted(set(values))
        if len(categories) > MAX_CATEGORIES:
            raise InputError(f"column {name!r} has {len(categories)} distinct text values; "
                             "leave identifiers out of feature_columns", ["query", "feature_columns"])
        lookup = {c: j for j, c in enumerate(categories)}
        one_hot = np.zeros((len(values), len(categories)))
        one_hot[np.arange(len(values)), [lookup[v] for v in values]] = 1.0
        blocks.append(one_hot)
        names += [f"{name}={c}" for c in categories]
        encoded.append({"name": name, "type": "categorical", "categories": categories})

    labels = None
    if label_column:
        parsed = [_as_number(v) for v in columns[label_column]]
        bad = next((i for i, n in enumerate(parsed) if n is None), None)
        if bad is not None:
            raise InputError(f"label {columns[label_column][bad]!r} on data row {bad + 1} is not a number",
                             ["body", label_column, bad])
        labels = [float(n) for n in parsed if n is not None]
    groups = [_number_or_text(v) for v in columns[group_column]] if group_column else None
    ids = columns[id_column] if id_column else None
    encoding = {"source": "csv", "columns": encoded, "group_column": group_column,
                "label_column": label_column, "id_column": id_column}
    return ParsedTable(np.hstack(blocks), names, groups, labels, ids, encoding)
