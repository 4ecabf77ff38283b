"""Reproduce DataSift's Figures 3 and 5 and Table 2 on Adult (sex) and COMPAS (race).

Setting (paper Section 4.1.3): train:test:pool = 1:4:15, the training set drawn
with a bias (the authors' released ``smart_sample``: half of it from the group
with the higher base rate, 90 % of those positive; the other half at random
from the other groups), budget B = 20 % of the pool, batch K = 10 % of B,
threshold 0.01, α = 0.1, logistic regression, GMM partitions chosen by BIC,
|DP| on the test set, 5 seeds. Every method drives ``service.algorithms``:
the bandits through ``run_acquisition`` (``next_decision``/``apply_feedback``),
the flat baselines through ``run_baseline``.

Run: ``.venv/bin/python -m bench.datasift [--quick]``.
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

from bench.data import load_adult, load_compas, standardize  # noqa: E402
from bench.report import Targets, markdown_table, redirect_quick, results_dir, write_text  # noqa: E402
from service.algorithms.datasift import BanditConfig, init_state, next_decision  # noqa: E402
from service.algorithms.datasift.baselines import run_baseline  # noqa: E402
from service.algorithms.datasift.influence import fit_logistic  # noqa: E402
from service.algorithms.datasift.partitions import partition_pool  # noqa: E402
from service.algorithms.datasift.pool import partition_space as datasift_space  # noqa: E402
from service.algorithms.datasift.run import Evaluator, LabeledData, run_acquisition  # noqa: E402

NAME = "datasift"
SPLIT = (1, 4, 15)  # train : test : pool
BUDGET_FRACTION = 0.2  # of the pool
BATCHES_PER_BUDGET = 10  # K = 10 % of B
BIAS_SHARE, BIAS_POSITIVE = 0.5, 0.9  # smart_sample(train_size, 50, 90) in the authors' code
THRESHOLD = 0.01
ACCURACY_POINTS = 0.02
MANAGED_RUN_LIMIT_S = 120.0
DATASETS = {"adult": (load_adult, "sex"), "compas": (load_compas, "race_binary")}
# label -> (kind, options); kind "bandit" runs run_acquisition, "baseline" run_baseline.
MAIN = {
    "Random": ("baseline", {"strategy": "random"}),
    "Entropy": ("baseline", {"strategy": "entropy"}),
    "AutoData": ("bandit", {"reward": "distance"}),
    "DataSift": ("bandit", {}),
    "Inf": ("baseline", {"strategy": "influence"}),
    "DataSift-Inf": ("bandit", {"batch_selection": "influence"}),
}
EXTRA = {
    "DataSift (running_max)": ("bandit", {"reward_scale": "running_max"}),
    "DataSift-Inf (running_max)": ("bandit", {"batch_selection": "influence", "reward_scale": "running_max"}),
    "DataSift (partitions on features only)": ("bandit", {"space": "features"}),
    "DataSift-Inf (influence refreshed)": ("bandit", {"batch_selection": "influence", "refresh": True}),
}
HOLDOUT = ("Random", "DataSift", "DataSift-Inf")
DP = "\\|DP\\|"  # |DP| inside a Markdown table cell
FIGURES = {
    "figure3.png": ["Random", "Entropy", "AutoData", "DataSift"],
    "figure5.png": ["DataSift", "Inf", "DataSift-Inf"],
    "reward_scale.png": ["DataSift", "DataSift (running_max)", "DataSift-Inf", "DataSift-Inf (running_max)"],
}


def biased_split(y: np.ndarray, groups: np.ndarray, rng: np.random.Generator):
    """Indices of (train, test, pool): biased training sample, then a random test/pool split."""
    n = len(y)
    n_train, n_test = n * SPLIT[0] // sum(SPLIT), n * SPLIT[1] // sum(SPLIT)
    values = np.unique(groups)
    favoured = max(values, key=lambda v: y[groups == v].mean())
    n_fav = round(BIAS_SHARE * n_train)
    n_pos = round(BIAS_POSITIVE * n_fav)
    fav = groups == favoured
    train = np.concatenate([
        rng.choice(np.flatnonzero(fav & (y == 1)), n_pos, replace=False),
        rng.choice(np.flatnonzero(fav & (y == 0)), n_fav - n_pos, replace=False),
        rng.choice(np.flatnonzero(~fav), n_train - n_fav, replace=False),
    ])
    rest = rng.permutation(np.setdiff1d(np.arange(n), train))
    return train, rest[:n_test], rest[n_test:]


def partition_space(pool: LabeledData, with_groups: bool) -> np.ndarray:
    """Features the GMM sees: the model's features, plus the standardised group indicators.

    The paper's pool rows carry the sensitive attribute (the model here does not
    see it); clustering on it keeps groups apart in the partitions.
    """
    if not with_groups:
        return pool.X
    values, codes = np.unique(pool.groups, return_inverse=True)
    return datasift_space(pool.X, codes, len(values), method="gmm", include_groups=True, standardize=False)


def curve(result, grid: np.ndarray) -> np.ndarray:
    """|F| of the kept model after acquiring at most x points, for each x in ``grid``."""
    points = [(0, abs(result.initial_fairness))]
    points += [(t["n_acquired"], abs(t["fairness"])) for t in result.trajectory if t["accepted"]]
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    return ys[np.searchsorted(xs, grid, side="right") - 1]


def run_seed(dataset: str, seed: int, methods: dict, holdout: bool = False) -> dict:
    loader, attribute = DATASETS[dataset]
    table = loader()
    groups = table.sensitive[attribute]
    tr, te, po = biased_split(table.y, groups, np.random.default_rng([seed, 0]))
    Xtr, Xte, Xpo = standardize(table.X[tr], table.X[te], table.X[po])
    train, test, pool = (LabeledData(X, table.y[i], groups[i]) for X, i in ((Xtr, tr), (Xte, te), (Xpo, po)))
    K = int(BUDGET_FRACTION * len(pool)) // BATCHES_PER_BUDGET
    B = BATCHES_PER_BUDGET * K
    grid = np.arange(0, B + 1, K)
    out = {"grid": grid, "K": K, "B": B, "sizes": (len(train), len(test), len(pool)), "runs": {}}
    partitions, partition_seconds = {}, {}
    for space in {opts.get("space", "groups") for kind, opts in methods.values() if kind == "bandit"}:
        start = time.perf_counter()
        partitions[space] = partition_pool(partition_space(pool, space == "groups"), pool.y, pool.groups,
                                           rng=np.random.default_rng([seed, 1]))
        partition_seconds[space] = time.perf_counter() - start
    out["partitions"] = [p.size for p in partitions.get("groups", partitions.get("features")).partitions]
    everything = fit_logistic(np.vstack([train.X, pool.X]), np.concatenate([train.y, pool.y]))
    full_fairness, full_accuracy = Evaluator(test, "demographic_parity", fit_logistic(train.X, train.y))(everything)
    out["full_pool"] = (abs(full_fairness), full_accuracy)
    for label, (kind, opts) in methods.items():
        rng = np.random.default_rng([seed, 2])
        start = time.perf_counter()
        if kind == "baseline":
            result = run_baseline(opts["strategy"], pool, train, test, budget=B, batch_size=K, rng=rng)
            setup = 0.0
        else:
            space = opts.get("space", "groups")
            config = BanditConfig(batch_size=K, budget=B, fairness_threshold=THRESHOLD, alpha=0.1,
                                  **{k: v for k, v in opts.items() if k not in ("space", "refresh")})
            result = run_acquisition(pool, train, test, config, rng, partitioning=partitions[space],
                                     refresh_influence=opts.get("refresh", False))
            setup = partition_seconds[space]
        seconds = time.perf_counter() - start
        out["runs"][label] = {
            "curve": curve(result, grid), "final": abs(result.final_fairness), "accuracy": result.final_accuracy,
            "initial": (abs(result.initial_fairness), result.initial_accuracy), "evaluations": result.evaluations,
            "stop": result.stop_reason, "seconds": seconds, "managed_seconds": seconds + setup,
            "acquired": len(result.acquired),
        }
    if dataset == "adult" and seed == 0:
        out["next_latency_us"] = next_latency(pool, partitions.get("groups"), K, B, seed)
    if holdout:
        out["holdout"] = holdout_check(train, test, pool, partitions["groups"], K, B, seed)
    return out


def holdout_check(train, test, pool, partitioning, K: int, B: int, seed: int) -> dict:
    """Decide on one half of the test set, measure the acquired data's model on the other half.

    Algorithm 1 accepts batches by |F| on the same test set that reports |F|;
    this shows how much of a bandit's lead survives on data it never saw.
    """
    half = len(test) // 2
    decide, held = (LabeledData(test.X[s], test.y[s], test.groups[s]) for s in (slice(0, half), slice(half, None)))
    initial = fit_logistic(train.X, train.y)
    measure = Evaluator(held, "demographic_parity", initial)
    out = {}
    for label in HOLDOUT:
        kind, opts = MAIN[label]
        rng = np.random.default_rng([seed, 2])
        if kind == "baseline":
            result = run_baseline(opts["strategy"], pool, train, decide, budget=B, batch_size=K, rng=rng)
        else:
            config = BanditConfig(batch_size=K, budget=B, fairness_threshold=THRESHOLD, **opts)
            result = run_acquisition(pool, train, decide, config, rng, partitioning=partitioning)
        model = fit_logistic(np.vstack([train.X, pool.X[result.acquired]]),
                             np.concatenate([train.y, pool.y[result.acquired]]))
        fairness, accuracy = measure(model)
        out[label] = (abs(result.final_fairness), abs(fairness), accuracy)
    return out


def next_latency(pool: LabeledData, partitioning, K: int, B: int, seed: int) -> tuple[float, float]:
    """p50 and p99 of one next_decision on Adult's partitions (what the HTTP layer calls)."""
    if partitioning is None:
        return (float("nan"), float("nan"))
    config = BanditConfig(batch_size=K, budget=B)
    state = init_state(config, partitioning.partitions, assignment=partitioning.assignment,
                       rng=np.random.default_rng(seed), initial_fairness=0.3)
    times = []
    for i in range(2000):
        start = time.perf_counter()
        next_decision(config, state, np.random.default_rng([seed, i]))
        times.append((time.perf_counter() - start) * 1e6)
    return float(np.percentile(times, 50)), float(np.percentile(times, 99))


