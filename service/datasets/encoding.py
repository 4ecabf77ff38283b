"""CSV upload: parse, pick columns, one-hot encode categorical columns, report the encoding.

The table's shape is known before its matrix exists: every chosen column is read and
classified first (numeric, or categorical with its categories), so the one-hot width is
counted and checked against the feature limit, and rows × width against the value limit,
before one matrix is allocated and filled column by column. (Building every one-hot block
first took 2-4.6 GB for 60,000 rows of three 1,000-value columns before the 422.)

Cells are text as written, with two readings:

* a feature cell is a number when every cell of its column is an ASCII decimal number;
  ``inf`` and ``nan`` there are a 422 naming the column and row, not a reason to treat
  the column as text;
* a group cell is an integer only when written as a canonical ASCII integer within int64
  (``0``, ``7``, ``-3``); any other spelling stays text exactly as written, so ``1``,
  ``01``, ``+1`` and ``١`` are four groups and never merge.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.errors import InvalidInput
from service.fields import INT64_MAX, INT64_MIN

__all__ = ["ParsedTable", "find_nul", "parse_csv"]

# Above this many categories a column is almost surely an identifier, not a feature.
MAX_CATEGORIES = 1000
# Integers as a group column writes them canonically: no sign but "-", no leading zero.
CANONICAL_INTEGER = re.compile(r"0|-?[1-9][0-9]{0,18}")


@dataclass
class ParsedTable:
    features: np.ndarray
    feature_names: list[str]
    groups: list[Any] | None
    labels: list[float] | None
    ids: list[str] | None
    encoding: dict[str, Any]


@dataclass
class _Column:
    """A chosen feature column, classified: its numbers, or its categories and each row's code."""

    name: str
    numbers: np.ndarray | None = None
    categories: list[str] | None = None
    codes: np.ndarray | None = None

    @property
    def width(self) -> int:
        return 1 if self.categories is None else len(self.categories)


def find_nul(text: str) -> int | None:
    """The line (from 1) of the first NUL character, if any: a NUL can be neither stored nor shown."""
    position = text.find("\x00")
    return None if position < 0 else text.count("\n", 0, position) + 1


def _as_number(value: str) -> float | None:
    """The number an ASCII decimal cell writes (``inf`` and ``nan`` included), else ``None``."""
    if not value.isascii() or "_" in value:  # float() also reads "١" and "1_000"
        return None
    try:
        return float(value)
    except ValueError:
        return None


def _group_value(value: str) -> int | str:
    if CANONICAL_INTEGER.fullmatch(value) and INT64_MIN <= (number := int(value)) <= INT64_MAX:
        return number
    return value


