"""Losses, label scaling, the Section 4.1 discretisation and the SP / group-loss measures."""

from __future__ import annotations

import math

import numpy as np
import pytest

from service.algorithms.fair_regression import LabelScaling, get_loss, group_losses, sp_disparity
from service.algorithms.fair_regression.discretization import (
    Grid,
    cost_table,
    discretized_loss_table,
    label_cover,
    survival_by_group,
)
from service.algorithms.fair_regression.evaluation import sp_gamma
from service.algorithms.validation import InputError

TOL = 1e-12


def test_losses_match_the_paper_by_hand() -> None:
    # square: (0.2 - 0.6)^2 / 2 = 0.08; absolute: |0.2 - 0.6| = 0.4
    assert get_loss("square")(0.2, 0.6) == pytest.approx(0.08, abs=TOL)
    assert get_loss("absolute")(0.2, 0.6) == pytest.approx(0.4, abs=TOL)
    # logistic, C = 5: y = 1, u = 1 -> log(1 + e^-5) / (2 log(1 + e^5))
    expected = math.log(1 + math.exp(-5)) / (2 * math.log(1 + math.exp(5)))
    assert get_loss("logistic")(1.0, 1.0) == pytest.approx(expected, abs=TOL)
    # u = 1/2 is margin 0: log 2 / (2 log(1 + e^5)) for either label
    half = math.log(2) / (2 * math.log(1 + math.exp(5)))
    assert get_loss("logistic")(np.array([0.0, 1.0]), 0.5) == pytest.approx([half, half], abs=TOL)


@pytest.mark.parametrize("name", ["square", "absolute", "logistic"])
def test_losses_are_bounded_and_one_lipschitz(name: str) -> None:
    loss = get_loss(name)
    y = np.array([0.0, 1.0]) if name == "logistic" else np.linspace(0, 1, 21)
    u = np.linspace(0, 1, 2001)
    values = loss(y[:, None], u[None, :])
    assert values.min() >= 0 and values.max() <= 1
    slopes = np.abs(np.diff(values, axis=1)) / np.diff(u)
    assert slopes.max() <= 1 + 1e-9


def test_logistic_needs_c_above_one_and_unknown_losses_are_rejected() -> None:
    with pytest.raises(InputError):
        get_loss("logistic", 1.0)
    with pytest.raises(InputError, match="unknown loss"):
        get_loss("hinge")


def test_label_scaling_round_trips_and_rejects_constant_labels() -> None:
    scaling = LabelScaling.fit(np.array([2.0, 4.0, 10.0]))
    assert scaling.to_unit(np.array([2.0, 4.0, 10.0])) == pytest.approx([0.0, 0.25, 1.0], abs=TOL)
    assert scaling.from_unit(np.array([0.5])) == pytest.approx([6.0], abs=TOL)
    with pytest.raises(InputError, match="labels are all equal"):
        LabelScaling.fit(np.array([3.0, 3.0]))


def test_grid_cells_and_representatives() -> None:
    grid = Grid(4)  # Z = {0.25, 0.5, 0.75, 1}
    # cell = number of thresholds <= u; exact thresholds count as reached
    assert grid.cells(np.array([0.0, 0.2, 0.25, 0.6, 0.99, 1.0])).tolist() == [0, 0, 1, 2, 3, 4]
    # representatives k*alpha + alpha/2, and 1 for the last cell
    assert grid.representatives == pytest.approx([0.125, 0.375, 0.625, 0.875, 1.0], abs=TOL)


def test_label_cover_is_an_alpha_half_cover() -> None:
    # alpha = 0.5, half-width 0.25: 0.0 starts a point at 0.2 (largest label <= 0.25), which
    # covers [0, 0.45]; 0.5 starts the next at 0.7, covering 0.9; 1.0 needs its own point.
    y = np.array([0.0, 0.1, 0.2, 0.5, 0.7, 0.9, 1.0])
    cover, index = label_cover(y, 0.5)
    assert cover.tolist() == [0.2, 0.7, 1.0]
    assert index.tolist() == [0, 0, 0, 1, 1, 1, 2]
    rng = np.random.default_rng(0)
    y = rng.random(500)
    cover, index = label_cover(y, 1 / 40)
    assert np.abs(cover[index] - y).max() <= 1 / 80 + TOL
    assert np.diff(cover).min() > 1 / 80 and len(cover) <= 80


