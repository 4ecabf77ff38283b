"""Fair regressions keep their state in the shared ``sessions`` table (kind ``fair_regression``).

``config`` is the validated request (constraint, loss, oracle, learner, loop settings)
plus what the training table looked like (rows, features, group names). ``state`` is
``{"fit": null}`` until the worker's fit is stored, then the JSON summary of every
result (one per slack of a sweep), the frontier and which result predictions use by
default. Arrays are session blobs:

* ``training`` — inline training data (``features``, ``labels``, ``group_codes``; meta:
  the group names), absent when the request named a dataset;
* ``predictor:<k>`` — the fitted distribution ``Q`` of result ``k`` as plain parameters:
  :func:`~service.algorithms.fair_regression.split_params` puts every array in the
  ``.npz`` and the rest (format, library versions, label scaling, regressor types) in
  the blob's JSON meta. Never a pickle.
"""

from service.sessions.models import SessionBlob, SessionRecord

__all__ = ["KIND", "RESOURCE_TYPE", "TRAINING_BLOB", "SessionBlob", "SessionRecord", "predictor_blob"]

KIND = "fair_regression"
RESOURCE_TYPE = "fair_regression"
TRAINING_BLOB = "training"


def predictor_blob(index: int) -> str:
    return f"predictor:{index}"
