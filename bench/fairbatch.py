"""Reproduce FairBatch's Tables 1, 2 and 4 (Roh et al., ICLR 2021) with the service's scheduler.

    .venv/bin/python -m bench.fairbatch            # 10 seeds, the paper's settings
    .venv/bin/python -m bench.fairbatch --quick    # 2 seeds, a quarter of the epochs (smoke run)
    .venv/bin/python -m bench.fairbatch --tune     # pick lr and step size on validation data

Protocol (Section 4: "We evaluate all models on separate test sets and repeat all
experiments with 10 different random seeds"; B.1: "the ratios of the train versus test
data for the synthetic and real datasets are 2:1 and 4:1"): each dataset has one fixed
train/test split and the 10 seeds vary training only (initial weights and batches), as in
the paper's released experiments. The synthetic data is one draw of Section 4's generator
(SPEC §5.4's rotation, 3,000 examples, the first 2,000 train, the rest test); the real data
is split 4:1 once, stratified by (label, group). The draw and the split use `DATA_SEED`,
fixed before any result was seen. COMPAS (ProPublica filter, African-American and Caucasian
rows, 5,278 as in the paper) and Adult use gender as the sensitive attribute; the label is
the favourable outcome as in AI Fairness 360 (COMPAS: no two-year recidivism; Adult: >50K).
The sensitive attribute is a feature. Disparities are measured on the test split as in
the paper (each group against the overall rate) at the last epoch; "train ... disparity"
is the same on the training rows the controller saw. The ± is the spread over training
seeds on that one test split (the paper's ± too). "test SE" is the bootstrap standard
error of the test disparity over test rows: the sampling noise of the one test split,
which averaging training seeds does not remove (a disparity is an absolute value, so noise
of that size lifts it by about 0.8 SE even for a model fair on the population).
Hyperparameters were chosen on a validation fifth of the training split (`--tune`,
tuning.md), never on the test split.

The reference loop (:mod:`bench.fairbatch_training`) reports each cell's 0/1 error rate
on its training data before every epoch: the paper's disparities are defined on 0/1
predictions, and Appendix A.1 (demographic parity) is exact for the 0/1 loss.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # 2 shared cores: one BLAS thread

import argparse  # noqa: E402
import itertools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.stats import multivariate_normal  # noqa: E402

from bench.data import load_adult, load_compas, standardize  # noqa: E402
from bench.fairbatch_training import Problem, TrainConfig, TrainResult, train  # noqa: E402
from bench.report import Targets, markdown_table, results_dir, write_text  # noqa: E402
from service.algorithms.metrics import (  # noqa: E402
    MetricResult,
    demographic_parity,
    equal_opportunity,
    equalized_odds,
)

NAME = "fairbatch"
METRIC_SHORT = {"equal_opportunity": "EO", "demographic_parity": "DP", "equalized_odds": "ED"}
BOOTSTRAP = 200


@dataclass(frozen=True)
class Run:
    """FairBatch's settings for one metric: epochs (the paper's), Adam learning rate, step size α,
    and Appendix B.5's threshold T (λ moves only while the largest disparity exceeds T)."""

    epochs: int
    lr: float
    step_size: float
    threshold: float = 0.0


@dataclass(frozen=True)
class Setting:
    """One dataset: the paper's batch size, the plain-LR baseline, and FairBatch per metric."""

    dataset: str
    batch_size: int
    lr: float
    lr_epochs: int
    fairbatch: dict[str, Run]


