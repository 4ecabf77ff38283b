"""DataSift with an accuracy guard (beyond the paper, issue 18) on Adult (sex) and COMPAS (race).

Protocol: ``bench/datasift.py``'s (the paper's Section 4.1.3: a biased training
sample, train:test:pool = 1:4:15, budget 20 % of the pool, batch 10 % of the
budget, threshold 0.01, α = 0.1, logistic regression, GMM partitions on features
plus groups, |DP| on the test set, 5 seeds), with one change every method here
shares: a **validation split** of 2 parts (twice the training set) is drawn at
random out of the pool (so the pool is 13 parts, and the budget 20 % of that).
The guard and the accuracy reward measure accuracy on the validation split only;
the tables report |DP| and accuracy on the test split. Fairness decisions stay on
the test split, as in the paper's Algorithm 1 and the reproduction.

Methods: Random; DataSift (paper: β = 0, no guard, reward_scale none); guarded
DataSift and guarded DataSift-Inf (β = GUARD_BETA, δ = GUARD_DELTA, reward_scale
running_max so that β weighs the scaled parts alike, acceptance "objective": a batch
is kept when ΔF/s_F + β·ΔA/s_A > 0 and the δ guard holds); the same at the first
β (FIRST_BETA); and the first β with the first guard's acceptance rule ("fairness":
|F| must fall, as in Algorithm 1). β = 1 and δ were fixed before any run of this
script; the objective acceptance rule was added after the first run's results
(COMPAS missed the accuracy target), and was chosen by reasoning, not tuned on them
(docs/benchmarks.md says what was seen). GUARD_BETA = 4 replaced β = 1 in the fifth
round, chosen in a holdout world drawn out of the pool by a rule registered before
its runs (docs/DECISIONS.md); the β = 1 rows stay in the table. A sweep over β × δ ×
acceptance (both methods, SWEEP_SEEDS seeds) is plotted as final |DP| against test
accuracy, with the paper's defaults marked.

Beyond those fixed settings, "β and δ chosen on validation" rows make the choice
part of the method, as a client would: the validation split is halved at random;
per seed, among SELECT_GRID (objective acceptance) run with accuracy decisions on
the first half, the setting whose final model has the lowest |DP| on the second
half among those whose accuracy there is at least Random's minus VALIDATION_MARGIN
(else the one with the best accuracy there). Nothing of the test split enters the
choice. This rule was added after the second run's test results; the halves
replaced one split doing both jobs in the fifth round, by the same registered
holdout rule (docs/benchmarks.md says what had been seen).

After the third run, guarded DataSift-Inf's managed runs (objective acceptance)
lay the guard's tiers out for one end: every candidate within the guard before
any outside it. That is a change in ``service.algorithms.datasift``, not here;
it was chosen on data apart from the test split (docs/DECISIONS.md says how).

Run: ``.venv/bin/python -m bench.datasift_guard [--quick]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # many small fits: BLAS threads only contend

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from bench.data import standardize  # noqa: E402
from bench.datasift import BATCHES_PER_BUDGET, BUDGET_FRACTION, DATASETS, THRESHOLD, biased_split  # noqa: E402
from bench.datasift import partition_space as datasift_partition_space  # noqa: E402
from bench.report import Targets, markdown_table, redirect_quick, results_dir, write_text  # noqa: E402
from service.algorithms import metrics  # noqa: E402
from service.algorithms.datasift import BanditConfig, fit_logistic  # noqa: E402
from service.algorithms.datasift.baselines import run_baseline  # noqa: E402
from service.algorithms.datasift.partitions import partition_pool  # noqa: E402
from service.algorithms.datasift.run import LabeledData, run_acquisition  # noqa: E402

NAME = "datasift_guard"
VALIDATION_PARTS = 2  # of the 20 parts (1:4:15): taken at random out of the pool's 15
ACCURACY_POINTS = 0.02
FIRST_BETA, GUARD_DELTA = 1.0, 0.01  # fixed before the first run; not tuned on test results
GUARD_BETA = 4.0  # fifth round: the registered holdout rule's pick of {1, 2, 4}; the test split unread
FIRST_GUARD = {"accuracy_weight": FIRST_BETA, "accuracy_tolerance": GUARD_DELTA, "reward_scale": "running_max"}
GUARDED = {**FIRST_GUARD, "accuracy_weight": GUARD_BETA, "acceptance": "objective"}
FIRST_BETA_GUARDED = {**FIRST_GUARD, "acceptance": "objective"}
MAIN = {
    "Random": None,
    "DataSift (paper)": {"batch_selection": "random"},
    "DataSift-Inf (paper)": {"batch_selection": "influence"},
    "guarded DataSift": {"batch_selection": "random", **GUARDED},
    "guarded DataSift-Inf": {"batch_selection": "influence", **GUARDED},
    "guarded DataSift, β = 1 (rounds 2-4)": {"batch_selection": "random", **FIRST_BETA_GUARDED},
    "guarded DataSift-Inf, β = 1 (rounds 2-4)": {"batch_selection": "influence", **FIRST_BETA_GUARDED},
    "first guard DataSift (fairness acceptance)": {"batch_selection": "random", **FIRST_GUARD},
    "first guard DataSift-Inf (fairness acceptance)": {"batch_selection": "influence", **FIRST_GUARD},
}
SWEEP_BETA = (0.0, 1.0, 4.0)
SWEEP_DELTA = (None, 0.0, 0.01, 0.03)
OBJECTIVE_BETA, OBJECTIVE_DELTA = (0.25, 1.0, 4.0), (None, 0.01, 0.03)
QUICK_BETA, QUICK_DELTA = (0.0, 1.0), (None, 0.01)
OBJECTIVE = " objective"  # the suffix of a sweep setting with acceptance "objective"
SWEEP_SEEDS = 3
SELECT_GRID = tuple((beta, delta) for beta in OBJECTIVE_BETA for delta in OBJECTIVE_DELTA if delta is not None)
# The choice is scored on a half the acceptance rule never saw, so Random's accuracy there is the bar
# as it is (rounds 3-4 scored on the acceptance's own split, optimistic, and allowed 1 point).
VALIDATION_MARGIN = 0.0
SELECTION_RUN = ", acceptance on half"  # the suffix of a grid run whose accuracy decisions use half the split
SHORT = {"random": "DataSift", "influence": "DataSift-Inf"}  # batch_selection -> the method's name in labels
SELECTED = {"random": "guarded DataSift, β and δ chosen on validation",
            "influence": "guarded DataSift-Inf, β and δ chosen on validation"}
DP = "\\|DP\\|"


def halves(valid: LabeledData, seed: int) -> tuple[LabeledData, LabeledData]:
    """The validation split in two random halves: (accuracy decisions, scoring the choice)."""
    order = np.random.default_rng([seed, 4]).permutation(len(valid))
    first, second = order[:len(order) // 2], order[len(order) // 2:]
    return tuple(LabeledData(valid.X[i], valid.y[i], valid.groups[i]) for i in (first, second))  # type: ignore[return-value]


def split(dataset: str, seed: int, holdout: bool = False) -> tuple[LabeledData, LabeledData, LabeledData, LabeledData]:
    """(train, validation, test, pool): the reproduction's split, then a validation split out of the pool.

    With ``holdout`` the test split is left out unread and as many points as the validation
    split holds, drawn out of the pool, take its place (``bench/datasift_guard_holdout.py``).
    """
    loader, attribute = DATASETS[dataset]
    table = loader()
    groups = table.sensitive[attribute]
    tr, te, po = biased_split(table.y, groups, np.random.default_rng([seed, 0]))
    po = np.random.default_rng([seed, 3]).permutation(po)
    va, po = po[:VALIDATION_PARTS * len(tr)], po[VALIDATION_PARTS * len(tr):]
    Xtr, Xva, Xte, Xpo = standardize(table.X[tr], table.X[va], table.X[te], table.X[po])
    train, valid, test, pool = (LabeledData(X, table.y[i], groups[i]) for X, i in
                                ((Xtr, tr), (Xva, va), (Xte, te), (Xpo, po)))
    if holdout:
        order = np.random.default_rng([seed, 9]).permutation(len(pool))
        test, pool = (LabeledData(pool.X[i], pool.y[i], pool.groups[i])
                      for i in (order[:len(valid)], order[len(valid):]))
    return train, valid, test, pool


def run_seed(dataset: str, seed: int, methods: dict[str, dict | None], holdout: bool = False) -> dict:
    train, valid, test, pool = split(dataset, seed, holdout)
    deciding, scoring = halves(valid, seed)
    K = int(BUDGET_FRACTION * len(pool)) // BATCHES_PER_BUDGET
    B = BATCHES_PER_BUDGET * K
    partitioning = partition_pool(datasift_partition_space(pool, True), pool.y, pool.groups,
                                  rng=np.random.default_rng([seed, 1]))
    out = {"sizes": (len(train), len(valid), len(test), len(pool)), "K": K, "B": B, "runs": {}}
    for label, opts in methods.items():
        rng = np.random.default_rng([seed, 2])
        start = time.perf_counter()
        if opts is None:
            result = run_baseline("random", pool, train, test, budget=B, batch_size=K, rng=rng)
        else:
            config = BanditConfig(batch_size=K, budget=B, fairness_threshold=THRESHOLD, alpha=0.1, **opts)
            result = run_acquisition(pool, train, test, config, rng, partitioning=partitioning,
                                     validation=deciding if label.endswith(SELECTION_RUN) else valid)
        seconds = time.perf_counter() - start
        out["runs"][label] = {"final": abs(result.final_fairness), "accuracy": result.final_accuracy,
                              "initial": (abs(result.initial_fairness), result.initial_accuracy),
                              "acquired": len(result.acquired), "evaluations": result.evaluations,
                              "stop": result.stop_reason, "seconds": seconds,
                              "validation": validation_scores(train, pool, scoring, result.acquired)}
        if holdout:  # the rounds 3-4 choice scored the whole split
            out["runs"][label]["whole validation"] = validation_scores(train, pool, valid, result.acquired)
    return out


def validation_scores(train: LabeledData, pool: LabeledData, valid: LabeledData,
                      acquired: np.ndarray) -> tuple[float, float]:
    """(|DP|, accuracy) on the validation split of the model trained on train plus the acquired points."""
    model = fit_logistic(np.vstack([train.X, pool.X[acquired]]), np.concatenate([train.y, pool.y[acquired]]))
    proba = model.predict_proba(valid.X)
    accuracy = float(((proba >= metrics.POSITIVE_THRESHOLD) == valid.y).mean())
    return float(metrics.demographic_parity(proba, valid.groups).disparity), accuracy


def select_on_validation(seed: dict, labels: list[str], margin: float = VALIDATION_MARGIN,
                         scored: str = "validation") -> str:
    """The setting chosen on the scoring half alone: lowest |DP| there within the accuracy margin of Random's."""
    random_accuracy = seed["runs"]["Random"][scored][1]
    scores = {label: seed["runs"][label][scored] for label in labels}
    eligible = [label for label in labels if scores[label][1] >= random_accuracy - margin]
    if not eligible:
        return max(labels, key=lambda label: scores[label][1])
    return min(eligible, key=lambda label: (scores[label][0], -scores[label][1]))


