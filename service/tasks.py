"""Imports every resource module that registers job handlers (see ``service.jobs.registry``)."""

import service.partition_bandits.tasks  # noqa: F401

__all__: list[str] = []
