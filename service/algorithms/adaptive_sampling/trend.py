"""Mann–Kendall trend statistic, the trend term of Aopt+ (adaptive sampling paper, eq. 6).

For a series ``x_1, …, x_n`` the statistic is ``S = Σ_{i<j} sgn(x_j − x_i)`` and,
without a correction for ties (SPEC §5.1), ``Var S = n(n − 1)(2n + 5) / 18``.
Aopt+ adds ``c1 · S / sqrt(Var S)`` to a group's score, and 0 while ``n < 3``.

Sessions keep ``S`` up to date as values arrive (:func:`push`, O(n) per value)
so that choosing the next group reads ``S`` and ``n`` only.

References
----------
Shekhar, Fields, Ghavamzadeh, Javidi (2021), "Adaptive Sampling for Minimax Fair
Classification", NeurIPS, Section 4, eq. 6.
Mann (1945), "Nonparametric tests against trend"; Kendall (1948), "Rank correlation methods".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["MIN_TREND_LENGTH", "mann_kendall_s", "mann_kendall_var", "push", "standardized_trend"]

# Below three values Var S is 0 or the statistic carries no trend information (SPEC §5.1).
MIN_TREND_LENGTH = 3


def mann_kendall_s(series: Sequence[float] | np.ndarray) -> int:
    """The Mann–Kendall statistic ``S = Σ_{i<j} sgn(x_j − x_i)`` (ties count 0).

    References
    ----------
    Shekhar et al. (2021), Section 4, the statistic above eq. 6.
    """
    x = np.asarray(series, dtype=float)
    if x.size < 2:
        return 0
    later_minus_earlier = np.sign(x[None, :] - x[:, None])
    return int(np.triu(later_minus_earlier, k=1).sum())


def mann_kendall_var(n: int) -> float:
    """``Var S = n(n − 1)(2n + 5) / 18`` for a series of ``n`` values without ties.

    References
    ----------
    Shekhar et al. (2021), eq. 6 (``var(S_z)``); Kendall (1948).
    """
    return n * (n - 1) * (2 * n + 5) / 18.0


def standardized_trend(s: int, n: int) -> float:
    """``S / sqrt(Var S)``, or 0 while ``n < 3`` (SPEC §5.1).

    References
    ----------
    Shekhar et al. (2021), eq. 6, the factor multiplied by ``c1``.
    """
    if n < MIN_TREND_LENGTH:
        return 0.0
    return float(s / np.sqrt(mann_kendall_var(n)))


def push(series: Sequence[float], s: int, value: float, window: int | None = None) -> tuple[tuple[float, ...], int]:
    """Append ``value`` to ``series`` and update its statistic ``s`` without recomputing it.

    With ``window``, only the last ``window`` values are kept and ``s`` is the
    statistic of those; the dropped first value takes its pairs with it.
    Returns the new series (a tuple; the input is not changed) and its ``S``.
    """
    values = np.asarray(series, dtype=float)
    s = s + int(np.sign(value - values).sum())
    kept = (*series, float(value))
    while window is not None and len(kept) > window:
        dropped, kept = kept[0], kept[1:]
        s -= int(np.sign(np.asarray(kept) - dropped).sum())
    return kept, s
