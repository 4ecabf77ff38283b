"""The library's error vocabulary: InputError for bad input, StateError for what a session's state refuses."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from service.algorithms import adaptive_sampling, datasift, fairbatch
from service.algorithms.validation import InputError, StateError

ALGORITHMS = Path(__file__).resolve().parents[2] / "service" / "algorithms"


def _raised_names(path: Path) -> list[tuple[int, str]]:
    """``(line, name)`` of every ``raise Name(...)`` / ``raise Name`` in a module."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(target, ast.Name):
                out.append((node.lineno, target.id))
    return out


def test_the_library_raises_no_bare_value_error():
    bare = [f"{path.relative_to(ALGORITHMS)}:{line}" for path in sorted(ALGORITHMS.rglob("*.py"))
            for line, name in _raised_names(path) if name == "ValueError"]
    assert bare == []


def test_the_error_tree():
    assert issubclass(InputError, ValueError) and issubclass(StateError, ValueError)
    for conflict in (adaptive_sampling.BudgetExhaustedError, datasift.DataSiftError, datasift.BanditFinishedError,
                     datasift.StaleDecisionError, fairbatch.EpochOrderError):
        assert issubclass(conflict, StateError) and not issubclass(conflict, InputError)


def test_bad_input_and_refused_steps_raise_their_types():
    with pytest.raises(InputError, match="batch_size"):
        datasift.BanditConfig(batch_size=0, budget=10)
    state = fairbatch.init_state("equal_opportunity", [0, 1], ["F", "M"], {(0, "F"): 3, (1, "M"): 3, (1, "F"): 2},
                                 batch_size=4)
    with pytest.raises(InputError, match="one value per cell"):
        fairbatch.epoch_step(state, [0.1], epoch=1)
    stepped, _ = fairbatch.epoch_step(state, [0.1, 0.2, 0.3, 0.4], epoch=2)
    with pytest.raises(fairbatch.EpochOrderError):
        fairbatch.epoch_step(stepped, [0.1, 0.2, 0.3, 0.4], epoch=2)
    config = adaptive_sampling.SamplerConfig(groups=("a", "b"), budget=1)
    spent = adaptive_sampling.apply_observation(config, adaptive_sampling.SamplerState.initial(config), "a", 1, {})
    with pytest.raises(StateError):
        adaptive_sampling.next_decision(config, spent, np.random.default_rng(0))
    with pytest.raises(InputError, match="unknown group"):
        adaptive_sampling.apply_observation(config, adaptive_sampling.SamplerState.initial(config), "zz", 1, {})
