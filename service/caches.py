"""Every cache a service process keeps, in one place.

All of the web layer's caches are :class:`LruCache` instances registered here, one
eviction policy for all (least recently used first out, with an optional time to
live); the library keeps two of its own (``functools.lru_cache``), listed for
completeness. None holds anything a request could change without changing its key,
so none needs invalidating beyond its bound and TTL.

==========================  ======================================  =======  ==========================================
cache (where)               holds                                   bound    invalidation
==========================  ======================================  =======  ==========================================
``tenants``                 API key -> tenant                       10,000   TTL 2 s (open mode 1 s): a revoked key is
(service.auth)                                                               refused everywhere within 2 s
``rate_buckets``            tenant -> token bucket                  100,000  evicted tenants start with a full bucket
(service.quotas)
``proxies``                 (filter, version) -> rebuilt proxy      64       keyed by the version a refit changes
(service.balanced_filters)
``predictors``              (regression, blob, version) -> Q        32       keyed by the version a refit changes
(service.fair_regressions)
keyed databases             engines known to hold an API key        weak     never: once keys exist, a process does
(service.auth)                                                      set      not go back to open mode (the safe way)
session UPDATEs             column set -> built UPDATE statement    <10      never (statements are constant)
(service.sessions.repository)
compiled statements         dialect -> SQL, bind and result         2 each   never (statements are constant)
(service.statements)        processors of a per-decision statement
library: FairBatch          configuration -> cells, index, layout,  1,024    keyed by the whole configuration
(algorithms.fairbatch.state)  feasible box
library: QP                 shape -> built cvxpy problem            128      keyed by shape; values are Parameters
(algorithms.balanced_filtering.qp)
==========================  ======================================  =======  ==========================================

``get_settings`` and ``head_revision`` are read once per process (``lru_cache`` of one
value); they are constants of the process, not caches of data.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["CACHES", "LruCache", "clear_all"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """A bounded map, least recently used out first, each entry trusted for ``ttl`` seconds (None: always).

    Thread-safe. :meth:`get_or_load` loads outside the lock: two first calls for one key
    may both load, and both get an equal value.
    """

    def __init__(self, name: str, size: int, ttl: float | None = None) -> None:
        self.name, self.size, self.ttl = name, size, ttl
        self._items: OrderedDict[K, tuple[V, float]] = OrderedDict()
        self._lock = threading.Lock()
        CACHES[name] = self

    def get(self, key: K) -> V | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is None:
                return None
            if hit[1] <= time.monotonic():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return hit[0]

    def put(self, key: K, value: V, ttl: float | None = None) -> None:
        ttl = self.ttl if ttl is None else ttl
        expires = time.monotonic() + ttl if ttl is not None else float("inf")
        with self._lock:
            self._items[key] = (value, expires)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_load(self, key: K, load: Callable[[], V]) -> V:
        found = self.get(key)
        if found is None:
            found = load()
            self.put(key, found)
        return found

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


CACHES: dict[str, LruCache] = {}


def clear_all() -> None:
    """Empty every cache of the web layer (tests; after restoring a database from a backup)."""
    for cache in CACHES.values():
        cache.clear()
