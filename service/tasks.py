"""Imports every resource module that registers job handlers (see ``service.jobs.registry``)."""

import service.balanced_filters.tasks  # noqa: F401
import service.fair_regressions.tasks  # noqa: F401
import service.group_samplers.tasks  # noqa: F401
import service.partition_bandits.tasks  # noqa: F401

__all__: list[str] = []
