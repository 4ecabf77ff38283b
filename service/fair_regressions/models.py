"""Fair regressions keep their state in the shared ``sessions`` table (kind ``fair_regression``).

``config`` and ``state`` are JSON read and written only by ``state.py`` (their shape is
described there): the validated request with what the training table looked like, and
``{"fit": null}`` until the worker's fit is stored, then every result's summary. Arrays
are session blobs:

* ``training`` — inline training data (``features``, ``labels``, ``group_codes``; meta:
  the group names), absent when the request named a dataset;
* ``predictor:<k>`` — the fitted distribution ``Q`` of result ``k`` as plain parameters:
  :func:`~service.algorithms.fair_regression.split_params` puts every array in the
  ``.npz`` and the rest (format, library versions, label scaling, regressor types) in
  the blob's JSON meta. Never a pickle.
"""

from service.sessions.models import SessionBlob, SessionRecord

__all__ = ["KIND", "TRAINING_BLOB", "SessionBlob", "SessionRecord", "predictor_blob"]

KIND = "fair_regression"
TRAINING_BLOB = "training"


def predictor_blob(index: int) -> str:
    return f"predictor:{index}"