def test_costs_telescope_into_the_discretized_loss() -> None:
    loss, grid = get_loss("square"), Grid(2)  # Z = {0.5, 1}, alpha = 0.5
    cover = np.array([0.0, 0.3, 1.0])
    c = cost_table(loss, cover, grid)
    # y = 0: c(0, 0.5) = 2 (l(0, .75) - l(0, .25)) = 2 (0.28125 - 0.03125) = 0.5
    #        c(0, 1)   = 2 (l(0, 1) - l(0, .75))   = 2 (0.5 - 0.28125)     = 0.4375
    assert c[0] == pytest.approx([0.5, 0.4375], abs=TOL)
    # eq. 15: l_alpha(y, cell k) = l(y, alpha/2) + (1/N) sum_{j <= k} c(y, z_j)
    table = discretized_loss_table(loss, cover, grid)
    rebuilt = loss(cover, 0.25)[:, None] + np.concatenate([np.zeros((3, 1)), np.cumsum(c, axis=1) / 2], axis=1)
    assert table == pytest.approx(rebuilt, abs=TOL)
    assert np.abs(c).max() <= 1 + TOL  # eq. 9: c in [-1, 1]


def test_survival_and_gamma_by_hand() -> None:
    grid = Grid(2)
    # group 0: predictions 0.1, 0.6, 1.0 -> cells 0, 1, 2; group 1: 0.5, 0.5 -> cells 1, 1
    u = np.array([0.1, 0.6, 1.0, 0.5, 0.5])
    groups = np.array([0, 0, 0, 1, 1])
    sizes = np.array([3.0, 2.0])
    survival = survival_by_group(grid.cells(u), groups, sizes, grid)
    # P[f >= 0.5 | 0] = 2/3, P[f >= 1 | 0] = 1/3; group 1: 1 and 0
    assert survival == pytest.approx(np.array([[2 / 3, 1 / 3], [1.0, 0.0]]), abs=TOL)
    # overall: P[f >= 0.5] = 4/5, P[f >= 1] = 1/5
    gamma = sp_gamma(u, groups, sizes, grid)
    assert gamma == pytest.approx(np.array([[2 / 3 - 0.8, 1 / 3 - 0.2], [0.2, -0.2]]), abs=TOL)
    assert sp_disparity(u, np.array(list("aaabb")), grid_size=2) == pytest.approx(0.2, abs=TOL)


def test_disparity_of_a_mixture_averages_gammas_before_the_maximum() -> None:
    groups = np.array([0, 0, 1, 1])
    h1 = np.array([1.0, 1.0, 0.0, 0.0])  # group 0 always >= z, group 1 never: gamma = +-0.5
    h2 = 1.0 - h1  # the mirror image: gamma = -+0.5
    assert sp_disparity(h1, groups, 2) == pytest.approx(0.5, abs=TOL)
    # Q = (1/2, 1/2): P[f >= z | a] = 1/2 for both groups, so the randomized predictor is fair
    assert sp_disparity(np.stack([h1, h2]), groups, 2, weights=[0.5, 0.5]) == pytest.approx(0.0, abs=TOL)


def test_group_losses_by_hand() -> None:
    # square: group a errors 0.2 and 0.4 -> (0.02 + 0.08)/2 = 0.05; group b error 1 -> 0.5
    out = group_losses(np.array([0.2, 0.6, 0.0]), np.array([0.0, 1.0, 1.0]), np.array(["a", "a", "b"]))
    assert out == pytest.approx({"a": 0.05, "b": 0.5}, abs=TOL)