def summarise(seeds: list[dict]) -> dict:
    labels = list(seeds[0]["runs"])
    mean = {m: np.mean([s["runs"][m]["curve"] for s in seeds], axis=0) for m in labels}

    def stat(m, key):
        values = [s["runs"][m][key] for s in seeds]
        return float(np.mean(values)), float(np.std(values))

    return {"labels": labels, "grid": seeds[0]["grid"], "mean_curve": mean, "stat": stat, "seeds": seeds,
            "full_pool": np.mean([s["full_pool"] for s in seeds], axis=0)}


def reach(grid: np.ndarray, values: np.ndarray, level: float) -> int | None:
    hit = np.flatnonzero(values <= level + 1e-12)
    return int(grid[hit[0]]) if hit.size else None


def tables(dataset: str, summary: dict) -> str:
    grid, labels, stat = summary["grid"], summary["labels"], summary["stat"]
    first = summary["seeds"][0]
    n_train, n_test, n_pool = first["sizes"]
    head = (f"### {dataset}: train {n_train}, test {n_test}, pool {n_pool}; budget {first['B']}, batch {first['K']}; "
            f"{len(summary['seeds'])} seeds; partitions (seed 0) {first['partitions']}\n")
    cols = [0, 2, 4, 6, 8, 10]
    curve_rows = [[m] + [float(summary["mean_curve"][m][c]) for c in cols] for m in labels]
    curve_rows.append(["full pool (train ∪ pool)"] + [float(summary["full_pool"][0])] * len(cols))
    curve_table = markdown_table([f"{DP} after acquiring"] + [f"{int(grid[c])}" for c in cols], curve_rows)
    summary_rows = []
    for m in labels:
        final, final_sd = stat(m, "final")
        acc, acc_sd = stat(m, "accuracy")
        evals, _ = stat(m, "evaluations")
        secs, _ = stat(m, "seconds")
        stops = sorted({s["runs"][m]["stop"] for s in summary["seeds"]})
        to_threshold = reach(grid, summary["mean_curve"][m], THRESHOLD)
        summary_rows.append([m, f"{final:.3f} ± {final_sd:.3f}", f"{acc:.3f} ± {acc_sd:.3f}",
                             "—" if to_threshold is None else to_threshold, f"{evals:.1f}", "/".join(stops),
                             f"{secs:.1f}"])
    summary_table = markdown_table(["method", f"final {DP}", "accuracy", f"points to {DP} ≤ {THRESHOLD}",
                                    "evaluations", "stop", "seconds"], summary_rows)
    per_seed = markdown_table([f"final {DP} per seed"] + [f"seed {s}" for s in range(len(summary["seeds"]))],
                              [[m] + [float(s["runs"][m]["final"]) for s in summary["seeds"]] for m in labels])
    parts = [head, curve_table, summary_table, per_seed]
    if "holdout" in first:
        rows = [[m] + list(np.mean([s["holdout"][m] for s in summary["seeds"]], axis=0)) for m in HOLDOUT]
        parts.append("Holdout check — decisions on half of the test set, measured on the other half:\n\n"
                     + markdown_table(["method", f"{DP} on the deciding half", f"{DP} on the held-out half",
                                       "accuracy on the held-out half"], rows))
    return "\n\n".join(parts)


