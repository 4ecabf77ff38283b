"""The decision-type resources' routers, mounted by ``create_app``."""

from fastapi import APIRouter

from service.balanced_filters.router import router as balanced_filters
from service.batch_schedulers.router import router as batch_schedulers
from service.fair_regressions.router import router as fair_regressions
from service.group_samplers.router import router as group_samplers
from service.partition_bandits.router import router as partition_bandits

__all__ = ["RESOURCE_ROUTERS"]

# In the order routes are matched: the resources with per-decision calls first.
RESOURCE_ROUTERS: list[APIRouter] = [group_samplers, batch_schedulers, balanced_filters, partition_bandits,
                                     fair_regressions]
