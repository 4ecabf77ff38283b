"""Reproduce the adaptive sampling paper's Figures 2, 3a and 6 with the group-sampler session code.

Run from the project root::

    .venv/bin/python -m bench.group_sampling            # the issue's full settings
    .venv/bin/python -m bench.group_sampling --quick    # a smoke run with few trials

Every adaptive run drives :func:`service.algorithms.adaptive_sampling.next_decision`
and :func:`~service.algorithms.adaptive_sampling.apply_observation` exactly as
the service does in managed mode: each round the decision's rng is
``default_rng([trial_seed, sequence])``, the chosen group yields ``batch_size``
training and as many validation samples (Algorithm 1 draws a pair per sample),
and :func:`~service.algorithms.adaptive_sampling.model.fit_and_evaluate`
refits the warm-started logistic regression on all training samples and
reports each group's validation loss and accuracy. Budgets count training samples.

* Figure 2: π_n(u) against n on Synthetic Model 1 (instances I and II) for Aopt,
  ε-greedy (ε = 0.1) and greedy, 100 trials, against π*(u) from a 1001-point grid.
* Figure 3a: Adult, groups white/non-white × men/women, minimum group test
  accuracy against budget for Aopt, greedy, uniform and uncurated, 10 trials.
* Figure 6: Aopt+ against Aopt and greedy on Synthetic Model 2, 100 trials.
* Speed: 1,000 rounds of exact Aopt (refit every round) on instance I.

Tables are printed and written with the PNG plots to ``bench/results/group_sampling/``;
the exit status is non-zero when a target of the issue is missed.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # the machine is shared; one BLAS thread each

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402

import numpy as np  # noqa: E402

from bench.group_sampling_runs import (  # noqa: E402
    ADULT_GROUPS,
    AdultData,
    TestAccuracy,
    pi_star_grid,
    run_session,
    run_uncurated,
)
from bench.report import Targets, markdown_table, redirect_quick, results_dir, write_text  # noqa: E402
from bench.synthetic_sampling import INSTANCE_I, INSTANCE_II, SYNTHETIC_MODEL_2, MixtureModel  # noqa: E402
from service.algorithms.adaptive_sampling import (  # noqa: E402
    SamplerConfig,
    SamplerState,
    apply_observation,
    next_decision,
)

NAME = "group_sampling"

# --------------------------------------------------------------------------- experiments

FIG2_STRATEGIES = ("aopt", "epsilon_greedy", "greedy")
FIG2_BUDGET = 1000
FIG2_REPORT_AT = (10, 50, 100, 200, 500, 1000)
# Instance I target: |mean π_n(u) − π*(u)| at n = 1000, and greedy's spread over Aopt's.
PI_GAP_TARGET = 0.05
SPREAD_RATIO_TARGET = 2.0
# Instance II target: minimum-accuracy gap (points) between the reached mixture and the grid's best.
FLAT_GAP_TARGET = 0.5
ADULT_STRATEGIES = ("aopt", "greedy", "uniform", "uncurated")
ADULT_BUDGET = 2000
ADULT_CHECKPOINTS = list(range(100, ADULT_BUDGET + 1, 100))
# Adult targets in accuracy points.
ADULT_MAX_DEFICIT = 0.5
ADULT_BEST_GAP = 1.5
FIG6_STRATEGIES = ("aopt_plus", "aopt", "greedy")
FIG6_BUDGET = 1000
# Heuristic variant of Section 4: batches of b0 samples per round.
FIG6_BATCH = 5
FIG6_CHECKPOINTS = list(range(100, FIG6_BUDGET + 1, 100))
# Figure 6 targets: Aopt+ within this many points of the best other minimax accuracy, and a v-accuracy
# lead of at least this many points that is also this many standard errors of the paired difference.
FIG6_MATCH_POINTS = 1.0
FIG6_LEAD_POINTS = 1.0
FIG6_LEAD_SE = 3.0
SPEED_ROUNDS = 1000
SPEED_TARGET_SECONDS = 10.0


@dataclass
class Settings:
    fig2_trials: int = 100
    grid_replicates: int = 20
    adult_trials: int = 10
    fig6_trials: int = 100

    @classmethod
    def quick(cls) -> Settings:
        return cls(fig2_trials=10, grid_replicates=3, adult_trials=2, fig6_trials=10)


def _synthetic_accuracy(model: MixtureModel) -> TestAccuracy:
    return lambda fitted: model.accuracy(fitted.coef_, fitted.intercept_)


def figure2(settings: Settings, targets: Targets, out: list[str]) -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, model in zip(axes, (INSTANCE_I, INSTANCE_II), strict=True):
        pis, accuracy, minimum = pi_star_grid(model, FIG2_BUDGET, settings.grid_replicates)
        best = int(np.argmax(minimum))
        pi_star, best_min = float(pis[best]), float(minimum[best])
        rows, curves = [], {}
        for strategy in FIG2_STRATEGIES:
            config = SamplerConfig(groups=model.groups, budget=FIG2_BUDGET, strategy=strategy)
            runs = [
                run_session(config, model.sample, 2, _synthetic_accuracy(model), [FIG2_BUDGET], seed)
                for seed in range(settings.fig2_trials)
            ]
            path = np.array([[c[0] / c.sum() for c in r.sample_counts] for r in runs])  # b = 1: index n-1
            curves[strategy] = path
            final = path[:, FIG2_BUDGET - 1]
            reached = minimum[np.rint(final * 1000).astype(int)]
            rows.append(
                [strategy]
                + [f"{path[:, n - 1].mean():.3f} ± {path[:, n - 1].std():.3f}" for n in FIG2_REPORT_AT]
                + [abs(final.mean() - pi_star), 100 * reached.mean()]
            )
        headers = ["strategy"] + [f"π_{n}(u)" for n in FIG2_REPORT_AT] + ["|mean − π*|", "min acc % at π_n"]
        out.append(
            f"### Figure 2, {model.name}: π_n(u), mean ± std over {settings.fig2_trials} trials\n\n"
            f"π*(u) = {pi_star:.3f} (1001-point grid, LR on {FIG2_BUDGET} points, "
            f"{settings.grid_replicates} replicates); best minimum accuracy {100 * best_min:.2f} %\n\n"
            + markdown_table(headers, rows)
        )
        aopt, greedy = curves["aopt"][:, -1], curves["greedy"][:, -1]
        if model is INSTANCE_I:
            gap = abs(aopt.mean() - pi_star)
            ratio = greedy.std() / max(aopt.std(), 1e-12)
            targets.check(
                f"instance I: |mean π_1000(u) − π*(u)| <= {PI_GAP_TARGET} (Aopt)",
                gap <= PI_GAP_TARGET,
                f"mean {aopt.mean():.3f}, π* {pi_star:.3f}, gap {gap:.3f}",
            )
            targets.check(
                f"instance I: std of π_1000(u) greedy / Aopt >= {SPREAD_RATIO_TARGET}",
                ratio >= SPREAD_RATIO_TARGET,
                f"greedy {greedy.std():.3f} / Aopt {aopt.std():.3f} = {ratio:.1f}",
            )
        else:
            reached = 100 * minimum[np.rint(aopt * 1000).astype(int)].mean()
            targets.check(
                f"instance II: Aopt's min accuracy at π_1000 within {FLAT_GAP_TARGET} pt of the grid's best",
                100 * best_min - reached <= FLAT_GAP_TARGET,
                f"{reached:.2f} % against {100 * best_min:.2f} % (π_1000(u) = {aopt.mean():.3f})",
            )
        n = np.arange(1, FIG2_BUDGET + 1)
        for strategy, path in curves.items():
            mean, std = path.mean(axis=0), path.std(axis=0)
            ax.plot(n, mean, label=strategy)
            ax.fill_between(n, mean - std, mean + std, alpha=0.15)
        ax.axhline(pi_star, color="k", linestyle="--", label="π*(u)")
        ax.set(title=f"Synthetic Model 1, {model.name}", xlabel="n", ylabel="π_n(u)", ylim=(0, 1))
        ax.legend()
        _plot_grid(model, pis, accuracy, pi_star)
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / "figure2_mixture.png", dpi=120)
    plt.close(fig)


def _plot_grid(model: MixtureModel, pis: np.ndarray, accuracy: np.ndarray, pi_star: float) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4))
    ax.plot(pis, accuracy[:, 0], color="tab:blue", label="u")
    ax.plot(pis, accuracy[:, 1], color="tab:red", label="v")
    ax.plot(pis, accuracy.min(axis=1), color="k", label="minimum")
    ax.axvline(pi_star, color="k", linestyle="--", linewidth=0.8)
    ax.set(title=f"Figure 1 grid, {model.name}", xlabel="π(u)", ylabel="test accuracy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / f"figure1_grid_{model.name}.png", dpi=120)
    plt.close(fig)


def figure3a(settings: Settings, targets: Targets, out: list[str]) -> None:
    import matplotlib.pyplot as plt

    data = AdultData.load()
    d = data.X.shape[1]
    curves: dict[str, np.ndarray] = {}
    for strategy in ADULT_STRATEGIES:
        per_trial = []
        for seed in range(settings.adult_trials):
            if strategy == "uncurated":
                run = run_uncurated(data.natural(), data.pools(seed), d, data.test_accuracy, ADULT_CHECKPOINTS, seed)
            else:
                config = SamplerConfig(groups=ADULT_GROUPS, budget=ADULT_BUDGET, strategy=strategy)
                run = run_session(
                    config,
                    data.pools(seed),
                    d,
                    data.test_accuracy,
                    ADULT_CHECKPOINTS,
                    seed,
                    refit_every_round=strategy != "uniform",  # uniform's choices never read a loss
                )
            per_trial.append([100 * run.checkpoint_accuracy[c].min() for c in ADULT_CHECKPOINTS])
        curves[strategy] = np.array(per_trial)
    shown = [c for c in ADULT_CHECKPOINTS if c in (100, 200, 300, 500, 700, 1000, 1500, 2000)]
    rows = [[s] + [f"{curves[s][:, ADULT_CHECKPOINTS.index(c)].mean():.2f}" for c in shown] for s in ADULT_STRATEGIES]
    out.append(
        f"### Figure 3a, Adult: minimum group test accuracy (%), mean of {settings.adult_trials} trials\n\n"
        + markdown_table(["strategy"] + [f"n={c}" for c in shown], rows)
    )
    mean = {s: c.mean(axis=0) for s, c in curves.items()}
    cp = np.array(ADULT_CHECKPOINTS)
    early, window = (cp >= 200) & (cp <= 1000), cp >= 200
    lead = float((mean["aopt"] - mean["uniform"])[early].mean())
    worst = float((mean["aopt"] - mean["uniform"])[window].min())
    best_other = np.max([mean[s] for s in ADULT_STRATEGIES], axis=0)
    behind = float((best_other - mean["aopt"])[window].max())
    targets.check("Adult: Aopt above Uniform on average over n = 200..1000", lead > 0, f"mean lead {lead:+.2f} pt")
    targets.check(
        f"Adult: Aopt never more than {ADULT_MAX_DEFICIT} pt below Uniform, n = 200..2000",
        worst >= -ADULT_MAX_DEFICIT,
        f"worst {worst:+.2f} pt",
    )
    targets.check(
        f"Adult: Aopt within {ADULT_BEST_GAP} pt of the best strategy at every n = 200..2000",
        behind <= ADULT_BEST_GAP,
        f"largest gap {behind:.2f} pt; Aopt at 2000: {mean['aopt'][-1]:.2f} %, best anywhere {best_other.max():.2f} %",
    )
    fig, ax = plt.subplots(figsize=(6, 4))
    for strategy, values in curves.items():
        mean_curve, std_curve = values.mean(axis=0), values.std(axis=0)
        ax.plot(cp, mean_curve, label=strategy)
        ax.fill_between(cp, mean_curve - std_curve, mean_curve + std_curve, alpha=0.15)
    ax.set(title="Adult: minimum group test accuracy", xlabel="budget n", ylabel="accuracy (%)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / "figure3a_adult.png", dpi=120)
    plt.close(fig)


def figure6(settings: Settings, targets: Targets, out: list[str]) -> None:
    import matplotlib.pyplot as plt

    model = SYNTHETIC_MODEL_2
    accuracy: dict[str, np.ndarray] = {}  # strategy -> (trials, checkpoints, groups) in points
    mixture: dict[str, float] = {}
    for strategy in FIG6_STRATEGIES:
        config = SamplerConfig(groups=model.groups, budget=FIG6_BUDGET, strategy=strategy, batch_size=FIG6_BATCH)
        runs = [
            run_session(config, model.sample, 2, _synthetic_accuracy(model), FIG6_CHECKPOINTS, seed)
            for seed in range(settings.fig6_trials)
        ]
        accuracy[strategy] = 100 * np.array([[r.checkpoint_accuracy[c] for c in FIG6_CHECKPOINTS] for r in runs])
        mixture[strategy] = float(np.mean([r.mixture_at(FIG6_BUDGET) for r in runs]))
    rows = []
    for strategy, acc in accuracy.items():
        final = acc[:, -1, :]
        rows.append(
            [
                strategy,
                f"{final[:, 0].mean():.2f}",
                f"{final[:, 1].mean():.2f}",
                f"{final.min(axis=1).mean():.2f}",
                f"{mixture[strategy]:.3f}",
            ]
        )
    out.append(
        f"### Figure 6, Synthetic Model 2 (b0 = {FIG6_BATCH}): test accuracy (%) at n = {FIG6_BUDGET}, "
        f"mean of {settings.fig6_trials} trials\n\n"
        + markdown_table(["strategy", "u (hard)", "v", "min group", "π_n(u)"], rows)
    )
    plus_final = accuracy["aopt_plus"][:, -1, :]
    plus_min = plus_final.min(axis=1).mean()
    best_other = max(accuracy[s][:, -1, :].min(axis=1).mean() for s in FIG6_STRATEGIES[1:])
    targets.check(
        f"Model 2: Aopt+'s minimax accuracy within {FIG6_MATCH_POINTS} pt of Aopt's and greedy's",
        plus_min >= best_other - FIG6_MATCH_POINTS,
        f"Aopt+ {plus_min:.2f} %, best other {best_other:.2f} %",
    )
    for other in FIG6_STRATEGIES[1:]:
        diff = plus_final[:, 1] - accuracy[other][:, -1, 1]  # paired: same trial seeds
        se = diff.std(ddof=1) / np.sqrt(diff.size) if diff.size > 1 else np.inf
        targets.check(
            f"Model 2: Aopt+ beats {other} on v's accuracy (>= {FIG6_LEAD_POINTS} pt and {FIG6_LEAD_SE} SE)",
            diff.mean() >= max(FIG6_LEAD_POINTS, FIG6_LEAD_SE * se),
            f"lead {diff.mean():+.2f} pt (SE {se:.2f}; paper: about +4)",
        )
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=False)
    for g, ax in enumerate(axes):
        for strategy, acc in accuracy.items():
            ax.plot(FIG6_CHECKPOINTS, acc[:, :, g].mean(axis=0), label=strategy)
        ax.set(title=f"Synthetic Model 2, group {model.groups[g]}", xlabel="budget n", ylabel="test accuracy (%)")
        ax.legend()
    fig.tight_layout()
    fig.savefig(results_dir(NAME) / "figure6_model2.png", dpi=120)
    plt.close(fig)


def speed(targets: Targets, out: list[str]) -> None:
    """Time 1,000 rounds of exact Aopt (refit every round) and, separately, the decisions alone."""
    model = INSTANCE_I
    config = SamplerConfig(groups=model.groups, budget=SPEED_ROUNDS, strategy="aopt")
    start = time.perf_counter()
    run = run_session(config, model.sample, 2, _synthetic_accuracy(model), [SPEED_ROUNDS], seed=12345)
    total = time.perf_counter() - start
    state = SamplerState.initial(config)
    decision_time = 0.0
    for k in range(SPEED_ROUNDS):
        generator = np.random.default_rng([1, k])
        t0 = time.perf_counter()
        decision = next_decision(config, state, generator)
        decision_time += time.perf_counter() - t0
        losses = [0.1 + 0.01 * (k % 7), 0.12]
        state = apply_observation(config, state, decision.group_index, 1, losses)
    out.append(
        "### Speed: exact Aopt on instance I\n\n"
        + markdown_table(
            ["measure", "value"],
            [
                [f"{SPEED_ROUNDS} rounds (decide, sample, refit, evaluate, update)", f"{total:.2f} s"],
                ["per round", f"{1000 * total / SPEED_ROUNDS:.2f} ms"],
                ["Newton steps per refit", f"{run.fit_iterations / SPEED_ROUNDS:.2f}"],
                ["next_decision alone, per call", f"{1e6 * decision_time / SPEED_ROUNDS:.0f} µs"],
            ],
        )
    )
    targets.check(
        f"speed: {SPEED_ROUNDS} rounds of exact Aopt < {SPEED_TARGET_SECONDS:.0f} s",
        total < SPEED_TARGET_SECONDS,
        f"{total:.2f} s",
    )


PARTS = {"fig2": figure2, "adult": figure3a, "fig6": figure6}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few trials, for a smoke run")
    parser.add_argument("--only", choices=[*PARTS, "speed"], action="append", help="run only these parts")
    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    settings = Settings.quick() if args.quick else Settings()
    parts = args.only or [*PARTS, "speed"]
    targets, out = Targets(NAME), []
    started = time.perf_counter()
    for part in parts:
        t0, first_table = time.perf_counter(), len(out)
        if part == "speed":
            speed(targets, out)
        else:
            PARTS[part](settings, targets, out)
        tables = "\n\n".join(out[first_table:])
        print(f"[{part}: {time.perf_counter() - t0:.0f} s]\n\n{tables}\n", flush=True)
    elapsed = time.perf_counter() - started
    mode = "quick" if args.quick else "full"
    text = "\n\n".join(out) + f"\n\nRun time ({mode}, parts {', '.join(parts)}): {elapsed:.0f} s"
    print(f"Run time: {elapsed:.0f} s")
    write_text(NAME, "results.md", text)
    return targets.finish()


if __name__ == "__main__":
    sys.exit(main())
