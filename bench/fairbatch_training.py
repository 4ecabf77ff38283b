"""Reference training loop for FairBatch: minibatch logistic regression in numpy.

It plays the client of a batch scheduler: before every epoch it measures the
mean loss of each cell (label, group) on its training data with the current
model, calls :func:`service.algorithms.fairbatch.epoch_step` — the same function
the HTTP resource calls — and draws that epoch's minibatches with the returned
``batch_composition`` (each cell's examples shuffled and dealt out in turn, a
new shuffle when a cell runs out, as the paper's released sampler does). Plain
LR shuffles the training set and cuts it into batches.

Training is vectorised over seeds: every seed has its own initial weights,
batches, scheduler session and train/test rows (the benchmark gives the real
datasets one shared split, each synthetic seed its own draw, and Adult-race each
seed one cross-fitting fold; the splits may differ in size), and all seeds step
together (one GEMM per epoch for the losses, one batched gather per minibatch;
every seed takes as many minibatches per epoch as its smallest training split
allows).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from service.algorithms.fairbatch import FairBatchState, epoch_step, init_state

__all__ = ["Problem", "TrainConfig", "TrainResult", "train"]

ADAM_BETAS = (0.9, 0.999)
ADAM_EPS = 1e-8
# Log loss of a probability clipped this far from 0 and 1 stays finite.
LOSS_EPS = 1e-7


@dataclass
class Problem:
    """A dataset shared by all seeds: rows, labels 0/1, group index per row, and each seed's split.

    ``train[s]`` and ``test[s]`` are seed ``s``'s row indices: a 2-d array when every
    seed's split has the same size, else a list of 1-d arrays.
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    z: np.ndarray
    groups: list[str]
    train: np.ndarray | list[np.ndarray]  # per seed: training row indices
    test: np.ndarray | list[np.ndarray]  # per seed: test row indices

    @property
    def seeds(self) -> int:
        return len(self.train)


@dataclass
class TrainConfig:
    """Hyperparameters of one run; ``metric=None`` is plain logistic regression."""

    epochs: int
    batch_size: int
    lr: float
    metric: str | None = None
    step_size: float | tuple[float, ...] = 0.005  # one α for all seeds, or one per seed
    threshold: float = 0.0
    reported_loss: str = "log"  # per-cell loss the client reports: "log" or "zero_one"
    curve_every: int = 5
    init_scale: float = 0.2


@dataclass
class TrainResult:
    """Final test predictions per seed, test predictions along training, the sessions and the final model."""

    config: TrainConfig
    test_scores: list[np.ndarray]  # per seed: P(y = 1) on its test rows
    train_scores: list[np.ndarray]  # per seed: P(y = 1) on its training rows
    curve_epochs: list[int]
    curve_predictions: list[list[np.ndarray]]  # per recorded epoch, per seed: test predictions (bool)
    states: list[FairBatchState] = field(default_factory=list)
    seconds: float = 0.0
    weights: np.ndarray | None = None  # (seeds, features): the final model, P(y = 1) = sigmoid(x·w + b)
    bias: np.ndarray | None = None  # (seeds,)


def _sigmoid(t: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * t))


def _cell_losses(p: np.ndarray, y: np.ndarray, cells: np.ndarray, n_cells: int, kind: str) -> np.ndarray:
    if kind == "zero_one":
        loss = ((p >= 0.5) != (y == 1)).astype(float)
    else:
        q = np.clip(p, LOSS_EPS, 1 - LOSS_EPS)
        loss = -np.where(y == 1, np.log(q), np.log(1 - q))
    sums = np.bincount(cells, weights=loss, minlength=n_cells)
    sizes = np.bincount(cells, minlength=n_cells)
    return np.divide(sums, sizes, out=np.zeros(n_cells), where=sizes > 0)


