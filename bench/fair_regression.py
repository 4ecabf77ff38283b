"""Reproduce Figure 1 of the fair-regression paper, and compare bounded group loss with fairlearn.

Run from the project root::

    .venv/bin/python -m bench.fair_regression            # the issue's full settings
    .venv/bin/python -m bench.fair_regression --quick    # smoke run: small tasks, 5 slacks

Statistical parity (Figure 1): each task is split 50/50 within each group (the authors'
``train_test_split_groups``, seed 4). :func:`service.algorithms.fair_regression.sweep` —
the function the HTTP resource calls — runs Algorithm 1 over the authors' slack grid with
N = 40; the Pareto front of the training (loss, disparity) pairs is evaluated on the test
half. Losses are the paper's (square ``(y−u)²/2`` on labels scaled to [0, 1]; Example 2's
logistic with C = 5) and the disparity is the exact SP disparity of the randomized
predictor on the 40 grid thresholds. Tasks:

* Adult (logistic loss, sex), full and a 2,000-row subsample — oracles LS and LR (loss
  minimisation) with linear learners, CS on the subsample; baselines: unconstrained
  logistic regression and fair classification (FC: fairlearn's ExponentiatedGradient with
  DemographicParity and LogisticRegression, scores mapped to Example 2's u);
* COMPAS (square loss on decile_score, race: African-American vs other) — LS and CS;
  baselines: unconstrained least squares and SEO (Johnson et al.'s closed form);
* synthetic regression (see :func:`synthetic`) — LS, CS and LS with gradient boosting;
  the same baselines.

Bounded group loss: Algorithm 2 (square loss, linear least squares) against fairlearn's
ExponentiatedGradient with BoundedGroupLoss(SquareLoss) and LinearRegression at the same
bound (fairlearn's loss is ``(y−u)²``, so its bound is twice ours), timed in the same run;
plus a bound below what the worst group can reach alone, which must be reported infeasible.

Tables are printed and written with ``frontier.png`` to ``bench/results/fair_regression/``;
the exit status is non-zero when a target of the issue is missed.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # two shared cores: BLAS threads would only contend

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from bench.data import load_adult, load_compas, standardize  # noqa: E402
from bench.report import Targets, markdown_table, redirect_quick, results_dir, write_text  # noqa: E402
from service.algorithms.fair_regression import (  # noqa: E402
    LOGISTIC_C,
    FairRegressionPredictor,
    LabelScaling,
    evaluate_predictor,
    fit_bounded_group_loss,
    get_loss,
    group_losses,
    make_learner,
    pareto_frontier,
    sp_disparity,
    sweep,
)
from service.algorithms.fair_regression.regressors import LinearRegressor  # noqa: E402

NAME = "fair_regression"
SPLIT_SEED = 4  # the authors' DATA_SPLIT_SEED
SUBSAMPLE = 2000
# The slack grid of the authors' experiment script (run_exp.py, eps_list); the paper's
# text only says "a range of constraint slack values".
SLACKS = [0.01, 0.02, 0.03, 0.04, 0.06, 0.08, 0.1, 0.12, 0.15, 0.17, 0.2, 0.23, 0.255, 0.265, 0.27,
          0.275, 0.31, 1.0]
QUICK_SLACKS = [0.01, 0.02, 0.05, 0.1, 1.0]  # dense where the targets bite
GRID_SIZE = 40
BOOSTING = {"type": "gradient_boosting", "params": {"n_estimators": 50, "max_depth": 3}}

# Targets of the issue.
SLACK_MARGIN = 0.03  # test disparity of every frontier point <= slack + 0.03
FC_MARGIN = 0.01  # Adult: within 0.01 loss of FC at equal disparity
BGL_MARGIN = 0.005  # maximum group loss <= bound + 0.005
BGL_SPEEDUP = 5.0
SP_SECONDS = 60.0
# "Dominates or matches SEO" up to statistical uncertainty, as Figure 1 reads it (95%
# intervals on loss and on constraint violation): at SEO's test disparity — or at our
# frontier's lowest test disparity when that is higher but within 2 SE of SEO's — our
# envelope's test loss is at most SEO's + 2 SE (the SEs of SEO's test values, the
# disparity's from BOOTSTRAP resamples of the test half). "No higher than
# fairlearn": within 1e-4, far below both solvers' duality-gap tolerance and the sampling
# noise of a mean loss.
SE_MULTIPLIER = 2.0
BOOTSTRAP = 200
LOSS_TIE = 1e-4


@dataclass
class Task:
    """One dataset split 50/50 within each group; labels on the caller's scale."""

    name: str
    loss: str
    X_train: np.ndarray
    y_train: np.ndarray
    a_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    a_test: np.ndarray

    @property
    def scaling(self) -> LabelScaling:
        return LabelScaling.fit(self.y_train)


