"""The decision-type resources' routers, mounted by ``create_app``."""

from fastapi import APIRouter

from service.balanced_filters.router import router as balanced_filters
from service.batch_schedulers.router import router as batch_schedulers
from service.fair_regressions.router import router as fair_regressions
from service.group_samplers.router import router as group_samplers
from service.partition_bandits.router import router as partition_bandits

__all__ = ["RESOURCE_ROUTERS"]

RESOURCE_ROUTERS: list[APIRouter] = [balanced_filters, batch_schedulers, fair_regressions, group_samplers,
                                     partition_bandits]