def _deal(members: np.ndarray, count: int, n_batches: int, rng: np.random.Generator) -> np.ndarray:
    """``n_batches`` x ``count`` indices from ``members``: shuffled, reshuffled when exhausted."""
    need = count * n_batches
    if need == 0:
        return np.empty((n_batches, 0), dtype=np.int64)
    reps = -(-need // len(members))
    stream = np.concatenate([rng.permutation(members) for _ in range(reps)])[:need]
    return stream.reshape(n_batches, count)


class _Sessions:
    """One scheduler session per seed, fed with the per-cell losses of the current model."""

    def __init__(self, problem: Problem, config: TrainConfig) -> None:
        self.groups = len(problem.groups)
        self.cells = [problem.y[t] * self.groups + problem.z[t] for t in problem.train]
        self.members = [
            [problem.train[s][self.cells[s] == c] for c in range(2 * self.groups)] for s in range(problem.seeds)
        ]
        self.states = []
        steps = config.step_size if isinstance(config.step_size, tuple) else (config.step_size,) * problem.seeds
        for cells, step_size in zip(self.cells, steps, strict=True):
            sizes = np.bincount(cells, minlength=2 * self.groups)
            counts = {(y, g): int(sizes[y * self.groups + i]) for y in (0, 1) for i, g in enumerate(problem.groups)}
            self.states.append(init_state(
                config.metric, [0, 1], problem.groups, counts, batch_size=config.batch_size,
                step_size=step_size, threshold=config.threshold, positive_label=1,
            ))

    def batches(self, scores: np.ndarray, y: np.ndarray, train: np.ndarray, epoch: int, kind: str,
                n_batches: int, rngs: list[np.random.Generator]) -> np.ndarray:
        out = []
        for s, state in enumerate(self.states):
            losses = _cell_losses(scores[train[s], s], y[train[s]], self.cells[s], 2 * self.groups, kind)
            self.states[s], result = epoch_step(state, losses, epoch)
            parts = [_deal(m, k, n_batches, rngs[s]) for m, k in
                     zip(self.members[s], result.batch_composition, strict=True) if k > 0]
            out.append(np.concatenate(parts, axis=1))
        return np.stack(out)


def train(problem: Problem, config: TrainConfig, seeds: list[int]) -> TrainResult:
    """Train one logistic regression per seed; FairBatch picks each epoch's batches if ``config.metric``."""
    started = time.perf_counter()
    X = problem.X.astype(np.float32)
    y = problem.y.astype(np.float32)
    S, d = problem.seeds, X.shape[1]
    rngs = [np.random.default_rng([seed, 7]) for seed in seeds]
    W = np.stack([config.init_scale * r.standard_normal(d) for r in rngs]).astype(np.float32)
    b = np.zeros(S, dtype=np.float32)
    m_w, v_w = np.zeros_like(W), np.zeros_like(W)
    m_b, v_b = np.zeros_like(b), np.zeros_like(b)
    beta1, beta2 = ADAM_BETAS
    n_batches = min(len(t) for t in problem.train) // config.batch_size
    sessions = _Sessions(problem, config) if config.metric else None
    curve_epochs, curve = [], []
    step = 0
    scores = _sigmoid(X @ W.T + b)  # (n, S): the model each epoch's losses are measured on
    for epoch in range(1, config.epochs + 1):
        if sessions is not None:
            batches = sessions.batches(scores, problem.y, problem.train, epoch, config.reported_loss,
                                       n_batches, rngs)
        else:
            batches = np.stack([
                r.permutation(t)[: n_batches * config.batch_size].reshape(n_batches, -1)
                for r, t in zip(rngs, problem.train, strict=True)
            ])
        for t in range(n_batches):
            idx = batches[:, t, :]
            Xb = X[idx]
            residual = _sigmoid(np.einsum("sbd,sd->sb", Xb, W) + b[:, None]) - y[idx]
            g_w = np.einsum("sbd,sb->sd", Xb, residual) / idx.shape[1]
            g_b = residual.mean(axis=1)
            step += 1
            m_w = beta1 * m_w + (1 - beta1) * g_w
            v_w = beta2 * v_w + (1 - beta2) * g_w * g_w
            m_b = beta1 * m_b + (1 - beta1) * g_b
            v_b = beta2 * v_b + (1 - beta2) * g_b * g_b
            lr = config.lr * np.sqrt(1 - beta2**step) / (1 - beta1**step)
            W -= (lr * m_w / (np.sqrt(v_w) + ADAM_EPS)).astype(np.float32)
            b -= (lr * m_b / (np.sqrt(v_b) + ADAM_EPS)).astype(np.float32)
        scores = _sigmoid(X @ W.T + b)
        if epoch % config.curve_every == 0 or epoch == config.epochs:
            curve_epochs.append(epoch)
            curve.append([scores[t, s] >= 0.5 for s, t in enumerate(problem.test)])
    return TrainResult(
        config=config,
        test_scores=[scores[t, s].astype(float) for s, t in enumerate(problem.test)],
        train_scores=[scores[t, s].astype(float) for s, t in enumerate(problem.train)],
        curve_epochs=curve_epochs,
        curve_predictions=curve,
        states=sessions.states if sessions else [],
        seconds=time.perf_counter() - started,
        weights=W.copy(),
        bias=b.copy(),
    )