# Batch sizes and epochs are the paper's (Section 4 and Tables 1, 2, 4). The LR baseline uses
# SPEC §5.4's learning rate. FairBatch's learning rate and step size come from `--tune`
# (bench/results/fairbatch/tuning.md): a grid on a validation fifth held out of the fixed
# training split, never the test split. Synthetic EO keeps SPEC §5.4's configuration (lr 0.0005,
# step 0.005, batch 100, 300 epochs), which SPEC fixes and the paper's released code uses; its 400
# validation rows cannot tell the grid apart (late disparity 0.061-0.069 everywhere). Appendix
# B.5's threshold T (0.01-0.04) left synthetic DP unchanged on validation — A.1's negative-label
# disparity never falls below it (see service/algorithms/fairbatch_disparity.py) — so T = 0.
SETTINGS = {
    "synthetic": Setting("synthetic", 100, 0.0005, 400, {
        "equal_opportunity": Run(300, 0.0005, 0.005),
        "demographic_parity": Run(450, 0.001, 0.005),
        "equalized_odds": Run(400, 0.0005, 0.001),
    }),
    "compas": Setting("compas", 200, 0.0005, 300, {
        "equal_opportunity": Run(100, 0.005, 0.0005),
        "demographic_parity": Run(300, 0.0005, 0.001),
        "equalized_odds": Run(100, 0.005, 0.005),
    }),
    "adult": Setting("adult", 1000, 0.0005, 300, {
        "equal_opportunity": Run(400, 0.002, 0.001),
        "demographic_parity": Run(600, 0.0005, 0.001),
        "equalized_odds": Run(500, 0.002, 0.0005),
    }),
    "adult_race": Setting("adult_race", 1000, 0.0005, 300, {
        "equal_opportunity": Run(400, 0.0005, 0.0005),
    }),
}

# Selection in --tune: among settings meeting the bound on validation data (the target,
# or the paper's value rounded up where the issue sets none), those within this accuracy of the
# best one are ties — the validation sets measure accuracy no finer — and the lowest disparity wins.
TUNE_ACCURACY_TIE = 0.002
TUNE_BOUNDS = {
    ("synthetic", "equal_opportunity"): 0.015, ("synthetic", "demographic_parity"): 0.045,
    ("synthetic", "equalized_odds"): 0.04, ("compas", "equal_opportunity"): 0.03,
    ("compas", "demographic_parity"): 0.04, ("compas", "equalized_odds"): 0.06,
    ("adult", "equal_opportunity"): 0.015, ("adult", "demographic_parity"): 0.015,
    ("adult", "equalized_odds"): 0.04, ("adult_race", "equal_opportunity"): None,
}
TUNE_GRID = {  # dataset -> (learning rates, step sizes)
    "synthetic": ([0.0005, 0.00075, 0.001], [0.001, 0.005, 0.01]),
    "compas": ([0.0005, 0.005], [0.0005, 0.001, 0.005, 0.01]),
    "adult": ([0.0005, 0.002], [0.0005, 0.001, 0.005, 0.01]),
    "adult_race": ([0.0005], [0.0005, 0.001, 0.005, 0.01]),
}
# Appendix B.5's threshold T, searched with the grid above where the paper draws its trade-off
# curve (Fig. 6: EO and DP on the synthetic data); 0 elsewhere.
TUNE_THRESHOLDS = {
    ("synthetic", "demographic_parity"): [0.0, 0.01, 0.02, 0.03, 0.04],
}
VALIDATION_FRACTION = 0.2
# The one synthetic draw and the one train/test split of each real dataset (Section 4, B.1: a
# fixed split, 10 training seeds). Fixed to 0, the first seed of the earlier per-seed replicates,
# before any result of this protocol was seen; never chosen by looking at test results.
DATA_SEED = 0
TUNE_TAIL = 4  # score the last 1/TUNE_TAIL of the recorded epochs

# --- data ------------------------------------------------------------------------------------


