"""Group samplers keep their state in the shared ``sessions`` table (kind ``group_sampler``).

``config`` holds ``mode``, the library's ``SamplerConfig`` as a dict (``sampler``) and
the managed model's hyperparameters (``model``). ``state`` holds the library's small
``SamplerState`` (``sampler``) and, in managed mode, the bookkeeping of the stored
samples and fits (``managed``). Managed mode's arrays are session blobs:

* ``samples:<k>`` — the k-th managed observation (from 1): its training rows and labels
  and its validation rows and labels, all of the observation's group (meta: group index);
* ``model`` — the latest fitted logistic regression (``coef``, ``intercept``; meta: its
  ``model_version``, how many observations it was fitted on, the solver's result and the
  library versions that made it).
"""

from service.sessions.models import SessionBlob, SessionRecord

__all__ = ["KIND", "MODEL_BLOB", "RESOURCE_TYPE", "SAMPLES_PREFIX", "SessionBlob", "SessionRecord", "samples_blob"]

KIND = "group_sampler"
RESOURCE_TYPE = "group_sampler"
MODEL_BLOB = "model"
SAMPLES_PREFIX = "samples:"


def samples_blob(index: int) -> str:
    return f"{SAMPLES_PREFIX}{index:08d}"
