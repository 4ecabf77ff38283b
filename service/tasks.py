"""Imports every resource module that registers job handlers (see ``service.jobs.registry``)."""

__all__: list[str] = []
