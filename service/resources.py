"""The decision types the service offers: adding one is one line in ``DECISION_TYPES``.

Each name is a package ``service/<name>/`` with a ``router.py`` (its ``router``, mounted
by ``create_app`` in this order: the types with per-decision calls first, since routes
are matched in order), and, when it has them, a ``models.py`` (its tables, for the
metadata Alembic and the tests read) and a ``tasks.py`` (its job handlers, loaded by
the workers). See docs/ARCHITECTURE.md, "Adding a decision type".
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from fastapi import APIRouter

__all__ = ["DECISION_TYPES", "load_models", "load_tasks", "routers"]

DECISION_TYPES = ("group_samplers", "batch_schedulers", "balanced_filters", "partition_bandits", "fair_regressions",
                  "simulations")


def _modules(part: str) -> list[ModuleType]:
    found = []
    for name in DECISION_TYPES:
        module = f"service.{name}.{part}"
        if importlib.util.find_spec(module) is not None:
            found.append(importlib.import_module(module))
    return found


def routers() -> list[APIRouter]:
    """Every decision type's router, in matching order."""
    return [module.router for module in _modules("router")]


def load_models() -> None:
    """Import every decision type's tables (the shared ones are imported by ``service.models``)."""
    _modules("models")


def load_tasks() -> None:
    """Import every decision type's job handlers (``service.jobs.job_handler``)."""
    _modules("tasks")
