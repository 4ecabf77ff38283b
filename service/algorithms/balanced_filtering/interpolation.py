"""Trade-off curves for fixed proxies by interpolating towards uniform sampling.

With probability ``eta`` a point's proxy value is replaced by a value drawn
uniformly from the proxy's range; points are then accepted with the proxy's
``rho`` of the (post-processed) value. ``eta = 0`` is the proxy itself and
``eta = 1`` ignores the features entirely (disclosivity 0, the population's
imbalance). For a proxy with conditional matrix ``A`` and rates ``r_hat`` on
``m`` values the post-processed proxy has, in closed form,

    r'_j = (1 - eta) r_hat_j + eta / m
    A'_j = ((1 - eta) r_hat_j A_j + (eta / m) r) / r'_j,     r = r_hat @ A,

and its disclosivity and imbalance are measured "with respect to the
post-processed proxy values", as the paper plots them.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies",
Appendix A.1.1 (interpolation procedure), Section 5.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.algorithms.balanced_filtering.measures import acceptance_rate, disclosivity, imbalance

__all__ = ["ETAS", "TradeoffPoint", "interpolate_proxy", "tradeoff_curve"]

ETAS = tuple(round(float(x), 10) for x in np.linspace(0.0, 1.0, 11))


@dataclass
class TradeoffPoint:
    eta: float
    disclosivity: float
    imbalance: float
    acceptance_rate: float


def interpolate_proxy(
    A: np.ndarray,
    leaf_rates: np.ndarray,
    rho: np.ndarray,
    eta: float,
    target: np.ndarray,
    support: np.ndarray | None = None,
) -> TradeoffPoint:
    """Disclosivity and imbalance of the proxy post-processed with re-assignment probability ``eta``.

    Parameters
    ----------
    A, leaf_rates : ndarray
        The proxy's conditional matrix and leaf rates on the sample measured.
    rho : ndarray
        Acceptance probabilities (fixed: learned on the training sample).
    eta : float
        Probability of re-assigning a point's proxy value uniformly.
    target : ndarray
        ``U``.
    support : ndarray of bool, optional
        The proxy's range (values re-assigned to); default: values with
        ``leaf_rates > 0``. Pass the training support when measuring out of sample.

    References
    ----------
    Appendix A.1.1.
    """
    A = np.asarray(A, dtype=float)
    leaf_rates = np.asarray(leaf_rates, dtype=float)
    support = leaf_rates > 0 if support is None else np.asarray(support, dtype=bool)
    base = leaf_rates @ A
    m = int(support.sum())
    mixed_rates = (1.0 - eta) * leaf_rates + np.where(support, eta / m, 0.0)
    mass = (1.0 - eta) * leaf_rates[:, None] * A + np.where(support, eta / m, 0.0)[:, None] * base
    A_eta = np.divide(mass, mixed_rates[:, None], out=np.zeros_like(mass), where=mixed_rates[:, None] > 0)
    return TradeoffPoint(
        eta=float(eta),
        disclosivity=disclosivity(A_eta, base, mixed_rates),
        imbalance=imbalance(A_eta, mixed_rates, rho, target),
        acceptance_rate=acceptance_rate(mixed_rates, rho),
    )


def tradeoff_curve(
    A: np.ndarray,
    leaf_rates: np.ndarray,
    rho: np.ndarray,
    target: np.ndarray,
    etas: tuple[float, ...] = ETAS,
    support: np.ndarray | None = None,
) -> list[TradeoffPoint]:
    """:func:`interpolate_proxy` over ``etas`` (default 0, 0.1, ..., 1 as in the paper)."""
    return [interpolate_proxy(A, leaf_rates, rho, eta, target, support) for eta in etas]
