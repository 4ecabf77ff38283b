"""Group samplers (adaptive sampling for minimax fair classification): hand-worked cases.

Paper: Shekhar et al. (2021), eq. 4, eq. 6, Algorithm 1; SPEC §4.3 and §5.1.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from service.algorithms.adaptive_sampling import (
    BudgetExhaustedError,
    Decision,
    SamplerConfig,
    SamplerState,
    SamplerSummary,
    apply_observation,
    next_decision,
    score_components,
    summary,
)
from service.algorithms.adaptive_sampling import trend as mann_kendall
from service.algorithms.adaptive_sampling.model import (
    WarmStartLogisticRegression,
    evaluate_groups,
    fit_and_evaluate,
)
from service.algorithms.adaptive_sampling.scores import deviation_bound, theoretical_bonus

# One tolerance for every float comparison: hand computations are written to 6+ digits
# and the Newton fit is compared with scikit-learn's lbfgs at tight tolerances.
TOL = 1e-6


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def state_with(config: SamplerConfig, counts, losses, round_=None, **extra) -> SamplerState:
    base = SamplerState.initial(config)
    return SamplerState(
        counts=tuple(counts),
        group_losses=tuple(losses),
        group_accuracies=base.group_accuracies,
        accuracy_history=extra.get("history", base.accuracy_history),
        mk_s=extra.get("mk_s", base.mk_s),
        round=sum(counts) if round_ is None else round_,
        budget_spent=sum(counts),
    )


# --------------------------------------------------------------------------- Mann–Kendall


def test_mann_kendall_statistic_by_hand():
    # [1, 3, 2, 4]: pairs (1,3)+ (1,2)+ (1,4)+ (3,2)- (3,4)+ (2,4)+  ->  S = 5 - 1 = 4
    assert mann_kendall.mann_kendall_s([1, 3, 2, 4]) == 4
    # ties count 0: [1, 1, 2]: (1,1)0 (1,2)+ (1,2)+  ->  S = 2
    assert mann_kendall.mann_kendall_s([1, 1, 2]) == 2
    # strictly decreasing [3, 2, 1]: all three pairs -  ->  S = -3
    assert mann_kendall.mann_kendall_s([3, 2, 1]) == -3
    assert mann_kendall.mann_kendall_s([0.7]) == 0


def test_mann_kendall_variance_and_standardized_trend_by_hand():
    # Var S = n(n-1)(2n+5)/18: n=3 -> 3*2*11/18 = 66/18; n=4 -> 4*3*13/18 = 156/18
    assert mann_kendall.mann_kendall_var(3) == pytest.approx(66 / 18, abs=TOL)
    assert mann_kendall.mann_kendall_var(4) == pytest.approx(156 / 18, abs=TOL)
    # S/sqrt(Var S): 4/sqrt(8.6667) = 1.358732; 2/sqrt(3.6667) = 1.044466
    assert mann_kendall.standardized_trend(4, 4) == pytest.approx(1.3587324, abs=TOL)
    assert mann_kendall.standardized_trend(2, 3) == pytest.approx(1.0444659, abs=TOL)
    # fewer than three values: no trend term (SPEC §5.1)
    assert mann_kendall.standardized_trend(1, 2) == 0.0


def test_mann_kendall_push_matches_recomputation_with_and_without_window():
    values = np.round(rng(1).normal(size=40), 1)  # rounding creates ties
    series, s = (), 0
    windowed, sw = (), 0
    for v in values:
        series, s = mann_kendall.push(series, s, v)
        windowed, sw = mann_kendall.push(windowed, sw, v, window=7)
        assert s == mann_kendall.mann_kendall_s(series)
        assert len(windowed) <= 7 and sw == mann_kendall.mann_kendall_s(windowed)
    # by hand: [1, 3, 2] has S = (1,3)+ (1,2)+ (3,2)- = 1; pushing 4 adds +3 (S = 4), and the
    # window of 3 drops 1 with its pairs (1,3)+ (1,2)+ (1,4)+: [3, 2, 4] has S = 4 - 3 = 1
    kept, s3 = mann_kendall.push((1.0, 3.0, 2.0), 1, 4.0, window=3)
    assert kept == (3.0, 2.0, 4.0) and s3 == 1


# --------------------------------------------------------------------------- scores (eq. 6, eq. 4)


def test_aopt_score_components_by_hand():
    config = SamplerConfig(groups=("u", "v"), budget=100, strategy="aopt", c0=0.1, xi=0.0)
    state = state_with(config, counts=(4, 16), losses=(0.2, 0.15))
    # bonus c0/sqrt(N): 0.1/2 = 0.05 and 0.1/4 = 0.025; ucb 0.25 and 0.175 -> u
    decision = next_decision(config, state, rng())
    assert decision.scores["u"] == pytest.approx({"loss": 0.2, "bonus": 0.05, "trend": 0.0, "ucb": 0.25}, abs=TOL)
    assert decision.scores["v"] == pytest.approx({"loss": 0.15, "bonus": 0.025, "trend": 0.0, "ucb": 0.175}, abs=TOL)
    assert (decision.group, decision.reason, decision.round) == ("u", "ucb", 21)


def test_aopt_plus_trend_term_changes_the_choice():
    config = SamplerConfig(groups=("u", "v"), budget=100, strategy="aopt_plus", xi=0.0)
    assert config.c1 == 0.1  # SPEC §4.3 default for aopt_plus
    # v's accuracy went 0.5, 0.6, 0.7: S = 3, Var = 66/18, trend = 0.1 * 3/1.914854 = 0.156670
    state = state_with(config, counts=(4, 16), losses=(0.2, 0.15), history=((), (0.5, 0.6, 0.7)), mk_s=(0, 3))
    decision = next_decision(config, state, rng())
    assert decision.scores["v"]["trend"] == pytest.approx(0.156670, abs=TOL)
    # ucb_v = 0.15 + 0.025 + 0.156670 = 0.331670 > ucb_u = 0.25
    assert decision.scores["v"]["ucb"] == pytest.approx(0.331670, abs=TOL)
    assert decision.group == "v" and decision.reason == "ucb"


def test_theoretical_bound_three_terms_by_hand():
    # e(N) = 2 sqrt((2 log Π(2N) + 2 log(2 N² π² |Z| / 3δ)) / N) with |Z| = 2, d = 3, δ = 0.05.
    # N = 10: log Π = min(20 log 2 = 13.8629, 3 log(2e·10/3) = 8.69136) = 8.69136,
    #         log(2·100·π²·2/0.15) = 10.17804 -> e = 2 sqrt((17.38272 + 20.35609)/10) = 3.885296
    # N = 30: log Π = 3 log(2e·30/3) = 11.98723, log(2·900·π²·2/0.15) = 12.37534
    #         -> e = 2 sqrt((23.97446 + 24.75068)/30) = 2.548854
    e = deviation_bound(np.array([10, 30]), vc_dim=3, delta=0.05, n_groups=2)
    assert e == pytest.approx([3.885296, 2.548854], abs=TOL)
    # third term 2C/π(z) Σ π e with C = 0.5, π = (0.25, 0.75): Σ π e = 2.882965
    # u: 3.885296 + 1/0.25 · 2.882965 = 15.417154; v: 2.548854 + 1/0.75 · 2.882965 = 6.392807
    assert theoretical_bonus(np.array([10, 30]), 0.5, 3, 0.05) == pytest.approx([15.417154, 6.392807], abs=TOL)
    config = SamplerConfig(groups=("u", "v"), budget=100, bound="theoretical", bound_c=0.5, xi=0.0)
    scores = score_components(config, state_with(config, counts=(10, 30), losses=(0.1, 0.3)))
    assert scores.ucb == pytest.approx([0.1 + 15.417154, 0.3 + 6.392807], abs=TOL)


def test_sauer_lemma_falls_back_to_trivial_growth_below_the_vc_dimension():
    # d = 100 > 2N = 2: log Π(2) <= 2 log 2 = 1.386294; log(2·1·π²·2/0.15) = 5.572874
    # e = 2 sqrt(2·1.386294 + 2·5.572874) = 2 sqrt(13.918336) = 7.461457
    assert deviation_bound(np.array([1]), 100, 0.05, 2) == pytest.approx([7.461457], abs=TOL)


# --------------------------------------------------------------------------- ties


def test_ties_go_to_the_lowest_index():
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, xi=0.0)
    # b and c have the same score on paper; in floats 0.1 + 0.2 = 0.30000000000000004 > 0.3,
    # so a bare argmax would take c
    state = state_with(config, counts=(9, 9, 9), losses=(0.2, 0.3, 0.1 + 0.2))
    assert next_decision(config, state, rng()).group == "b"
    greedy = SamplerConfig(groups=("a", "b", "c"), budget=100, strategy="greedy")
    assert next_decision(greedy, state_with(greedy, (5, 1, 5), (0.3, 0.3, 0.3)), rng()).group == "a"
    # forced exploration (t = 12, sqrt(12) = 3.46 > 1): argmin N_z with a tie between b and c -> b
    explore = SamplerConfig(groups=("a", "b", "c"), budget=100, xi=0.5)
    forced = next_decision(explore, state_with(explore, counts=(9, 1, 1), losses=(0.5, 0.1, 0.1)), rng())
    assert (forced.group, forced.reason) == ("b", "forced_exploration")


# --------------------------------------------------------------------------- forced exploration


@pytest.mark.parametrize(
    ("counts", "batch", "forced"),
    [
        # batch 1, t = ΣN + 1: (1, 8) -> t = 10, sqrt(10) = 3.162 > 1          -> forced
        ((1, 8), 1, True),
        # (3, 6) -> t = 10, 3 < 3.162                                          -> forced
        ((3, 6), 1, True),
        # (4, 5) -> t = 10, 4 >= 3.162                                         -> ucb
        ((4, 5), 1, False),
        # (3, 5) -> t = 9, sqrt(9) = 3, and 3 < 3 is false                     -> ucb
        ((3, 5), 1, False),
        # batch 4, t counts samples: (3, 9) -> t = 16, sqrt = 4 > 3             -> forced
        ((3, 9), 4, True),
        # (4, 8) -> t = 16, 4 < 4 is false                                     -> ucb
        ((4, 8), 4, False),
    ],
)
def test_forced_exploration_triggers_when_min_count_is_below_t_to_the_xi(counts, batch, forced):
    config = SamplerConfig(groups=("u", "v"), budget=1000, xi=0.5, batch_size=batch)
    # u has the higher ucb, so a forced pick of u would not be distinguishable: make v the better score
    decision = next_decision(config, state_with(config, counts=counts, losses=(0.0, 0.9)), rng())
    assert decision.reason == ("forced_exploration" if forced else "ucb")
    assert decision.group == ("u" if forced else "v")


def test_greedy_baselines_are_not_forced_to_explore():
    config = SamplerConfig(groups=("u", "v"), budget=1000, strategy="greedy")
    decision = next_decision(config, state_with(config, counts=(1, 50), losses=(0.0, 0.2)), rng())
    assert (decision.group, decision.reason) == ("v", "greedy")


# --------------------------------------------------------------------------- warm-up, uniform, ε


def test_warmup_is_round_robin_then_groups_without_a_loss_come_first():
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, warmup_rounds=5)
    state = SamplerState.initial(config)
    picked = []
    for _ in range(5):
        decision = next_decision(config, state, rng())
        assert decision.reason == "warmup"
        picked.append(decision.group)
        state = apply_observation(config, state, decision.group, 1, {decision.group: 0.5})
    assert picked == ["a", "b", "c", "a", "b"]
    assert SamplerConfig(groups=("a", "b"), budget=10).warmup_rounds == 2  # default: one per group
    # after warm-up a group with no reported loss is taken before any score is compared
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, warmup_rounds=0)
    decision = next_decision(config, state_with(config, (3, 3, 3), (0.1, None, 0.2)), rng())
    assert (decision.group, decision.reason) == ("b", "warmup")
    assert decision.scores["b"] == {"loss": None, "bonus": pytest.approx(0.1 / np.sqrt(3)), "trend": 0.0, "ucb": None}


def test_uniform_takes_the_group_with_fewest_samples():
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, strategy="uniform")
    decision = next_decision(config, state_with(config, (4, 3, 3), (0.9, 0.1, 0.1)), rng())
    assert (decision.group, decision.reason) == ("b", "uniform")
    assert decision.scores["a"] == {"loss": 0.9, "bonus": 0.0, "trend": 0.0, "ucb": 0.9}


def test_epsilon_greedy_draws_one_uniform_and_one_integer_from_the_rng():
    config = SamplerConfig(groups=("a", "b", "c"), budget=100, strategy="epsilon_greedy", epsilon=0.5)
    state = state_with(config, (5, 5, 5), (0.1, 0.4, 0.2))
    for seed in range(20):
        reference = rng(seed)
        explores = reference.random() < 0.5
        decision = next_decision(config, state, rng(seed))
        if explores:
            assert (decision.reason, decision.group_index) == ("epsilon", int(reference.integers(3)))
        else:
            assert (decision.reason, decision.group) == ("greedy", "b")


def test_epsilon_frequency_and_greedy_uses_no_randomness():
    config = SamplerConfig(groups=("a", "b"), budget=100, strategy="epsilon_greedy", epsilon=0.1)
    state = state_with(config, (5, 5), (0.1, 0.4))
    reasons = [next_decision(config, state, np.random.default_rng([7, k])).reason for k in range(4000)]
    # Binomial(4000, 0.1): mean 400, sd 19; 5 sd either side
    assert 305 <= reasons.count("epsilon") <= 495
    greedy = SamplerConfig(groups=("a", "b"), budget=100, strategy="greedy")
    generator = rng(3)
    before = generator.bit_generator.state
    next_decision(greedy, state, generator)
    assert generator.bit_generator.state == before


# --------------------------------------------------------------------------- observations, budget


def test_apply_observation_updates_a_copy():
    config = SamplerConfig(groups=("a", "b", "c"), budget=10)
    state = SamplerState.initial(config)
    new = apply_observation(config, state, "b", 3, {"a": 0.25, "b": 0.5}, {"a": 0.75})
    assert state == SamplerState.initial(config)  # input unchanged
    assert new.counts == (0, 3, 0) and new.round == 1 and new.budget_spent == 3
    assert new.group_losses == (0.25, 0.5, None) and new.group_accuracies == (0.75, None, None)
    # groups left out keep their last loss; a list in group order works too
    newer = apply_observation(config, new, 2, 1, [None, 0.125, 0.0])
    assert newer.group_losses == (0.25, 0.125, 0.0) and newer.counts == (0, 3, 1)
    # 4 samples: π = (0/4, 3/4, 1/4); 10 - 4 = 6 left
    assert summary(config, newer) == SamplerSummary(
        counts=(0, 3, 1), mixture=(0.0, 0.75, 0.25), group_losses=(0.25, 0.125, 0.0), round=2, budget_remaining=6,
        pending=(0, 0, 0), exhausted=False)
    assert not summary(config, newer).exhausted
    assert summary(config, SamplerState.initial(config)).mixture == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"group": "zz"}, "unknown group"),
        ({"group_losses": {"zz": 0.1}}, "unknown group"),
        ({"group_losses": {"a": float("nan")}}, "finite"),
        ({"group_losses": {"a": 1.5}}, "outside"),
        ({"group_losses": [0.1]}, "lists 1 values"),
        ({"group_accuracies": {"a": -0.1}}, "outside"),
        ({"n_acquired": -1}, "n_acquired"),
    ],
)
def test_apply_observation_rejects_bad_input(kwargs, message):
    config = SamplerConfig(groups=("a", "b"), budget=10)
    call = {"group": "a", "n_acquired": 1, "group_losses": {"a": 0.1}} | kwargs
    with pytest.raises(ValueError, match=message):
        apply_observation(config, SamplerState.initial(config), **call)


def test_budget_accounting():
    config = SamplerConfig(groups=("a", "b"), budget=5, batch_size=2, warmup_rounds=0)
    state = state_with(config, (2, 2), (0.1, 0.2))
    decision = next_decision(config, state, rng())
    assert decision.batch_size == 1 and decision.budget_remaining == 1  # cut to what is left
    with pytest.raises(BudgetExhaustedError, match="exceeds the remaining budget 1"):
        apply_observation(config, state, "a", 2, {})
    done = apply_observation(config, state, "a", 1, {})
    assert summary(config, done).exhausted and summary(config, done).budget_remaining == 0
    with pytest.raises(BudgetExhaustedError, match="spent"):
        next_decision(config, done, rng())


def test_aopt_plus_records_accuracy_series_and_loss_proxy():
    config = SamplerConfig(groups=("u", "v"), budget=100, strategy="aopt_plus")
    state = SamplerState.initial(config)
    for accuracy in (0.5, 0.6, 0.7):
        state = apply_observation(config, state, "v", 1, {"u": 0.3, "v": 1 - accuracy}, {"v": accuracy})
    # v: reported accuracies 0.5, 0.6, 0.7 -> S = 3; u: no accuracy, zero-one proxy 1 - 0.3 three times -> S = 0
    assert state.accuracy_history == ((0.7, 0.7, 0.7), (0.5, 0.6, 0.7)) and state.mk_s == (0, 3)
    assert score_components(config, state).trend == pytest.approx([0.0, 0.156670], abs=TOL)
    log = SamplerConfig(groups=("u", "v"), budget=100, strategy="aopt_plus", loss="log_loss")
    proxy = apply_observation(log, SamplerState.initial(log), "u", 1, {"u": 2.5})
    assert proxy.accuracy_history == ((-2.5,), ())  # -loss: S only depends on the order
    plain = SamplerConfig(groups=("u", "v"), budget=100)
    assert apply_observation(plain, SamplerState.initial(plain), "u", 1, {"u": 0.3}).accuracy_history == ((), ())


# --------------------------------------------------------------------------- config and JSON


def test_config_defaults_and_validation():
    assert SamplerConfig(groups=["a", "b"], budget=3).c1 == 0.0
    assert SamplerConfig(groups=["a", "b"], budget=3, strategy="aopt_plus", c1=0.4).c1 == 0.4
    for bad, message in [
        ({"groups": ["a"]}, "between 2 and 64"),
        ({"groups": ["a", "a"]}, "distinct"),
        ({"strategy": "thompson"}, "strategy"),
        ({"c1": 0.2}, "aopt_plus"),
        ({"strategy": "aopt_plus", "c1": 0.0}, "c1 > 0"),
        ({"epsilon": 1.5}, "epsilon"),
        ({"xi": 1.0}, "xi"),
        ({"budget": 0}, "budget"),
        ({"loss": "hinge"}, "loss"),
        ({"c0": float("inf")}, "finite"),
    ]:
        with pytest.raises(ValueError, match=message):
            SamplerConfig(**({"groups": ["a", "b"], "budget": 3} | bad))


def test_config_state_and_decision_round_trip_through_json():
    config = SamplerConfig(groups=("u", "v", "w"), budget=50, strategy="aopt_plus", batch_size=2, trend_window=4)
    state = SamplerState.initial(config)
    decisions = []
    for k in range(8):
        decision = next_decision(config, state, np.random.default_rng([11, k]))
        decisions.append(decision)
        losses = {g: 0.1 * ((k + i) % 3) for i, g in enumerate(config.groups)}
        state = apply_observation(config, state, decision.group, decision.batch_size, losses, {"u": 0.5 + 0.01 * k})
    assert SamplerConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    assert SamplerState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    for decision in decisions:
        assert Decision.from_dict(json.loads(json.dumps(decision.to_dict()))) == decision
    assert len(state.accuracy_history[0]) == 4  # the window
    with pytest.raises(ValueError, match="unknown config fields"):
        SamplerConfig.from_dict(config.to_dict() | {"colour": "red"})


def test_sessions_replay_exactly_from_the_seeded_rng():
    config = SamplerConfig(groups=("a", "b", "c"), budget=60, strategy="epsilon_greedy", epsilon=0.3)

    def run() -> list[str]:
        state, groups = SamplerState.initial(config), []
        while state.budget_spent < config.budget:
            decision = next_decision(config, state, np.random.default_rng([99, state.round]))
            groups.append(decision.group)
            losses = {g: 0.1 * (i + 1) / (1 + state.counts[i]) for i, g in enumerate(config.groups)}
            state = apply_observation(config, state, decision.group, 1, losses)
        return groups

    first = run()
    assert first == run() and len(first) == 60 and set(first) == {"a", "b", "c"}


# --------------------------------------------------------------------------- managed mode


def test_logistic_regression_matches_scikit_learn_and_warm_starts():
    generator = rng(4)
    X = generator.normal(size=(200, 3))
    y = (X @ np.array([1.5, -1.0, 0.5]) + 0.3 + generator.normal(size=200) > 0).astype(int)
    ours = WarmStartLogisticRegression(l2=1.0).fit(X, y)
    reference = LogisticRegression(C=1.0, tol=1e-12, max_iter=10_000).fit(X, y)
    assert ours.result_.status == "converged"
    # the intercept carries a 1e-4 penalty that scikit-learn does not have: effect < 1e-5 here
    assert ours.coef_ == pytest.approx(reference.coef_[0], abs=10 * TOL)
    assert ours.intercept_ == pytest.approx(reference.intercept_[0], abs=10 * TOL)
    again = WarmStartLogisticRegression().fit(X, y, ours.coef_, ours.intercept_)
    assert again.n_iter_ == 0  # already at the optimum
    restored = WarmStartLogisticRegression.from_params(ours.to_params())
    assert restored.predict_proba(X) == pytest.approx(ours.predict_proba(X), abs=TOL)
    one_class = WarmStartLogisticRegression().fit(X[:3], np.ones(3))
    assert one_class.result_.status == "converged" and one_class.predict(X[:3]).tolist() == [1, 1, 1]


def test_group_evaluation_by_hand():
    model = WarmStartLogisticRegression.from_params({"coef": np.array([1.0, 0.0]), "intercept": np.array([0.0])})
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0]])
    y = np.array([1, 1, 1])
    groups = np.array([0, 0, 1])
    zero_one = evaluate_groups(model, X, y, groups, 3, "zero_one")
    # group 0: (1,0) -> p = σ(1) = 0.731 correct, (-1,0) -> p = 0.269 wrong; group 1 correct; group 2 empty
    assert zero_one.losses[:2] == pytest.approx([0.5, 0.0], abs=TOL)
    assert zero_one.reported() == ([0.5, 0.0, None], [0.5, 1.0, None])
    log = evaluate_groups(model, X, y, groups, 3, "log_loss")
    # -log σ(1) = 0.313262, -log σ(-1) = 1.313262: group 0 mean 0.813262; group 1: -log σ(2) = 0.126928
    assert log.losses[:2] == pytest.approx([0.813262, 0.126928], abs=TOL)


def test_fit_and_evaluate_feeds_apply_observation():
    generator = rng(5)
    X = generator.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    groups = np.repeat([0, 1], 30)
    first = fit_and_evaluate(X[:40], y[:40], X[40:], y[40:], groups[40:], 2, "zero_one")
    warm = fit_and_evaluate(X[:41], y[:41], X[40:], y[40:], groups[40:], 2, "zero_one", first.params)
    assert first.result.status == warm.result.status == "converged"
    assert warm.result.iterations <= 3  # one new sample: a couple of Newton steps from the warm start
    config = SamplerConfig(groups=("a", "b"), budget=100)
    losses, accuracies = first.evaluation.reported()
    state = apply_observation(config, SamplerState.initial(config), "a", 40, losses, accuracies)
    assert state.group_losses[0] is None and state.group_losses[1] == pytest.approx(1 - accuracies[1], abs=TOL)
