"""Iterating over the service's paged lists (``items`` and ``next_cursor``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fairacq_client._generated.types import UNSET

__all__ = ["iterate"]


def iterate(call: Callable[..., Any], operation: Any, *args: Any, limit: int = 100, **kwargs: Any) -> Iterator[Any]:
    """Every item of a list operation, page after page: ``call(operation, *args, limit=, cursor=, **kwargs)``."""
    cursor: Any = UNSET
    while True:
        page = call(operation, *args, limit=limit, cursor=cursor, **kwargs)
        yield from page.items
        if not isinstance(page.next_cursor, str):
            return
        cursor = page.next_cursor