def _records(reader: Any, max_rows: int) -> tuple[list[str], list[list[str]]]:
    """The header and the non-blank rows, checked for shape and count."""
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InvalidInput("the CSV is empty; send a header row and at least one data row", ["body"]) from None
    if len(set(header)) != len(header):
        raise InvalidInput("the header repeats a column name", ["body", "header"])
    rows = []
    for line_no, row in enumerate(reader, start=2):
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InvalidInput(f"line {line_no} has {len(row)} fields; the header has {len(header)}",
                             ["body", f"line {line_no}"])
        rows.append([cell.strip() for cell in row])
        if len(rows) > max_rows:
            raise InvalidInput(f"the CSV has more than {max_rows} rows (FAIRACQ_MAX_ROWS); split it",
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
    max_features: int,
    max_values: int,
) -> ParsedTable:
    """The CSV's table; ``max_values`` bounds rows × encoded features (see the module docstring)."""
    # newline="": the csv module itself splits records, so a bare \r or a quoted newline is read right.
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header, rows = _records(reader, max_rows)
    except csv.Error as exc:  # a field over the csv module's size limit, a stray quote, …
        raise InvalidInput(f"the CSV is malformed at line {reader.line_num}: {exc}", ["body"]) from None
    if not rows:
        raise InvalidInput("the CSV has a header but no data rows", ["body"])
    position = {name: i for i, name in enumerate(header)}
    for param, name in (("group_column", group_column), ("label_column", label_column),
                        ("id_column", id_column)):
        if name is not None and name not in position:
            raise InvalidInput(f"column {name!r} is not in the CSV header {header}", ["query", param])
    special = {c for c in (group_column, label_column, id_column) if c}
    chosen = feature_columns or [c for c in header if c not in special]
    for name in chosen:
        if name not in position:
            raise InvalidInput(f"feature column {name!r} is not in the CSV header {header}",
                             ["query", "feature_columns"])
        if name in special:
            raise InvalidInput(f"column {name!r} cannot be both a feature and the group/label/id column",
                             ["query", "feature_columns"])
    if not chosen:
        raise InvalidInput("no feature columns are left; name them in feature_columns", ["query"])

    def column(name: str) -> list[str]:
        i = position[name]
        return [r[i] for r in rows]

    n = len(rows)
    encoded = []
    width = 0
    for name in chosen:
        encoded.append(_classify(name, column(name)))
        width += encoded[-1].width
        if width > max_features:
            raise InvalidInput(f"the chosen columns encode to more than {max_features} features (numeric columns "
                             "count one, text columns one per distinct value; FAIRACQ_MAX_FEATURES); leave "
                             "identifiers and free text out of feature_columns", ["query", "feature_columns"])
    if n * width > max_values:
        raise InvalidInput(f"{n} rows × {width} encoded features are {n * width} values; the limit is {max_values} "
                         "(what a JSON upload at FAIRACQ_MAX_BODY_BYTES could hold); send fewer rows or columns",
                         ["body"])
    features = np.zeros((n, width))
    names: list[str] = []
    for c in encoded:
        j = len(names)
        if c.categories is None:
            features[:, j] = c.numbers
            names.append(c.name)
        else:
            assert c.codes is not None, "a categorical column has its codes"
            features[np.arange(n), j + c.codes] = 1.0
            names += [f"{c.name}={v}" for v in c.categories]
        c.numbers = c.codes = None  # let each column go once it is in the matrix

    labels = None
    if label_column:
        values = column(label_column)
        parsed = [_as_number(v) for v in values]
        bad = next((i for i, x in enumerate(parsed) if x is None or not np.isfinite(x)), None)
        if bad is not None:
            why = "is not a number" if parsed[bad] is None else "is not finite (NaN and infinity are not allowed)"
            raise InvalidInput(f"label {values[bad]!r} on data row {bad + 1} {why}", ["body", label_column, bad])
        labels = [float(x) for x in parsed if x is not None]
    groups = [_group_value(v) for v in column(group_column)] if group_column else None
    ids = column(id_column) if id_column else None
    encoding = {"source": "csv", "columns": [_described(c) for c in encoded], "group_column": group_column,
                "label_column": label_column, "id_column": id_column}
    return ParsedTable(features, names, groups, labels, ids, encoding)


def _classify(name: str, values: list[str]) -> _Column:
    """A feature column's numbers, or its categories and codes; refused when a cell is empty or not finite."""
    for i, value in enumerate(values):
        if value == "":
            raise InvalidInput(f"column {name!r} is empty on data row {i + 1}; fill or drop missing values",
                             ["body", name, i])
    numbers = [_as_number(v) for v in values]
    if all(x is not None for x in numbers):
        array = np.asarray(numbers, dtype=float)
        bad = np.flatnonzero(~np.isfinite(array))
        if bad.size:
            i = int(bad[0])
            raise InvalidInput(f"column {name!r} is numeric but has {values[i]!r} on data row {i + 1}; numbers "
                             "must be finite (NaN and infinity are not allowed)", ["body", name, i])
        return _Column(name, numbers=array)
    categories = sorted(set(values))
    if len(categories) > MAX_CATEGORIES:
        raise InvalidInput(f"column {name!r} has {len(categories)} distinct text values; "
                         "leave identifiers out of feature_columns", ["query", "feature_columns"])
    lookup = {c: j for j, c in enumerate(categories)}
    return _Column(name, categories=categories, codes=np.fromiter((lookup[v] for v in values), dtype=np.int64,
                                                                  count=len(values)))


def _described(c: _Column) -> dict[str, Any]:
    if c.categories is None:
        return {"name": c.name, "type": "numeric"}
    return {"name": c.name, "type": "categorical", "categories": c.categories}