def add_selected(seeds: list[dict]) -> dict[str, list[str]]:
    """Put each seed's validation-chosen run under SELECTED's names; return the choices per method."""
    choices: dict[str, list[str]] = {name: [] for name in SELECTED.values()}
    grid = select_methods()
    for seed in seeds:
        for selection, name in SELECTED.items():
            labels = [label for label, opts in grid.items() if opts["batch_selection"] == selection]
            chosen = select_on_validation(seed, labels)
            seed["runs"][name] = seed["runs"][chosen]
            choices[name].append(chosen.split(" ", 1)[1].removesuffix(SELECTION_RUN).removesuffix(OBJECTIVE))
    return choices


def grid_methods() -> dict[str, dict]:
    """SELECT_GRID's settings, named as the sweep names them."""
    return sweep_methods((), (), tuple(sorted({b for b, _ in SELECT_GRID})), tuple(sorted({d for _, d in SELECT_GRID})))


def select_methods() -> dict[str, dict]:
    """SELECT_GRID's runs for the choice on validation: accuracy decisions on one half of the split."""
    return {label + SELECTION_RUN: opts for label, opts in grid_methods().items()}


def sweep_methods(betas, deltas, objective_betas, objective_deltas) -> dict[str, dict]:
    methods = {}
    for selection, short in SHORT.items():
        for acceptance, bs, ds in (("fairness", betas, deltas), ("objective", objective_betas, objective_deltas)):
            for beta in bs:
                for delta in ds:
                    if beta == 0 and delta is None:
                        continue  # the paper's point is in MAIN
                    suffix = OBJECTIVE if acceptance == "objective" else ""
                    methods[f"{short} β={beta:g} δ={'none' if delta is None else f'{delta:g}'}{suffix}"] = {
                        "batch_selection": selection, "accuracy_weight": beta, "accuracy_tolerance": delta,
                        "reward_scale": "running_max", "acceptance": acceptance}
    return methods


