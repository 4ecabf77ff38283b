"""One repetition of a batch-scheduler simulation: plain minibatches against FairBatch, epoch by epoch.

Each group's rows are split into a held-out test set (``test_fraction``) and the
training set. Every policy trains the same logistic regression (the same initial
weights) with Adam on minibatches of ``batch_size`` for ``budget`` epochs, as the client
of a batch scheduler does: before each epoch FairBatch's policy measures every cell's
(label, group) mean log loss on the training set with the current model, calls
:func:`service.algorithms.fairbatch.epoch_step` (the step ``POST
/v1/batch-schedulers/{id}/epochs`` runs) and deals that epoch's minibatches by the
returned ``batch_composition`` (each cell's rows shuffled and dealt in turn, reshuffled
when spent, as the paper's released sampler does); the plain policy shuffles the
training set and cuts it into minibatches. After each curve point's epoch the model is
scored on the test set: the measure's largest gap between groups, and accuracy.

The model is this logistic regression whatever model the client uses: a scheduler picks
minibatches, which only a model trained by minibatches can follow.

References
----------
Roh, Lee, Whang, Suh (2021), "FairBatch: Batch Selection for Model Fairness", ICLR, Algorithm 1.
"""

from __future__ import annotations

import numpy as np

from service.algorithms.fairbatch import epoch_step, init_state
from service.algorithms.fairbatch.cells import Value
from service.simulations.common import (
    INIT,
    ORDER,
    Problem,
    Progress,
    Repetition,
    Stop,
    disparity,
    log_loss,
    reshuffled,
    rng,
    split,
)

__all__ = ["run_batch_scheduler"]

ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8
# Initial weights ~ N(0, INIT_SCALE²): small, so the first epoch's losses are near log 2.
INIT_SCALE = 0.01


def _sigmoid(t: np.ndarray) -> np.ndarray:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * t)))


def _deal(members: np.ndarray, count: int, n_batches: int, generator: np.random.Generator) -> np.ndarray:
    """``n_batches`` × ``count`` rows of ``members``: shuffled, reshuffled when spent."""
    return reshuffled(members, count * n_batches, generator).reshape(n_batches, count)


class _Scheduler:
    """FairBatch for one run: the cells of the training rows and the scheduler state."""

    def __init__(self, problem: Problem, train: np.ndarray, spec: dict[str, float]) -> None:
        m = len(problem.groups)
        self.n_cells = 2 * m
        self.cells = problem.y[train].astype(np.int64) * m + problem.group[train]
        sizes = np.bincount(self.cells, minlength=self.n_cells)
        self.members = [train[self.cells == c] for c in range(self.n_cells)]
        counts: dict[tuple[Value, Value], int] = {
            (y, g): int(sizes[y * m + i]) for y in (0, 1) for i, g in enumerate(problem.groups)}
        self.state = init_state(problem.options["metric"], [0, 1], list(problem.groups), counts,
                                batch_size=problem.options["batch_size"], step_size=spec["step_size"],
                                threshold=spec["threshold"], positive_label=1)

    def batches(self, p: np.ndarray, y: np.ndarray, epoch: int, n_batches: int,
                generator: np.random.Generator) -> np.ndarray:
        sums = np.bincount(self.cells, weights=log_loss(p, y), minlength=self.n_cells)
        sizes = np.bincount(self.cells, minlength=self.n_cells)
        losses = np.divide(sums, sizes, out=np.zeros(self.n_cells), where=sizes > 0)
        self.state, result = epoch_step(self.state, losses, epoch)
        parts = [_deal(members, k, n_batches, generator)
                 for members, k in zip(self.members, result.batch_composition, strict=True) if k > 0]
        return np.concatenate(parts, axis=1)


def _train(problem: Problem, k: int, train: np.ndarray, test: np.ndarray, w0: np.ndarray, repetition: int,
           should_stop: Stop) -> tuple[np.ndarray, np.ndarray]:
    spec, options = problem.policies[k], problem.options
    batch_size, lr = int(options["batch_size"]), float(options["learning_rate"])
    X, y = problem.X, problem.y
    n_batches = max(1, train.size // batch_size)
    scheduler = _Scheduler(problem, train, spec) if spec["policy"] == "fairbatch" else None
    generator = rng(problem, repetition, ORDER)
    w, b = w0.copy(), 0.0
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    beta1, beta2 = ADAM_BETAS
    step, j = 0, 0
    fairness, accuracy = np.empty(len(problem.points)), np.empty(len(problem.points))
    for epoch in range(1, problem.budget + 1):
        if should_stop():
            raise InterruptedError("the simulation was cancelled")
        if scheduler is not None:
            batches = scheduler.batches(_sigmoid(X[train] @ w + b), y[train], epoch, n_batches, generator)
        else:
            batches = generator.permutation(train)[: n_batches * batch_size].reshape(n_batches, -1)
        for rows in batches:
            residual = _sigmoid(X[rows] @ w + b) - y[rows]
            g_w, g_b = X[rows].T @ residual / rows.size, float(residual.mean())
            step += 1
            m_w = beta1 * m_w + (1 - beta1) * g_w
            v_w = beta2 * v_w + (1 - beta2) * g_w * g_w
            m_b = beta1 * m_b + (1 - beta1) * g_b
            v_b = beta2 * v_b + (1 - beta2) * g_b * g_b
            rate = lr * np.sqrt(1 - beta2**step) / (1 - beta1**step)
            w = w - rate * m_w / (np.sqrt(v_w) + ADAM_EPS)
            b = b - rate * m_b / (np.sqrt(v_b) + ADAM_EPS)
        if j < len(problem.points) and epoch == problem.points[j]:
            p = _sigmoid(X[test] @ w + b)
            fairness[j] = disparity(options["metric"], p, y[test], problem.group[test], len(problem.groups))
            accuracy[j] = float(((p >= 0.5) == (y[test] >= 0.5)).mean())
            j += 1
    return fairness, accuracy


def run_batch_scheduler(problem: Problem, repetition: int, should_stop: Stop, progress: Progress) -> Repetition:
    """Train once per policy on repetition ``repetition``'s split; disparity and accuracy per curve epoch."""
    rest, test = split(problem, repetition)
    train = np.sort(np.concatenate(rest))
    w0 = INIT_SCALE * np.asarray(rng(problem, repetition, INIT).standard_normal(problem.X.shape[1]))
    runs = []
    for k in range(len(problem.policies)):
        runs.append(_train(problem, k, train, test, w0, repetition, should_stop))
        progress((k + 1) / len(problem.policies))
    return Repetition({"disparity": np.stack([r[0] for r in runs]), "accuracy": np.stack([r[1] for r in runs])})