def plot(summaries: dict, filename: str, methods: list[str]) -> None:
    fig, axes = plt.subplots(1, len(summaries), figsize=(5.5 * len(summaries), 4), squeeze=False)
    for ax, (dataset, summary) in zip(axes[0], summaries.items(), strict=True):
        for m in methods:
            if m in summary["mean_curve"]:
                ax.plot(summary["grid"], summary["mean_curve"][m], marker="o", ms=3, label=m)
        ax.axhline(summary["full_pool"][0], color="black", ls=":", label="full pool")
        ax.axhline(THRESHOLD, color="grey", ls="--", lw=0.8)
        ax.set(title=dataset, xlabel="points acquired", ylabel="|DP| (mean of seeds)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / filename, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 seeds, main methods only (smoke run)")
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--datasets", default="adult,compas")
    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    n_seeds = args.seeds or (2 if args.quick else 5)
    methods = dict(MAIN) if args.quick else {**MAIN, **EXTRA}
    started = time.perf_counter()
    summaries, text = {}, []
    for dataset in args.datasets.split(","):
        seeds = []
        for seed in range(n_seeds):
            seeds.append(run_seed(dataset, seed, methods, holdout=not args.quick))
            print(f"{dataset} seed {seed} done ({time.perf_counter() - started:.0f} s)", flush=True)
        summaries[dataset] = summarise(seeds)
        text.append(tables(dataset, summaries[dataset]))
    accuracy_rows, targets = [], Targets(NAME)
    for dataset, summary in summaries.items():
        stat, final = summary["stat"], {m: summary["stat"](m, "final")[0] for m in summary["labels"]}
        acc = {m: stat(m, "accuracy")[0] for m in summary["labels"]}
        initial_acc = np.mean([s["runs"]["Random"]["initial"][1] for s in summary["seeds"]])
        accuracy_rows.append([dataset, float(initial_acc)] + [acc[m] for m in MAIN])
        targets.check(f"{dataset}: DataSift ends with lower {DP} than Random", final["DataSift"] < final["Random"],
                      f"{final['DataSift']:.3f} vs {final['Random']:.3f}")
        grid, curves = summary["grid"], summary["mean_curve"]
        lowest = float(curves["DataSift-Inf"].min())
        level = THRESHOLD if lowest <= THRESHOLD else lowest
        x_inf, x_ds = reach(grid, curves["DataSift-Inf"], level), reach(grid, curves["DataSift"], level)
        targets.check(f"{dataset}: DataSift-Inf reaches 0.01 (or its lowest {DP}) with less budget than DataSift",
                      x_ds is None or (x_inf is not None and x_inf < x_ds),
                      f"level {level:.3f}: DataSift-Inf {x_inf} points, DataSift "
                      f"{'never' if x_ds is None else x_ds}")
        for m in ("DataSift", "DataSift-Inf"):
            targets.check(f"{dataset}: {m} accuracy within 2 points of Random's",
                          acc[m] >= acc["Random"] - ACCURACY_POINTS, f"{acc[m]:.3f} vs {acc['Random']:.3f}")
    text.append("### Table 2: test accuracy after acquisition (mean of seeds)\n\n" + markdown_table(
        ["dataset", "Initial"] + list(MAIN), accuracy_rows))
    text.append(reward_scale_table(summaries))
    if "adult" in summaries:
        seeds = summaries["adult"]["seeds"]
        managed = max(s["runs"][m]["managed_seconds"] for s in seeds for m in ("DataSift", "DataSift-Inf"))
        p50, p99 = seeds[0].get("next_latency_us", (float("nan"),) * 2)
        text.append("### Managed run on Adult (partitioning + run_acquisition, worst seed)\n\n" + markdown_table(
            ["DataSift s", "DataSift-Inf s", "next_decision p50 µs", "p99 µs"],
            [[max(s["runs"]["DataSift"]["managed_seconds"] for s in seeds),
              max(s["runs"]["DataSift-Inf"]["managed_seconds"] for s in seeds), p50, p99]], digits=1))
        targets.check("Adult: a managed run (partitioning + run) finishes within 2 minutes",
                      managed < MANAGED_RUN_LIMIT_S, f"{managed:.1f} s worst case")
    for filename, methods_in_plot in FIGURES.items():
        plot(summaries, filename, methods_in_plot)
    report = "\n\n".join(text)
    print(report)
    write_text(NAME, "tables.md", report)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return targets.finish()


def reward_scale_table(summaries: dict) -> str:
    rows, verdicts = [], []
    for dataset, summary in summaries.items():
        for base in ("DataSift", "DataSift-Inf"):
            variant = f"{base} (running_max)"
            if variant not in summary["mean_curve"]:
                continue
            area = {m: float(summary["mean_curve"][m].mean()) for m in (base, variant)}
            for m in (base, variant):
                rows.append([dataset, m, summary["stat"](m, "final")[0], area[m],
                             summary["stat"](m, "accuracy")[0]])
            better = "no difference" if abs(area[variant] - area[base]) < 1e-9 else (
                "running_max" if area[variant] < area[base] else "none")
            verdicts.append(f"{dataset}, {base}: {better} "
                            f"(mean {DP} over the budget {min(area.values()):.3f} vs {max(area.values()):.3f})")
    if not rows:
        return ""
    return ("### reward_scale: none (paper) against running_max\n\n"
            + markdown_table(["dataset", "method", f"final {DP}", f"mean {DP} over the budget", "accuracy"], rows)
            + f"\n\nAcquires better (lower mean {DP} over the budget): " + "; ".join(verdicts) + ".")


if __name__ == "__main__":
    sys.exit(main())