def mean_of(seeds: list[dict], label: str, key: str) -> tuple[float, float]:
    values = [s["runs"][label][key] for s in seeds]
    return float(np.mean(values)), float(np.std(values))


def main_table(dataset: str, seeds: list[dict], choices: dict[str, list[str]]) -> str:
    first = seeds[0]
    n_train, n_valid, n_test, n_pool = first["sizes"]
    head = (f"### {dataset}: train {n_train}, validation {n_valid}, test {n_test}, pool {n_pool}; budget "
            f"{first['B']}, batch {first['K']}; {len(seeds)} seeds; test split\n")
    rows = []
    for label in list(MAIN) + list(choices):
        final, final_sd = mean_of(seeds, label, "final")
        acc, acc_sd = mean_of(seeds, label, "accuracy")
        rows.append([label, f"{final:.3f} ± {final_sd:.3f}", f"{acc:.3f} ± {acc_sd:.3f}",
                     f"{mean_of(seeds, label, 'acquired')[0]:.0f}", f"{mean_of(seeds, label, 'evaluations')[0]:.1f}",
                     "/".join(sorted({s["runs"][label]["stop"] for s in seeds})),
                     f"{mean_of(seeds, label, 'seconds')[0]:.1f}"])
    initial = np.mean([s["runs"]["Random"]["initial"] for s in seeds], axis=0)
    rows.append(["initial model", f"{initial[0]:.3f}", f"{initial[1]:.3f}", "0", "", "", ""])
    chosen = "".join(f"\n{name}, per seed: {'; '.join(picks)}." for name, picks in choices.items())
    return head + "\n" + markdown_table(["method", f"final {DP}", "test accuracy", "acquired", "evaluations",
                                         "stop", "seconds"], rows) + "\n" + chosen


