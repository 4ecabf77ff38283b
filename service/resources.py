"""The decision-type resources' routers, mounted by ``create_app``."""

from fastapi import APIRouter

__all__ = ["RESOURCE_ROUTERS"]

RESOURCE_ROUTERS: list[APIRouter] = []
