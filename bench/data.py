"""Loaders for the real datasets the benchmarks use (Adult, COMPAS).

The files live in ``bench/data/`` (sources, licences and row counts in its
README.md), so the benchmarks run from a fresh clone. ``FAIRACQ_DATASETS_DIR``
overrides the folder.

Both loaders return a :class:`Table`: a float feature matrix with categorical
columns one-hot encoded, a binary label, and the sensitive attributes as
string arrays. Features never include the sensitive attributes unless asked.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["Table", "datasets_dir", "load_adult", "load_compas", "standardize"]

ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education_num", "marital_status",
    "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
    "hours_per_week", "native_country", "income",
]
ADULT_NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
ADULT_CATEGORICAL = [
    "workclass", "education", "marital_status", "occupation", "relationship", "native_country",
]
COMPAS_NUMERIC = ["age", "juv_fel_count", "juv_misd_count", "juv_other_count", "priors_count"]
COMPAS_CATEGORICAL = ["c_charge_degree", "age_cat"]


@dataclass
class Table:
    """A loaded dataset: features ``X``, binary labels ``y`` and sensitive columns."""

    X: np.ndarray
    y: np.ndarray
    sensitive: dict[str, np.ndarray]
    feature_names: list[str] = field(default_factory=list)

    def subset(self, index: np.ndarray) -> Table:
        return Table(
            X=self.X[index],
            y=self.y[index],
            sensitive={k: v[index] for k, v in self.sensitive.items()},
            feature_names=list(self.feature_names),
        )

    def __len__(self) -> int:
        return len(self.y)


def datasets_dir() -> Path:
    """``bench/data/``, or the folder ``FAIRACQ_DATASETS_DIR`` names."""
    env = os.environ.get("FAIRACQ_DATASETS_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent / "data"


def _one_hot(columns: dict[str, list[str]], names: list[str]) -> tuple[np.ndarray, list[str]]:
    blocks, out_names = [], []
    for name in names:
        values = np.asarray(columns[name])
        categories = sorted(set(values.tolist()))
        blocks.append((values[:, None] == np.asarray(categories)[None, :]).astype(float))
        out_names += [f"{name}={c}" for c in categories]
    return np.hstack(blocks), out_names


def _assemble(
    rows: list[dict[str, str]],
    numeric: list[str],
    categorical: list[str],
    extra_features: list[str],
) -> tuple[np.ndarray, list[str]]:
    columns = {k: [r[k] for r in rows] for k in numeric + categorical + extra_features}
    num = np.array([[float(r[k]) for k in numeric] for r in rows])
    cat, cat_names = _one_hot(columns, categorical + extra_features)
    return np.hstack([num, cat]), numeric + cat_names


def load_adult(
    split: str = "all", *, drop_missing: bool = True, include_sensitive: bool = False
) -> Table:
    """Adult census income: label 1 when income > 50K; sensitive ``sex`` and ``race``.

    ``split`` is ``train`` (adult.data), ``test`` (adult.test) or ``all``. One-hot
    categories are taken from the union of both files so splits share columns.
    """
    folder = datasets_dir() / "adult"
    rows: list[dict[str, str]] = []
    split_of: list[str] = []
    for part, filename in (("train", "adult.data"), ("test", "adult.test")):
        with open(folder / filename, newline="") as handle:
            for raw in csv.reader(handle, skipinitialspace=True):
                if len(raw) != len(ADULT_COLUMNS):
                    continue  # blank lines and adult.test's comment line
                row = dict(zip(ADULT_COLUMNS, (v.strip() for v in raw), strict=True))
                if drop_missing and "?" in row.values():
                    continue
                row["income"] = row["income"].rstrip(".")
                rows.append(row)
                split_of.append(part)
    extra = ["race", "sex"] if include_sensitive else []
    X, names = _assemble(rows, ADULT_NUMERIC, ADULT_CATEGORICAL, extra)
    y = np.array([r["income"] == ">50K" for r in rows], dtype=int)
    sensitive = {
        "sex": np.array([r["sex"] for r in rows]),
        "race": np.array([r["race"] for r in rows]),
    }
    table = Table(X=X, y=y, sensitive=sensitive, feature_names=names)
    if split == "all":
        return table
    if split not in ("train", "test"):
        raise ValueError("split must be 'train', 'test' or 'all'")
    return table.subset(np.flatnonzero(np.asarray(split_of) == split))


def load_compas(*, include_sensitive: bool = False) -> Table:
    """COMPAS two-year recidivism with the ProPublica filter; label ``two_year_recid``.

    Sensitive columns: ``sex`` and ``race`` (ProPublica's six values) and
    ``race_binary`` (African-American against everyone else).
    """
    path = datasets_dir() / "compas" / "compas-two-years.csv"
    with open(path, newline="") as handle:
        rows = [
            r
            for r in csv.DictReader(handle)
            if r["days_b_screening_arrest"] != ""
            and -30 <= float(r["days_b_screening_arrest"]) <= 30
            and r["is_recid"] != "-1"
            and r["c_charge_degree"] != "O"
            and r["score_text"] != "N/A"
        ]
    extra = ["race", "sex"] if include_sensitive else []
    X, names = _assemble(rows, COMPAS_NUMERIC, COMPAS_CATEGORICAL, extra)
    race = np.array([r["race"] for r in rows])
    sensitive = {
        "sex": np.array([r["sex"] for r in rows]),
        "race": race,
        "race_binary": np.where(race == "African-American", "African-American", "Other"),
        "decile_score": np.array([float(r["decile_score"]) for r in rows]),
    }
    y = np.array([int(r["two_year_recid"]) for r in rows])
    return Table(X=X, y=y, sensitive=sensitive, feature_names=names)


def standardize(train: np.ndarray, *others: np.ndarray) -> list[np.ndarray]:
    """Scale columns to zero mean and unit variance using ``train``'s statistics."""
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    std[std == 0] = 1.0
    return [(a - mean) / std for a in (train, *others)]
