"""The fitted fair regressor: a distribution ``Q`` over base regressors, stored as parameters.

``expected`` predictions are ``Σ_h Q(h) h(x)``; ``randomized`` predictions draw one ``h ~ Q``
per row (SPEC §5.5). The guarantees of Algorithms 1 and 2 are about the randomized
predictor; the expected one has the same loss or lower for convex losses but its
disparity is not bounded by the slack.

Parameters (``to_params``)::

    {"format": "fair_regression.predictor/1",
     "library_versions": {"numpy": ..., "scikit-learn": ...},
     "label_scaling": {"minimum": float, "maximum": float},
     "n_features": int,
     "weights": float array (Q, sums to 1),
     "regressors": [{"type": "linear", "coef", "intercept", "output_scale", "output_offset"}
                    | {"type": "gradient_boosting", "init", "learning_rate", "n_features",
                       "output_scale", "output_offset", "feature", "threshold", "left",
                       "right", "value", "tree_offsets"}, ...]}

:func:`split_params` separates it into a JSON-ready dict and a flat ``{name: array}`` dict
for ``numpy.savez_compressed`` (read back with ``allow_pickle=False``);
:func:`join_params` reverses it.

References
----------
Agarwal, Dudík, Wu (2019), "Fair Regression", ICML — Section 2.2 (randomized predictors Q).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sklearn

from service.algorithms.fair_regression.losses import LabelScaling
from service.algorithms.fair_regression.regressors import Regressor, regressor_from_params
from service.algorithms.validation import InputError, as_matrix

__all__ = ["PARAMS_FORMAT", "PREDICTION_MODES", "FairRegressionPredictor", "join_params", "split_params"]

PARAMS_FORMAT = "fair_regression.predictor/1"
PREDICTION_MODES = ("expected", "randomized")
_ARRAY_MARK = "@array:"


class FairRegressionPredictor:
    """``Q`` over fitted base regressors plus the label scaling."""

    def __init__(self, regressors: list[Regressor], weights: np.ndarray, scaling: LabelScaling,
                 n_features: int) -> None:
        self.regressors = list(regressors)
        self.weights = np.asarray(weights, dtype=float)
        self.scaling = scaling
        self.n_features = int(n_features)

    def predict_each(self, X: np.ndarray) -> np.ndarray:
        """Unit-scale predictions of every base regressor, shape ``(len(Q), n)``; trusts ``X``."""
        return np.stack([r.predict(X) for r in self.regressors])

    def predict(self, X: Any, mode: str = "expected", rng: np.random.Generator | None = None,
                *, unit: bool = False) -> np.ndarray:
        """Predictions on the label scale (``unit=True``: on ``[0, 1]``).

        ``randomized`` needs ``rng`` and draws ``h ~ Q`` independently for each row.
        """
        X = as_matrix(X, ("features",), n_features=self.n_features)
        if mode not in PREDICTION_MODES:
            raise InputError(f"unknown mode {mode!r}; use one of {list(PREDICTION_MODES)}", ("mode",))
        each = self.predict_each(X)
        if mode == "expected":
            out = self.weights @ each
        else:
            if rng is None:
                raise InputError("randomized predictions need a random generator (seed)", ("seed",))
            pick = rng.choice(len(self.weights), size=X.shape[0], p=self.weights)
            out = each[pick, np.arange(X.shape[0])]
        return out if unit else self.scaling.from_unit(out)

    def to_params(self) -> dict[str, Any]:
        return {
            "format": PARAMS_FORMAT,
            "library_versions": {"numpy": np.__version__, "scikit-learn": sklearn.__version__},
            "label_scaling": {"minimum": self.scaling.minimum, "maximum": self.scaling.maximum},
            "n_features": self.n_features,
            "weights": self.weights.copy(),
            "regressors": [r.to_params() for r in self.regressors],
        }

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> FairRegressionPredictor:
        """Rebuild from :meth:`to_params` output (arrays may be lists); ``InputError`` if malformed."""
        if params.get("format") != PARAMS_FORMAT:
            raise InputError(f"not fair-regression predictor params (format {params.get('format')!r})")
        regressors = [regressor_from_params(p) for p in params["regressors"]]
        weights = np.asarray(params["weights"], dtype=float)
        if len(weights) != len(regressors) or not np.isclose(weights.sum(), 1.0) or (weights < 0).any():
            raise InputError("weights must be a distribution with one entry per regressor")
        scaling = LabelScaling(float(params["label_scaling"]["minimum"]),
                               float(params["label_scaling"]["maximum"]))
        return cls(regressors, weights, scaling, int(params["n_features"]))


def split_params(params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """``(meta, arrays)``: meta is JSON-ready, every array moves to ``arrays`` under a dotted name."""
    arrays: dict[str, np.ndarray] = {}

    def walk(value: Any, path: str) -> Any:
        if isinstance(value, np.ndarray):
            arrays[path] = value
            return _ARRAY_MARK + path
        if isinstance(value, dict):
            return {k: walk(v, f"{path}.{k}" if path else k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, f"{path}.{i}") for i, v in enumerate(value)]
        return value

    return walk(params, ""), arrays


def join_params(meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """Inverse of :func:`split_params` (``arrays`` may be an open ``NpzFile``)."""

    def walk(value: Any) -> Any:
        if isinstance(value, str) and value.startswith(_ARRAY_MARK):
            return np.asarray(arrays[value[len(_ARRAY_MARK):]])
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    joined: dict[str, Any] = walk(meta)
    return joined
