"""FairBatch benchmark protocol: the data, each seed's train/test rows, and the evaluation.

See :mod:`bench.fairbatch` for the protocol of each dataset and why. Synthetic seed ``s``
draws its own 3,000 rows from Section 4's generator (:func:`synthetic`) and, from a separate
random stream, :data:`POPULATION_ROWS` more (:func:`population`) on which the trained model is
measured as on its population; those rows never enter training or tuning. The real datasets
have one fixed 4:1 split (Adult with race: cross-fitting folds).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from scipy.stats import multivariate_normal

from bench.data import load_adult, load_compas, standardize
from bench.fairbatch_training import Problem, TrainResult
from service.algorithms.metrics import (
    MetricResult,
    demographic_parity,
    equal_opportunity,
    equalized_odds,
)

__all__ = [
    "BOOTSTRAP", "CROSS_FIT", "CROSS_FIT_FOLDS", "DATA_SEED", "POPULATION_ROWS", "VALIDATION_FRACTION",
    "PopulationScores", "Scores", "cross_fit_folds", "curve", "evaluate", "evaluate_population",
    "make_problem", "pooled_pairwise", "population", "seed_scores", "synthetic",
]

BOOTSTRAP = 200  # bootstrap draws for a test disparity's standard error
VALIDATION_FRACTION = 0.2
# The one train/test split of each real dataset (Section 4, B.1: a fixed split, 10 training
# seeds). Fixed to 0, the first seed of the earlier per-seed replicates, before any result of
# this protocol was seen; never chosen by looking at test results.
DATA_SEED = 0
# Adult with race is evaluated by cross-fitting (see bench.fairbatch): 10 seeds are
# 2 repetitions of a stratified 5-fold split.
CROSS_FIT = ("adult_race",)
CROSS_FIT_FOLDS = 5
# Rows per synthetic seed drawn to measure a model on its population: the sampling SE of a
# disparity on 100,000 rows is ~0.002 (vs ~0.016 on the 1,000 test rows), so the lift of the
# absolute value (0.8 SE for a model fair on the population) is ~0.002, below the 3rd decimal
# that the targets are checked at only in its last digit.
POPULATION_ROWS = 100_000
SYNTHETIC_ROWS = 3000  # Section 4: 3,000 examples, 2:1 train:test
SYNTHETIC_TRAIN = 2000
# Random streams of a synthetic seed: (seed, stream). The population sample has its own stream,
# so it is independent of the seed's training and test rows.
DRAW_STREAM, POPULATION_STREAM = 1, 9


# --- data ------------------------------------------------------------------------------------


def synthetic(seed: int, n: int = SYNTHETIC_ROWS, stream: int = DRAW_STREAM
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Section 4's data (Zafar et al.): two Gaussians for y, z biased through the rotated x.

    Returns the features (x1, x2, z), the labels and the groups, in a random order.
    """
    rng = np.random.default_rng([seed, stream])
    mean1, cov1 = np.array([2.0, 2.0]), np.array([[5.0, 1.0], [1.0, 5.0]])
    mean0, cov0 = np.array([-2.0, -2.0]), np.array([[10.0, 1.0], [1.0, 3.0]])
    half = n // 2
    x = np.vstack([rng.multivariate_normal(mean1, cov1, half), rng.multivariate_normal(mean0, cov0, n - half)])
    y = np.r_[np.ones(half, dtype=int), np.zeros(n - half, dtype=int)]
    angle = np.pi / 4
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    rotated = x @ rotation  # SPEC §5.4: the row vector x' = x·R
    p1 = multivariate_normal(mean1, cov1).pdf(rotated)
    p0 = multivariate_normal(mean0, cov0).pdf(rotated)
    z = rng.binomial(1, p1 / (p0 + p1))
    order = rng.permutation(n)
    return np.c_[x, z][order], y[order], z[order]


