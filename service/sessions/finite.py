"""Stored JSON has no NaN or infinity: such floats are kept as ``null``.

JSON itself has no token for them, and PostgreSQL's ``json``/``jsonb`` refuse Python's
``NaN``; a library summary can hold them (a loss of an empty distribution is NaN).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["finite_or_none", "json_safe"]


def finite_or_none(value: float | None) -> float | None:
    """``value``, or ``None`` when it is missing, NaN or infinite."""
    return value if value is not None and math.isfinite(value) else None


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float, in lists and dicts at any depth, replaced by ``None``."""
    if isinstance(value, float):
        return finite_or_none(value)
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value
