"""Pure algorithms: numpy, scipy, scikit-learn and cvxpy only; no HTTP, SQL or I/O.

One package per paper -- ``adaptive_sampling``, ``datasift``, ``fairbatch``,
``balanced_filtering``, ``fair_regression`` -- plus the shared ``metrics`` and
``validation`` (input checks, and the exceptions the library raises).
"""