def _split(name: str, loss: str, X: np.ndarray, y: np.ndarray, a: np.ndarray, seed: int) -> Task:
    """Half of every group to training, half to test (the authors' ``train_test_split_groups``)."""
    rng = np.random.default_rng(seed)
    train = np.zeros(len(y), dtype=bool)
    for g in np.unique(a):
        rows = rng.permutation(np.flatnonzero(a == g))
        train[rows[: len(rows) // 2]] = True
    X_tr, X_te = standardize(X[train], X[~train])
    return Task(name, loss, X_tr, y[train], a[train], X_te, y[~train], a[~train])


def synthetic(n: int = 4000, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A regression set where the label depends on the group directly and through the features.

    A ~ Bernoulli(0.3); X ~ N(0, I_8) shifted by 0.8 on three coordinates when A = 1;
    y = X·w + 0.8 A + 0.5 sin(2 x_5) + N(0, 0.5²). A is one of the features (as in the paper's
    data), so SEO and the fair regressors can both undo its direct effect.
    """
    rng = np.random.default_rng(seed)
    a = (rng.random(n) < 0.3).astype(int)
    X = rng.normal(size=(n, 8))
    X[:, :3] += 0.8 * a[:, None]
    w = np.array([1.0, 0.5, -0.3, 0.2, 0.0, 0.4, 0.0, -0.2])
    y = X @ w + 0.8 * a + 0.5 * np.sin(2 * X[:, 4]) + rng.normal(scale=0.5, size=n)
    return np.column_stack([X, a]), y, np.where(a == 1, "A=1", "A=0")


def load_tasks(quick: bool) -> list[Task]:
    adult = load_adult(include_sensitive=True)
    compas = load_compas(include_sensitive=True)
    sub = np.random.default_rng(SPLIT_SEED).choice(len(adult), SUBSAMPLE, replace=False)
    tasks = [
        _split("adult (2,000)", "logistic", adult.X[sub], adult.y[sub].astype(float),
               adult.sensitive["sex"][sub], SPLIT_SEED),
        _split("compas", "square", compas.X, compas.sensitive["decile_score"],
               compas.sensitive["race_binary"], SPLIT_SEED),
        _split("synthetic", "square", *synthetic(), seed=SPLIT_SEED),
    ]
    if not quick:
        tasks.insert(0, _split("adult", "logistic", adult.X, adult.y.astype(float), adult.sensitive["sex"],
                               SPLIT_SEED))
    return tasks


def methods(task: Task, quick: bool) -> list[tuple[str, str, Any]]:
    """(label, oracle, learner) run on a task; LR = loss minimisation under the logistic loss."""
    out = [("LS linear", "least_squares", None)]
    if task.loss == "logistic":
        out.append(("LR linear", "loss_minimization", None))
    if task.name != "adult":  # the paper runs CS on the small data sets only (n N examples)
        out.append(("CS linear", "cost_sensitive", None))
    if task.name == "synthetic" and not quick:
        out.append(("LS boosting", "least_squares", BOOSTING))
    return out


# --------------------------------------------------------------------------- evaluation


def _point(predictor: FairRegressionPredictor, task: Task) -> dict[str, float]:
    train = evaluate_predictor(predictor, task.X_train, task.y_train, task.a_train, task.loss, GRID_SIZE)
    test = evaluate_predictor(predictor, task.X_test, task.y_test, task.a_test, task.loss, GRID_SIZE)
    return {"train_loss": train["loss"], "train_disp": train["disparity"], "test_loss": test["loss"],
            "test_disp": test["disparity"]}


def _front(points: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pareto front on the training pair, reported with test values (as Section 6 does)."""
    chosen = {p["slack"] for p in pareto_frontier([(p["slack"], p["train_loss"], p["train_disp"])
                                                   for p in points])}
    return sorted((p for p in points if p["slack"] in chosen), key=lambda p: p["test_disp"])


def achievable(points: list[dict[str, Any]], d: float) -> float:
    """Lowest test loss reachable at test disparity ≤ d by mixing the points' predictors.

    Mixing two randomized predictors mixes their losses linearly and gives a disparity at
    most the mixture of theirs, so the lower convex envelope is achievable (Figure 1).
    """
    pts = sorted((p["test_disp"], p["test_loss"]) for p in points)
    best = float("inf")
    for i, (d1, l1) in enumerate(pts):
        if d1 <= d:
            best = min(best, l1)
        for d2, l2 in pts[i + 1:]:
            if d1 <= d <= d2 and d2 > d1:
                best = min(best, l1 + (l2 - l1) * (d - d1) / (d2 - d1))
    return best


def unconstrained(task: Task) -> dict[str, float]:
    groups = np.unique(task.a_train, return_inverse=True)[1]
    bound = make_learner(None).bind(task.X_train, groups, int(groups.max()) + 1, np.random.default_rng(0))
    regressor = bound.fit(task.scaling.to_unit(task.y_train), get_loss(task.loss))
    return _point(FairRegressionPredictor([regressor], np.ones(1), task.scaling, task.X_train.shape[1]), task)


def seo(task: Task) -> dict[str, float]:
    """Full SEO (Johnson, Foster, Stine 2016) in closed form, evaluated like our predictors.

    The least-squares linear model whose predictions have zero sample covariance with every
    group indicator: regress the features on [1, group one-hot], keep the residuals, fit the
    label on [1, residuals]. The prediction uses the group, as SEO does.
    """
    groups = np.unique(task.a_train)

    def design(a: np.ndarray) -> np.ndarray:
        return np.column_stack([np.ones(len(a))] + [(a == g).astype(float) for g in groups[1:]])

    gamma = np.linalg.lstsq(design(task.a_train), task.X_train, rcond=None)[0]
    y_unit = task.scaling.to_unit(task.y_train)
    resid = task.X_train - design(task.a_train) @ gamma
    beta = np.linalg.lstsq(np.column_stack([np.ones(len(y_unit)), resid]), y_unit, rcond=None)[0]
    loss = get_loss("square")
    out = {}
    for part, X, y, a in (("train", task.X_train, task.y_train, task.a_train),
                          ("test", task.X_test, task.y_test, task.a_test)):
        u = np.clip(beta[0] + (X - design(a) @ gamma) @ beta[1:], 0.0, 1.0)
        values = loss(task.scaling.to_unit(y), u)
        out[f"{part}_loss"], out[f"{part}_disp"] = float(values.mean()), sp_disparity(u, a, GRID_SIZE)
        out[f"{part}_se"] = float(values.std() / np.sqrt(len(values)))
    rng = np.random.default_rng(SPLIT_SEED)
    draws = [rng.integers(len(u), size=len(u)) for _ in range(BOOTSTRAP)]
    out["test_disp_se"] = float(np.std([sp_disparity(u[i], task.a_test[i], GRID_SIZE) for i in draws]))
    return out


def fair_classification(task: Task, slacks: list[float]) -> list[dict[str, Any]]:
    """Agarwal et al. (2018): fairlearn EG + DemographicParity(ε) with LogisticRegression.

    Each classifier in the returned mixture is a logistic model; its log-odds s give
    Example 2's prediction u = 1/2 + s / (2C), so FC is evaluated exactly as ours.
    """
    from fairlearn.reductions import DemographicParity, ExponentiatedGradient
    from sklearn.linear_model import LogisticRegression

    points = []
    for eps in slacks:
        model = ExponentiatedGradient(LogisticRegression(max_iter=1000), DemographicParity(difference_bound=eps))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(task.X_train, task.y_train.astype(int), sensitive_features=task.a_train)
        weights = np.asarray(model.weights_, dtype=float)
        keep = np.flatnonzero(weights > 0)
        regressors = [LinearRegressor(model.predictors_[i].coef_.ravel().copy(),
                                      float(model.predictors_[i].intercept_[0]), 1 / (2 * LOGISTIC_C), 0.5)
                      for i in keep]
        predictor = FairRegressionPredictor(regressors, weights[keep] / weights[keep].sum(), task.scaling,
                                            task.X_train.shape[1])
        points.append({"slack": eps, **_point(predictor, task)})
    return points


# --------------------------------------------------------------------------- statistical parity


def run_sp(task: Task, label: str, oracle: str, learner: Any, slacks: list[float]) -> dict[str, Any]:
    start = time.perf_counter()
    result = sweep(slacks, task.X_train, task.y_train, task.a_train, grid_size=GRID_SIZE, loss=task.loss,
                   oracle=oracle, learner=learner, rng=np.random.default_rng(SPLIT_SEED))
    seconds = time.perf_counter() - start
    points = [{"slack": s, **_point(r.predictor, task), "status": r.status}
              for s, r in zip(slacks, result.results, strict=True)]
    return {"label": label, "seconds": seconds, "points": points, "front": _front(points),
            "iterations": sum(r.iterations for r in result.results),
            "calls": sum(r.oracle_calls for r in result.results),
            "converged": sum(r.status == "converged" for r in result.results)}


def sp_targets(targets: Targets, task: Task, runs: list[dict[str, Any]], base: dict[str, Any]) -> None:
    for run in runs:
        excess = max(p["test_disp"] - p["slack"] for p in run["front"])
        targets.check(f"SP {task.name} {run['label']}: frontier test disparity <= slack + {SLACK_MARGIN}",
                      excess <= SLACK_MARGIN, f"max(test disparity - slack) = {excess:+.3f}")
        if "seo" in base:
            s = base["seo"]
            lowest = min(p["test_disp"] for p in run["front"])
            at = max(s["test_disp"], lowest)  # SEO's disparity, or our lowest if the test half gives more
            reach = s["test_disp"] + SE_MULTIPLIER * s["test_disp_se"]
            ours, tol = achievable(run["front"], at), SE_MULTIPLIER * s["test_se"]
            targets.check(f"SP {task.name} {run['label']}: frontier dominates or matches SEO",
                          at <= reach and ours <= s["test_loss"] + tol,
                          f"SEO: disparity {s['test_disp']:.3f} (2 SE {reach - s['test_disp']:.3f}), loss "
                          f"{s['test_loss']:.5f} (2 SE {tol:.5f}); ours at disparity {at:.3f}: {ours:.5f}")
        if "fc" in base and task.name.startswith("adult"):
            fc = base["fc"]
            lo = max(min(p["test_disp"] for p in run["front"]), min(p["test_disp"] for p in fc))
            hi = max(max(p["test_disp"] for p in run["front"]), max(p["test_disp"] for p in fc))
            worst = max(achievable(run["front"], d) - achievable(fc, d) for d in np.linspace(lo, hi, 101))
            targets.check(f"SP {task.name} {run['label']}: within {FC_MARGIN} loss of FC at equal disparity",
                          worst <= FC_MARGIN, f"max(ours - FC) over disparity [{lo:.3f}, {hi:.3f}] = {worst:+.4f}")


def sp_table(task: Task, runs: list[dict[str, Any]], base: dict[str, Any]) -> str:
    rows: list[list[Any]] = []
    for run in runs:
        rows += [[run["label"], p["slack"], p["train_loss"], p["train_disp"], p["test_loss"], p["test_disp"]]
                 for p in run["front"]]
    rows.append(["unconstrained", "-", *(base["unconstrained"][k] for k in
                                         ("train_loss", "train_disp", "test_loss", "test_disp"))])
    if "seo" in base:
        rows.append(["SEO", "-", *(base["seo"][k] for k in ("train_loss", "train_disp", "test_loss", "test_disp"))])
    for p in base.get("fc_front", []):
        rows.append(["FC", p["slack"], p["train_loss"], p["train_disp"], p["test_loss"], p["test_disp"]])
    return markdown_table(["method", "slack", "train loss", "train disparity", "test loss", "test disparity"],
                          rows, digits=4)


def _draw(ax: Any, points: list[dict[str, Any]], style: str, label: str, color: Any = None) -> None:
    """Frontier points as markers and their achievable (convex) envelope as a line, as in Figure 1."""
    d = [p["test_disp"] for p in points]
    line = ax.plot(d, [p["test_loss"] for p in points], style, ms=3, ls="none", color=color, label=label)[0]
    grid = np.linspace(min(d), max(d), 200)
    ax.plot(grid, [achievable(points, x) for x in grid], "-" if style != "s" else "--", lw=1,
            color=line.get_color())


def plot(all_runs: list[tuple[Task, list[dict[str, Any]], dict[str, Any]]]) -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(all_runs), figsize=(4.2 * len(all_runs), 3.8), squeeze=False)
    for ax, (task, runs, base) in zip(axes[0], all_runs, strict=True):
        for run in runs:
            _draw(ax, run["front"], "o", run["label"])
        if "fc_front" in base:
            _draw(ax, base["fc_front"], "s", "FC", "gray")
        ax.plot(base["unconstrained"]["test_disp"], base["unconstrained"]["test_loss"], "kx", label="unconstrained")
        if "seo" in base:
            ax.plot(base["seo"]["test_disp"], base["seo"]["test_loss"], "r*", ms=9, label="SEO")
        ax.set_title(f"{task.name} ({task.loss} loss)")
        ax.set_xlabel("test SP disparity (randomized predictor)")
        ax.set_ylabel("test loss")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / "frontier.png", dpi=120)
    plt.close(fig)


# --------------------------------------------------------------------------- bounded group loss


def bgl_bounds(task: Task) -> tuple[str, float, float]:
    """The worst group under least squares, a binding bound and an infeasible one.

    The worst group's loss can go no lower than its own least-squares fit (the
    "specialist"); the bound is halfway between that and its unconstrained loss, and 80%
    of the specialist's loss is out of reach of any distribution over linear models.
    """
    y = task.scaling.to_unit(task.y_train)
    names, index = np.unique(task.a_train, return_inverse=True)
    square = get_loss("square")
    bound = make_learner(None).bind(task.X_train, index, len(names), np.random.default_rng(0))
    by_group = group_losses(bound.fit(y, square).predict(task.X_train), y, task.a_train)
    worst = max(by_group, key=by_group.get)
    rows = task.a_train == worst
    alone = make_learner(None).bind(task.X_train[rows], np.zeros(rows.sum(), dtype=np.int64), 1,
                                    np.random.default_rng(0))
    best = float(square(y[rows], alone.fit(y[rows], square).predict(task.X_train[rows])).mean())
    return worst, best + 0.5 * (by_group[worst] - best), 0.8 * best


def fairlearn_bgl(task: Task, bound: float) -> tuple[FairRegressionPredictor, float]:
    from fairlearn.reductions import BoundedGroupLoss, ExponentiatedGradient, SquareLoss
    from sklearn.linear_model import LinearRegression

    y = task.scaling.to_unit(task.y_train)
    start = time.perf_counter()
    model = ExponentiatedGradient(LinearRegression(), BoundedGroupLoss(SquareLoss(0, 1), upper_bound=2 * bound))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(task.X_train, y, sensitive_features=task.a_train)
    seconds = time.perf_counter() - start
    weights = np.asarray(model.weights_, dtype=float)
    keep = np.flatnonzero(weights > 0)
    regressors = [LinearRegressor(model.predictors_[i].coef_.copy(), float(model.predictors_[i].intercept_))
                  for i in keep]
    return FairRegressionPredictor(regressors, weights[keep] / weights[keep].sum(), task.scaling,
                                   task.X_train.shape[1]), seconds


def _bgl_row(task: Task, method: str, bound: float, predictor: FairRegressionPredictor, seconds: float,
             feasible: Any) -> dict[str, Any]:
    train = evaluate_predictor(predictor, task.X_train, task.y_train, task.a_train, "square", GRID_SIZE)
    test = evaluate_predictor(predictor, task.X_test, task.y_test, task.a_test, "square", GRID_SIZE)
    return {"task": task.name, "method": method, "bound": bound, "train_loss": train["loss"],
            "train_max": max(train["group_losses"].values()), "test_loss": test["loss"],
            "test_max": max(test["group_losses"].values()), "feasible": feasible, "seconds": seconds}


def run_bgl(task: Task, targets: Targets) -> list[dict[str, Any]]:
    worst, bound, impossible = bgl_bounds(task)
    start = time.perf_counter()
    ours = fit_bounded_group_loss(task.X_train, task.y_train, task.a_train, bound)
    ours_seconds = time.perf_counter() - start
    theirs, theirs_seconds = fairlearn_bgl(task, bound)
    rows = [_bgl_row(task, "Algorithm 2", bound, ours.predictor, ours_seconds, ours.feasible),
            _bgl_row(task, "fairlearn", bound, theirs, theirs_seconds, "-")]
    infeasible = fit_bounded_group_loss(task.X_train, task.y_train, task.a_train, impossible)
    rows.append(_bgl_row(task, "Algorithm 2 (infeasible bound)", impossible, infeasible.predictor, 0.0,
                         infeasible.feasible))
    mine, other = rows[0], rows[1]
    targets.check(f"BGL {task.name}: overall loss no higher than fairlearn's (bound {bound:.4f} on {worst})",
                  mine["train_loss"] <= other["train_loss"] + LOSS_TIE,
                  f"train loss {mine['train_loss']:.6f} vs fairlearn {other['train_loss']:.6f}")
    targets.check(f"BGL {task.name}: max group loss <= bound + {BGL_MARGIN}",
                  mine["train_max"] <= bound + BGL_MARGIN and ours.feasible,
                  f"train max {mine['train_max']:.5f}, bound {bound:.5f}, feasible={ours.feasible}"
                  f" (test max {mine['test_max']:.5f})")
    targets.check(f"BGL {task.name}: bound below the worst group's own optimum reported infeasible",
                  not infeasible.feasible, f"bound {impossible:.5f}, feasible={infeasible.feasible}")
    if task.name.startswith("adult"):
        speedup = theirs_seconds / max(ours_seconds, 1e-9)
        targets.check(f"BGL {task.name}: at least {BGL_SPEEDUP:g}x faster than fairlearn (linear learners)",
                      speedup >= BGL_SPEEDUP, f"{ours_seconds:.2f} s vs {theirs_seconds:.2f} s ({speedup:.1f}x)")
    return rows


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small tasks and 5 slacks (smoke run)")
    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    begin = time.perf_counter()
    slacks = QUICK_SLACKS if args.quick else SLACKS
    targets = Targets(NAME)
    tasks = load_tasks(args.quick)
    all_runs, run_rows, text = [], [], []
    for task in tasks:
        base: dict[str, Any] = {"unconstrained": unconstrained(task)}
        if task.loss == "square":
            base["seo"] = seo(task)
        else:
            start = time.perf_counter()
            base["fc"] = fair_classification(task, slacks)
            base["fc_front"] = _front(base["fc"])
            run_rows.append([task.name, "FC (fairlearn)", time.perf_counter() - start, len(slacks), "-", "-", "-",
                             len(base["fc_front"])])
        runs = []
        for label, oracle, learner in methods(task, args.quick):
            run = run_sp(task, label, oracle, learner, slacks)
            runs.append(run)
            run_rows.append([task.name, label, run["seconds"], len(slacks), run["converged"], run["iterations"],
                             run["calls"], len(run["front"])])
            print(f"{task.name}: {label} swept {len(slacks)} slacks in {run['seconds']:.1f} s", flush=True)
        sp_targets(targets, task, runs, base)
        if task.name == ("adult (2,000)" if args.quick else "adult"):
            ls = next(r for r in runs if r["label"] == "LS linear")
            targets.check(f"SP {task.name} LS linear, N = {GRID_SIZE}, {len(slacks)} slacks: under {SP_SECONDS:g} s",
                          ls["seconds"] < SP_SECONDS, f"{ls['seconds']:.1f} s for the sweep"
                          f" ({ls['seconds'] / len(slacks):.2f} s per fit)")
        table = sp_table(task, runs, base)
        text.append(f"### {task.name} — {task.loss} loss, Pareto front (selected on training)\n\n{table}")
        print(f"\n### {task.name}\n\n{table}\n", flush=True)
        all_runs.append((task, runs, base))
    runs_table = markdown_table(["task", "method", "seconds", "fits", "converged", "iterations", "oracle calls",
                                 "frontier points"], run_rows, digits=1)
    print(f"\n### Sweep cost\n\n{runs_table}\n")
    bgl_rows = []
    for task in tasks:
        bgl_rows += run_bgl(task, targets)
    bgl_table = markdown_table(
        ["task", "method", "bound", "train loss", "train max group loss", "test loss", "test max group loss",
         "feasible", "seconds"],
        [[r["task"], r["method"], r["bound"], r["train_loss"], r["train_max"], r["test_loss"], r["test_max"],
          r["feasible"], r["seconds"]] for r in bgl_rows], digits=5)
    print(f"\n### Bounded group loss (square loss, linear least squares)\n\n{bgl_table}\n")
    plot(all_runs)
    elapsed = time.perf_counter() - begin
    mode = "quick" if args.quick else "full"
    write_text(NAME, "statistical_parity.md", "\n\n".join(text))
    write_text(NAME, "runs.md", runs_table)
    write_text(NAME, "bounded_group_loss.md", bgl_table)
    print(f"\nTotal run time ({mode}): {elapsed:.0f} s")
    write_text(NAME, "run_time.md", f"{mode} run: {elapsed:.0f} s")
    return targets.finish()


if __name__ == "__main__":
    sys.exit(main())
