"""Proxies by name, for the service's ``proxy.type`` field, and rebuilding them from parameters.

References
----------
Deng, Diana, Kearns, Roth, "Balanced Filtering via Non-Disclosive Proxies", Section 5.
"""

from __future__ import annotations

import inspect
from typing import Any

from service.algorithms.balanced_filtering.ab_tree import ABTreeProxy, ABTreeRelaxedProxy
from service.algorithms.balanced_filtering.base import BaseProxy
from service.algorithms.balanced_filtering.proxies import (
    NaiveLogisticProxy,
    NaiveTreeProxy,
    QPLogisticProxy,
    QPTreeProxy,
)
from service.algorithms.validation import InputError

__all__ = ["PROXY_TYPES", "make_proxy", "proxy_from_params"]

PROXY_TYPES: dict[str, type[BaseProxy]] = {
    cls.proxy_type: cls
    for cls in (
        ABTreeProxy, ABTreeRelaxedProxy, QPTreeProxy, QPLogisticProxy, NaiveTreeProxy, NaiveLogisticProxy,
    )
}


def _parameters(cls: type[BaseProxy]) -> set[str]:
    return set(inspect.signature(cls.__init__).parameters) - {"self"}


_KNOWN = set().union(*(_parameters(cls) for cls in PROXY_TYPES.values()))


def make_proxy(proxy_type: str, **params: Any) -> BaseProxy:
    """An unfitted proxy of ``proxy_type`` (SPEC 4.5 names).

    Parameters any proxy type takes (``alpha``, ``gamma``, ``epsilon``,
    ``max_depth``, ``stop_distance``, ...) are passed on when this type uses
    them and ignored otherwise, so a request's whole ``proxy`` object can be
    given; ``None`` values mean "the default". Unknown names raise ``InputError``.
    """
    cls = PROXY_TYPES.get(proxy_type)
    if cls is None:
        raise InputError(f"unknown proxy type {proxy_type!r}; one of {sorted(PROXY_TYPES)}", ("proxy", "type"))
    unknown = sorted(set(params) - _KNOWN)
    if unknown:
        raise InputError(f"unknown proxy parameters {unknown}", ("proxy",))
    accepted = _parameters(cls)
    return cls(**{k: v for k, v in params.items() if k in accepted and v is not None})


def proxy_from_params(params: dict[str, Any]) -> BaseProxy:
    """Rebuild a fitted proxy from ``to_params()`` output (no scikit-learn model, no cvxpy)."""
    cls = PROXY_TYPES.get(params["meta"]["type"])
    if cls is None:
        raise InputError(f"unknown proxy type {params['meta']['type']!r}")
    return cls._from_params(params)