@functools.lru_cache(maxsize=16)
def population(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """POPULATION_ROWS fresh rows of synthetic seed ``seed``'s generator, from their own stream."""
    return synthetic(seed, POPULATION_ROWS, POPULATION_STREAM)


def _stratified(y: np.ndarray, z: np.ndarray, rows: np.ndarray, fraction: float, rng: np.random.Generator):
    held = []
    for cell in np.unique(y[rows] * 1000 + z[rows]):
        members = rng.permutation(rows[y[rows] * 1000 + z[rows] == cell])
        held.append(members[: int(round(fraction * len(members)))])
    held = np.sort(np.concatenate(held))
    return np.setdiff1d(rows, held), held


def cross_fit_folds(y: np.ndarray, z: np.ndarray, repetition: int) -> np.ndarray:
    """Fold (0..CROSS_FIT_FOLDS-1) of every row for one repetition, stratified by (label, group).

    Each cell's rows are shuffled and dealt to the folds in turn, continuing where the
    previous cell stopped, so every fold holds a fifth of each cell and the folds differ
    in size by at most one row.
    """
    rng = np.random.default_rng([DATA_SEED, 5, repetition])
    fold = np.empty(len(y), dtype=np.int64)
    start = 0
    for cell in np.unique(y * 1000 + z):
        members = rng.permutation(np.flatnonzero(y * 1000 + z == cell))
        fold[members] = (start + np.arange(len(members))) % CROSS_FIT_FOLDS
        start += len(members)
    return fold


def make_problem(dataset: str, seeds: list[int], validation: bool = False) -> Problem:
    """Each seed's train/test rows: see the module docstring for the protocol of each dataset.

    With ``validation`` the test rows are dropped and a fifth of each seed's training rows
    is held out instead (Section 4: "cross-validation on the training set"), so tuning never
    sees a test row of that seed.
    """
    if dataset == "synthetic":
        # Seed s trains on its own draw of the generator: the expectation over the generator.
        draws = [synthetic(seed) for seed in seeds]  # shuffled: the first 2,000 rows train, the rest test (2:1)
        n = SYNTHETIC_ROWS
        X = np.vstack([d[0] for d in draws])
        y = np.concatenate([d[1] for d in draws])
        z = np.concatenate([d[2] for d in draws])
        train, test = np.arange(SYNTHETIC_TRAIN), np.arange(SYNTHETIC_TRAIN, n)
        if validation:  # the last fifth of each draw's training rows
            held = int(round(SYNTHETIC_TRAIN * (1 - VALIDATION_FRACTION)))
            train, test = np.arange(held), np.arange(held, SYNTHETIC_TRAIN)
        offsets = n * np.arange(len(seeds))[:, None]
        return Problem(dataset, X, y, z, [0, 1], offsets + train, offsets + test)
    if dataset in CROSS_FIT:
        table = load_adult(include_sensitive=True)
        values = table.sensitive["race"]
        groups = sorted(set(values.tolist()), key=lambda g: (-int(np.sum(values == g)), g))
        z = np.array([groups.index(v) for v in values])
        y = table.y
        (X,) = standardize(table.X)
        trains, tests = [], []
        folds = {}
        for seed in seeds:  # seed s: fold s % 5 of repetition s // 5 is its test set
            repetition, k = divmod(seed, CROSS_FIT_FOLDS)
            if repetition not in folds:
                folds[repetition] = cross_fit_folds(y, z, repetition)
            train, test = np.flatnonzero(folds[repetition] != k), np.flatnonzero(folds[repetition] == k)
            if validation:
                train, test = _stratified(y, z, train, VALIDATION_FRACTION, np.random.default_rng([DATA_SEED, 6, seed]))
            trains.append(train)
            tests.append(test)
        return Problem(dataset, X, y, z, groups, trains, tests)
    else:
        if dataset == "compas":
            table = load_compas(include_sensitive=True)
            keep = np.isin(table.sensitive["race"], ["African-American", "Caucasian"])
            table = table.subset(np.flatnonzero(keep))
            y, attribute = 1 - table.y, "sex"
        else:
            table = load_adult(include_sensitive=True)
            y, attribute = table.y, "race" if dataset == "adult_race" else "sex"
        values = table.sensitive[attribute]
        # groups in order of size: the adjacent pairs of the controller chain from large to small
        groups = sorted(set(values.tolist()), key=lambda g: (-int(np.sum(values == g)), g))
        z = np.array([groups.index(v) for v in values])
        (X,) = standardize(table.X)
        rng = np.random.default_rng([DATA_SEED, 2])
        train, test = _stratified(y, z, np.arange(len(y)), 0.2, rng)  # 4:1 (B.1)
        if validation:  # tune on a fifth of the training rows; the test rows stay unseen
            train, test = _stratified(y, z, train, VALIDATION_FRACTION, rng)
    n = len(seeds)
    return Problem(dataset, X, y, z, groups, np.tile(train, (n, 1)), np.tile(test, (n, 1)))


# --- evaluation ------------------------------------------------------------------------------


def _metric(metric: str, pred: np.ndarray, y: np.ndarray, z: np.ndarray) -> MetricResult:
    if metric == "equal_opportunity":
        return equal_opportunity(pred, y, z)
    if metric == "equalized_odds":
        return equalized_odds(pred, y, z)
    return demographic_parity(pred, z)


@dataclass
class Scores:
    accuracy: np.ndarray  # per seed, test
    disparity: np.ndarray  # per seed, test, against the overall rate (the paper's)
    pairwise: np.ndarray  # per seed, test, largest gap between two groups
    train_disparity: np.ndarray  # per seed, on the training rows the controller saw
    train_pairwise: np.ndarray
    se: float  # mean bootstrap standard error of the test disparity
    pairwise_se: float  # the same for the largest pairwise gap


def evaluate(problem: Problem, result: TrainResult, metric: str, bootstrap: bool = True) -> Scores:
    acc, disp, pair, train_disp, train_pair, ses, pair_ses = [], [], [], [], [], [], []
    for s in range(problem.seeds):
        rows = problem.test[s]
        pred = (result.test_scores[s] >= 0.5).astype(int)
        y, z = problem.y[rows], problem.z[rows]
        m = _metric(metric, pred, y, z)
        acc.append(float(np.mean(pred == y)))
        disp.append(m.disparity_vs_overall)
        pair.append(m.disparity)
        fit = _metric(metric, (result.train_scores[s] >= 0.5).astype(int), problem.y[problem.train[s]],
                      problem.z[problem.train[s]])
        train_disp.append(fit.disparity_vs_overall)
        train_pair.append(fit.disparity)
        if bootstrap:
            rng = np.random.default_rng([s, 3])
            draws = [_metric(metric, pred[d], y[d], z[d]) for d in
                     (rng.integers(0, len(rows), len(rows)) for _ in range(BOOTSTRAP))]
            ses.append(np.std([m.disparity_vs_overall for m in draws]))
            pair_ses.append(np.std([m.disparity for m in draws]))
    return Scores(np.array(acc), np.array(disp), np.array(pair), np.array(train_disp), np.array(train_pair),
                  float(np.mean(ses)) if ses else float("nan"),
                  float(np.mean(pair_ses)) if pair_ses else float("nan"))


@dataclass
class PopulationScores:
    """Per synthetic seed: accuracy and disparity (against the overall rate) on its population sample."""

    accuracy: np.ndarray
    disparity: np.ndarray


def evaluate_population(result: TrainResult, seeds: list[int], metric: str) -> PopulationScores:
    """Each seed's final model measured on :func:`population` rows of its own generator."""
    acc, disp = [], []
    for s, seed in enumerate(seeds):
        X, y, z = population(seed)
        pred = (X @ result.weights[s].astype(float) + float(result.bias[s]) >= 0).astype(int)  # P(y=1) >= 0.5
        acc.append(float(np.mean(pred == y)))
        disp.append(_metric(metric, pred, y, z).disparity_vs_overall)
    return PopulationScores(np.array(acc), np.array(disp))


def curve(problem: Problem, result: TrainResult, metric: str, pairwise: bool = False) -> np.ndarray:
    """Seed-mean test disparity at each recorded epoch (against the overall rate, or pairwise)."""
    out = []
    for preds in result.curve_predictions:
        values = []
        for s in range(problem.seeds):
            rows = problem.test[s]
            m = _metric(metric, preds[s].astype(int), problem.y[rows], problem.z[rows])
            values.append(m.disparity if pairwise else m.disparity_vs_overall)
        out.append(np.mean(values))
    return np.array(out)


def seed_scores(problem: Problem, predictions: list, metric: str, pairwise: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per seed: accuracy and disparity on its test rows, averaged over the recorded epochs given."""
    acc, disp = np.zeros(problem.seeds), np.zeros(problem.seeds)
    for preds in predictions:
        for s in range(problem.seeds):
            rows = problem.test[s]
            m = _metric(metric, preds[s].astype(int), problem.y[rows], problem.z[rows])
            acc[s] += np.mean(preds[s] == problem.y[rows]) / len(predictions)
            disp[s] += (m.disparity if pairwise else m.disparity_vs_overall) / len(predictions)
    return acc, disp


def pooled_pairwise(problem: Problem, result: TrainResult, seeds: list[int], metric: str,
                    bootstrap: int = 0) -> tuple[np.ndarray, float]:
    """Cross-fitting: the largest pairwise disparity of each repetition's pooled out-of-fold predictions.

    Seed ``s`` is fold ``s % 5`` of repetition ``s // 5``; a repetition's test folds together
    cover every row once, each predicted by the model that did not train on it. Returns the
    disparity per repetition and the mean bootstrap SE (resampling the pooled rows).
    """
    out, ses = [], []
    for repetition in sorted({seed // CROSS_FIT_FOLDS for seed in seeds}):
        members = [i for i, seed in enumerate(seeds) if seed // CROSS_FIT_FOLDS == repetition]
        rows = np.concatenate([problem.test[i] for i in members])
        pred = np.concatenate([(result.test_scores[i] >= 0.5).astype(int) for i in members])
        y, z = problem.y[rows], problem.z[rows]
        out.append(_metric(metric, pred, y, z).disparity)
        if bootstrap:
            rng = np.random.default_rng([repetition, 8])
            ses.append(np.std([_metric(metric, pred[d], y[d], z[d]).disparity for d in
                               (rng.integers(0, len(rows), len(rows)) for _ in range(bootstrap))]))
    return np.array(out), float(np.mean(ses)) if ses else float("nan")


