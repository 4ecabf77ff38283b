"""The decision-type resources' routers, mounted by ``create_app``."""

from fastapi import APIRouter

from service.batch_schedulers.router import router as batch_schedulers
from service.group_samplers.router import router as group_samplers
from service.partition_bandits.router import router as partition_bandits

__all__ = ["RESOURCE_ROUTERS"]

RESOURCE_ROUTERS: list[APIRouter] = [batch_schedulers, group_samplers, partition_bandits]