def synthetic(seed: int, n: int = 3000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Section 4's data (Zafar et al.): two Gaussians for y, z biased through the rotated x."""
    rng = np.random.default_rng([seed, 1])
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


def _stratified(y: np.ndarray, z: np.ndarray, rows: np.ndarray, fraction: float, rng: np.random.Generator):
    held = []
    for cell in np.unique(y[rows] * 1000 + z[rows]):
        members = rng.permutation(rows[y[rows] * 1000 + z[rows] == cell])
        held.append(members[: int(round(fraction * len(members)))])
    held = np.sort(np.concatenate(held))
    return np.setdiff1d(rows, held), held


def make_problem(dataset: str, seeds: list[int], validation: bool = False) -> Problem:
    """One fixed train/test split shared by every seed (Section 4, B.1); the seeds vary training only.

    With ``validation`` the test rows are dropped and a fifth of the training rows is held out
    instead (Section 4: "cross-validation on the training set"), so tuning never sees a test row.
    """
    if dataset == "synthetic":
        X, y, z = synthetic(DATA_SEED)  # already shuffled: the first 2,000 rows train, the rest test (2:1)
        train, test = np.arange(2000), np.arange(2000, 3000)
        if validation:  # the last fifth of the training rows
            train, test = np.arange(1600), np.arange(1600, 2000)
        groups = [0, 1]
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
        train, test = _stratified(y, z, np.arange(len(y)), 0.2, rng)  # 4:1
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


def late_scores(problem: Problem, result: TrainResult, metric: str, pairwise: bool) -> tuple[float, float]:
    """Accuracy and disparity averaged over seeds and the last quarter of the recorded epochs.

    Tuning scores a setting by how it behaves late in training rather than at its last
    epoch alone: a large step size can leave λ, and the disparity, oscillating, and one
    epoch's phase of that oscillation says little about the setting.
    """
    tail = result.curve_predictions[-max(1, len(result.curve_epochs) // TUNE_TAIL):]
    acc, disp = [], []
    for preds in tail:
        for s in range(problem.seeds):
            rows = problem.test[s]
            m = _metric(metric, preds[s].astype(int), problem.y[rows], problem.z[rows])
            acc.append(np.mean(preds[s] == problem.y[rows]))
            disp.append(m.disparity if pairwise else m.disparity_vs_overall)
    return float(np.mean(acc)), float(np.mean(disp))


def _pm(values: np.ndarray) -> str:
    return f"{np.mean(values):.3f} ± {np.std(values):.3f}"


# --- experiments -----------------------------------------------------------------------------


def run_dataset(dataset: str, metrics: list[str], seeds: list[int], scale: float, log) -> dict:
    """LR once (evaluated for every metric) and FairBatch per metric on one dataset."""
    setting = SETTINGS[dataset]
    problem = make_problem(dataset, seeds)
    epochs = max(1, int(setting.lr_epochs * scale))
    lr_run = train(problem, TrainConfig(epochs, setting.batch_size, setting.lr, curve_every=5), seeds)
    log(f"{dataset}: LR {epochs} epochs in {lr_run.seconds:.0f}s")
    out = {"problem": problem, "LR": (lr_run, epochs), "FairBatch": {}}
    for metric in metrics:
        fb = setting.fairbatch[metric]
        epochs = max(1, int(fb.epochs * scale))
        config = TrainConfig(epochs, setting.batch_size, fb.lr, metric=metric, step_size=fb.step_size,
                             threshold=fb.threshold, reported_loss="zero_one", curve_every=5)
        run = train(problem, config, seeds)
        log(f"{dataset}: FairBatch {METRIC_SHORT[metric]} {epochs} epochs in {run.seconds:.0f}s")
        out["FairBatch"][metric] = (run, epochs)
    return out


def table(metric: str, runs: dict[str, dict], datasets: list[str]) -> tuple[str, dict]:
    rows, scores = [], {}
    for dataset in datasets:
        for method in ("LR", "FairBatch"):
            problem = runs[dataset]["problem"]
            run, epochs = runs[dataset]["LR"] if method == "LR" else runs[dataset]["FairBatch"][metric]
            s = evaluate(problem, run, metric)
            scores[(method, dataset)] = s
            rows.append([dataset, method, _pm(s.accuracy), _pm(s.disparity), f"{s.se:.3f}",
                         _pm(s.train_disparity), epochs])
    short = METRIC_SHORT[metric]
    headers = ["dataset", "method", "accuracy", f"{short} disparity", "test SE", f"train {short} disparity",
               "epochs"]
    return markdown_table(headers, rows), scores


def plot(runs: dict[str, dict], path) -> None:
    """Seed-mean test disparity against the epoch: metrics by row, datasets by column."""
    datasets = ["synthetic", "compas", "adult", "adult_race"]
    fig, axes = plt.subplots(3, 4, figsize=(16, 9.5))
    for row, metric in enumerate(METRIC_SHORT):
        for col, dataset in enumerate(datasets):
            ax = axes[row, col]
            if metric not in runs[dataset]["FairBatch"]:
                ax.axis("off")
                continue
            problem, pairwise = runs[dataset]["problem"], dataset == "adult_race"
            for method, (run, _) in (("LR", runs[dataset]["LR"]), ("FairBatch", runs[dataset]["FairBatch"][metric])):
                ax.plot(run.curve_epochs, curve(problem, run, metric, pairwise), label=method)
            short = METRIC_SHORT[metric]
            ax.set_title(f"{dataset}: {short}" + (" (largest pairwise gap)" if pairwise else ""))
            ax.set_xlabel("epoch")
            ax.set_ylabel(f"test {short} disparity")
            ax.set_ylim(bottom=0)
            ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def tune(seeds: list[int], log) -> None:
    """Grid over lr, step size (and T) on validation data: a fifth of the fixed training split.

    Epochs are scaled up by the training rows held out, so a run takes as many Adam steps as
    the final one does; a setting is scored by :func:`late_scores`.
    """
    lines = []
    for dataset, (rates, steps) in TUNE_GRID.items():
        problem = make_problem(dataset, seeds, validation=True)
        setting = SETTINGS[dataset]
        for metric, fb in setting.fairbatch.items():
            epochs = int(round(fb.epochs / (1 - VALIDATION_FRACTION)))
            results = []
            for lr, step, threshold in itertools.product(rates, steps,
                                                         TUNE_THRESHOLDS.get((dataset, metric), [0.0])):
                config = TrainConfig(epochs, setting.batch_size, lr, metric=metric, step_size=step,
                                     threshold=threshold, reported_loss="zero_one")
                run = train(problem, config, seeds)
                results.append((lr, step, *late_scores(problem, run, metric, dataset == "adult_race"), threshold))
                log(f"tune {dataset} {METRIC_SHORT[metric]} lr={lr} step={step} T={threshold}: "
                    f"acc={results[-1][2]:.4f} disp={results[-1][3]:.4f}")
            bound = TUNE_BOUNDS[(dataset, metric)]
            ok = [r for r in results if bound is not None and r[3] <= bound]
            if ok:
                best_acc = max(r[2] for r in ok)
                best = min((r for r in ok if r[2] >= best_acc - TUNE_ACCURACY_TIE), key=lambda r: r[3])
            else:
                best = min(results, key=lambda r: r[3])
            lines.append(f"- {dataset} {METRIC_SHORT[metric]}: lr={best[0]} step={best[1]} T={best[4]} "
                         f"(late validation accuracy {best[2]:.3f}, disparity {best[3]:.4f}; "
                         f"{'meets' if ok else 'no setting meets'} the bound {bound})")
    text = "\n".join(lines)
    print(text)
    write_text(NAME, "tuning.md", f"Chosen on validation data by `--tune` ({len(seeds)} seeds; accuracy and "
               f"disparity averaged over the last 1/{TUNE_TAIL} of the epochs):\n\n" + text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds and a quarter of the epochs")
    parser.add_argument("--tune", action="store_true", help="choose lr and step size on validation data")
    parser.add_argument("--seeds", type=int, default=None)
    args = parser.parse_args(argv)
    seeds = list(range(args.seeds or (2 if args.quick else 10)))
    scale = 0.25 if args.quick else 1.0
    started = time.perf_counter()

    def log(message: str) -> None:
        print(f"[{time.perf_counter() - started:6.0f}s] {message}", flush=True)

    if args.tune:
        tune(seeds[:5], log)
        return 0
    metrics = list(METRIC_SHORT)
    runs = {d: run_dataset(d, metrics, seeds, scale, log) for d in ("synthetic", "compas", "adult")}
    runs["adult_race"] = run_dataset("adult_race", ["equal_opportunity"], seeds, scale, log)
    datasets = ["synthetic", "compas", "adult"]
    targets = Targets(NAME)
    sections = []
    titles = {"equal_opportunity": "Table 1 — equal opportunity (EO)",
              "demographic_parity": "Table 2 — demographic parity (DP)",
              "equalized_odds": "Table 4 (Appendix B.2) — equalized odds (ED)"}
    all_scores = {}
    for metric in metrics:
        text, scores = table(metric, runs, datasets)
        all_scores[metric] = scores
        sections.append(f"### {titles[metric]}, mean ± std over {len(seeds)} seeds\n\n{text}")
    race_rows, race = [], {}
    for method in ("LR", "FairBatch"):
        run, epochs = runs["adult_race"]["LR"] if method == "LR" else runs["adult_race"]["FairBatch"][
            "equal_opportunity"]
        race[method] = s = evaluate(runs["adult_race"]["problem"], run, "equal_opportunity")
        race_rows.append([method, _pm(s.accuracy), _pm(s.pairwise), f"{s.pairwise_se:.3f}", _pm(s.disparity),
                          _pm(s.train_pairwise), epochs])
    problem = runs["adult_race"]["problem"]
    sizes = ", ".join(
        f"{g} {int(np.sum((problem.y[problem.test[0]] == 1) & (problem.z[problem.test[0]] == i)))}"
        for i, g in enumerate(problem.groups)
    )
    sections.append(
        "### Adult with race, equal opportunity (adjacent pairs in the order of the groups below)\n\n"
        f"Positive examples per group in the fixed test split: {sizes}.\n\n"
        + markdown_table(["method", "accuracy", "largest pairwise EO disparity", "test SE",
                          "EO disparity vs overall", "train largest pairwise EO disparity", "epochs"], race_rows)
    )
    text = "\n\n".join(sections)
    print(text)
    protocol = "\n\n".join(__doc__.strip().split("\n\n")[2:])
    write_text(NAME, "tables.md", f"{protocol}\n\nSettings: `SETTINGS` in bench/fairbatch.py.\n\n{text}")
    path = results_dir(NAME) / "disparity_vs_epoch.png"
    plot(runs, path)
    log(f"wrote {path}")

    def check(metric: str, dataset: str, bound: float, accuracy: float) -> None:
        s = all_scores[metric][("FairBatch", dataset)]
        d, a = float(np.mean(s.disparity)), float(np.mean(s.accuracy))
        targets.check(f"{dataset}: {METRIC_SHORT[metric]} disparity <= {bound} with accuracy >= {accuracy}",
                      d <= bound and a >= accuracy, f"disparity {d:.4f}, accuracy {a:.4f}")

    check("equal_opportunity", "synthetic", 0.015, 0.85)
    check("demographic_parity", "synthetic", 0.045, 0.79)
    check("equal_opportunity", "compas", 0.03, 0.67)
    check("equal_opportunity", "adult", 0.015, 0.84)
    lr_gap, fb_gap = float(np.mean(race["LR"].pairwise)), float(np.mean(race["FairBatch"].pairwise))
    targets.check("adult race: largest pairwise EO disparity >= 50% below LR's", fb_gap <= 0.5 * lr_gap,
                  f"FairBatch {fb_gap:.4f} vs LR {lr_gap:.4f} ({1 - fb_gap / lr_gap:.0%} lower)")
    log("done")
    return targets.finish()


if __name__ == "__main__":
    sys.exit(main())
