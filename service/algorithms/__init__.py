"""Pure algorithms: numpy, scipy, scikit-learn and cvxpy only; no HTTP, SQL or I/O.

One module (or subpackage) per paper plus shared ``metrics`` and ``validation``.
"""
