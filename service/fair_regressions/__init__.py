"""Fair regressions: fit a fair regressor in a worker, then predict with it (SPEC §4.7, §5.5).

``POST /v1/fair-regressions`` checks the request against its training table and queues
one job (202 with ``Location`` of the regression); ``GET /{id}`` shows the fit;
``POST /{id}/predictions`` predicts with the stored parameters; ``DELETE /{id}`` removes
the regression, its blobs and its log, and cancels an unfinished fit.

Choices where SPEC §4.7 is silent:

* **Status** is the shared session vocabulary (service.sessions.lifecycle): ``queued``
  or ``running`` while the fit job is, ``ready`` once the fit is stored. A cancelled job —
  queued, or stopped mid-fit by the library's ``should_stop`` or by the worker's kill —
  leaves the regression ``cancelled``, a failed one ``failed``; predictions then get
  409 (``conflict``), as they do while queued or running (``not-ready``).
* **Sweeps** (``slack`` a list) store one predictor per slack. ``result`` is the result
  predictions use by default — the loosest feasible slack, or the first slack when none
  is feasible (``default_slack``) — with the sweep's ``frontier``; ``results`` lists
  every slack's result in request order. ``predictions`` take ``slack`` to choose another.
* **Scales**: losses, ``bound(s)`` and ``slack`` are on labels min–max scaled to [0, 1]
  (``label_range`` says how); predictions come back on the labels' scale unless
  ``scale = unit``.
* **Bounded group loss** has one oracle (weighted loss minimisation): ``oracle`` is left
  out or ``loss_minimization``. ``bounds`` must name every group, by its name as a string.
* **Randomized predictions** draw from ``default_rng(seed)``; without a seed the service
  picks one and returns it. Predictions change no state and are not logged; the
  decision log holds the creation and the fit.
* **Storage**: each fitted ``Q`` is ``FairRegressionPredictor.to_params()`` split into
  arrays (``.npz`` blob; for gradient boosting the trees' node arrays) and JSON meta
  (format, library versions, label scaling). Never a pickle.
"""