def sweep_table(dataset: str, seeds: list[dict], labels: list[str]) -> str:
    rows = [[label, mean_of(seeds, label, "final")[0], mean_of(seeds, label, "accuracy")[0],
             mean_of(seeds, label, "acquired")[0]] for label in labels]
    return (f"### {dataset}: β × δ sweep ({len(seeds)} seeds, reward_scale running_max; settings ending in "
            f"'objective' use acceptance objective, the others fairness; test split)\n\n"
            + markdown_table(["setting", f"final {DP}", "test accuracy", "acquired"], rows))


def plot(frontiers: dict[str, dict[str, tuple[float, float]]]) -> None:
    fig, axes = plt.subplots(1, len(frontiers), figsize=(6 * len(frontiers), 4.5), squeeze=False)
    for ax, (dataset, points) in zip(axes[0], frontiers.items(), strict=True):
        for short, marker in (("DataSift", "o"), ("DataSift-Inf", "s")):
            for rule, color in (("fairness", "C0"), ("objective", "C1")):
                mine = {k: v for k, v in points.items() if k.split(" ")[0] == short and "β=" in k
                        and k.endswith(OBJECTIVE) == (rule == "objective")}
                ax.scatter([v[1] for v in mine.values()], [v[0] for v in mine.values()], marker=marker, alpha=0.7,
                           facecolors=color if rule == "objective" else "none", edgecolors=color,
                           label=f"{short}, β × δ sweep, {rule} acceptance")
                for key, (dp, acc) in mine.items():
                    ax.annotate(key.split(" ", 1)[1].removesuffix(OBJECTIVE), (acc, dp), fontsize=5)
            guarded = points[f"guarded {short}"]
            ax.scatter([guarded[1]], [guarded[0]], marker="P", s=120, edgecolor="black",
                       label=f"guarded {short} (β={GUARD_BETA:g}, δ={GUARD_DELTA:g}, objective)")
            first = points[f"guarded {short}, β = 1 (rounds 2-4)"]
            ax.scatter([first[1]], [first[0]], marker="P", s=70, facecolors="none", edgecolor="black",
                       label=f"guarded {short} (β={FIRST_BETA:g}, rounds 2-4)")
            chosen = points[f"guarded {short}, β and δ chosen on validation"]
            ax.scatter([chosen[1]], [chosen[0]], marker="D", s=80, edgecolor="black",
                       label=f"guarded {short}, β and δ chosen on validation")
            paper = points[f"{short} (paper)"]
            ax.scatter([paper[1]], [paper[0]], marker="*", s=200, edgecolor="black",
                       label=f"{short} paper default (β=0, no guard)")
        random = points["Random"]
        ax.scatter([random[1]], [random[0]], marker="X", s=120, color="black", label="Random")
        ax.axvspan(random[1] - ACCURACY_POINTS, random[1] + 0.2, color="green", alpha=0.07,
                   label="within 2 points of Random")
        ax.set(title=dataset, xlabel="test accuracy", ylabel="final |DP| on test (mean of seeds)")
        ax.set_xlim(min(v[1] for v in points.values()) - 0.01, max(v[1] for v in points.values()) + 0.01)
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / "frontier.png", dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds, a 2 × 2 sweep on 1 seed (smoke run)")
    parser.add_argument("--datasets", default="adult,compas")
    parser.add_argument("--no-sweep", action="store_true", help="the main table only")
    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    n_seeds, sweep_seeds = (2, 1) if args.quick else (5, SWEEP_SEEDS)
    sweep = {} if args.no_sweep else sweep_methods(*((QUICK_BETA, QUICK_DELTA, (1.0,), (None, 0.01)) if args.quick
                                                     else (SWEEP_BETA, SWEEP_DELTA, OBJECTIVE_BETA, OBJECTIVE_DELTA)))
    started = time.perf_counter()
    text, targets, frontiers = [], Targets(NAME), {}
    for dataset in args.datasets.split(","):
        seeds = []
        for seed in range(n_seeds):
            seeds.append(run_seed(dataset, seed, {**MAIN, **select_methods(),
                                                  **(sweep if seed < sweep_seeds else {})}))
            print(f"{dataset} seed {seed} done ({time.perf_counter() - started:.0f} s)", flush=True)
        choices = add_selected(seeds)
        text.append(main_table(dataset, seeds, choices))
        final = {m: mean_of(seeds, m, "final")[0] for m in list(MAIN) + list(choices)}
        acc = {m: mean_of(seeds, m, "accuracy")[0] for m in list(MAIN) + list(choices)}
        for m in ("guarded DataSift", "guarded DataSift-Inf", *choices):
            targets.check(f"{dataset}: {m} ends with lower {DP} than Random", final[m] < final["Random"],
                          f"{final[m]:.3f} vs {final['Random']:.3f}")
            targets.check(f"{dataset}: {m} accuracy within 2 points of Random's",
                          acc[m] >= acc["Random"] - ACCURACY_POINTS, f"{acc[m]:.3f} vs {acc['Random']:.3f}")
        if sweep:
            swept = seeds[:sweep_seeds]
            text.append(sweep_table(dataset, swept, list(MAIN) + list(sweep)))
            frontiers[dataset] = {m: (mean_of(swept, m, "final")[0], mean_of(swept, m, "accuracy")[0])
                                  for m in list(MAIN) + list(sweep) + list(choices)}
    if frontiers:
        plot(frontiers)
    report = "\n\n".join(text)
    print(report)
    write_text(NAME, "tables.md", report)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return targets.finish()


if __name__ == "__main__":
    sys.exit(main())
