"""The OpenAPI document as exported to ``openapi/openapi.json``."""

from __future__ import annotations

from typing import Any

from service.settings import Settings

__all__ = ["openapi_document"]


def openapi_document() -> dict[str, Any]:
    from service.app import create_app

    return create_app(Settings(database_url="sqlite://")).openapi()
