"""The dashboard's files, all served by the service itself: no CDN, nothing fetched at install.

``ui.js`` and ``ui.css`` are this package's; ``plotly.min.js`` is the copy the ``plotly``
package ships as package data (``plotly/package_data/plotly.min.js``), served from the
installed package, gzip-compressed once in memory for clients that accept it. URLs carry
a content hash or the version, so browsers may keep the files for a year.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import importlib.resources
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request, Response

from service.errors import NotFound
from service.ui.http import HERE, UiRoute, templates

__all__ = ["PLOTLY_URL", "asset_url", "router"]

router = APIRouter(route_class=UiRoute)
STATIC = HERE / "static"
ASSETS = {"ui.js": "text/javascript; charset=utf-8", "ui.css": "text/css; charset=utf-8"}
PLOTLY_VERSION = importlib.metadata.version("plotly")
PLOTLY_URL = f"/ui/static/plotly-{PLOTLY_VERSION}.min.js"
CACHE_FOREVER = "public, max-age=31536000, immutable"


def _plotly_path() -> Path:
    return Path(str(importlib.resources.files("plotly") / "package_data" / "plotly.min.js"))


@lru_cache(maxsize=len(ASSETS) + 1)
def _file(path: Path) -> tuple[bytes, bytes]:
    """A file's bytes and their gzip (compressed once per process)."""
    data = path.read_bytes()
    return data, gzip.compress(data, compresslevel=6, mtime=0)


@lru_cache(maxsize=len(ASSETS))
def asset_url(name: str) -> str:
    """``/ui/static/<name>?v=<hash of its content>``: a new URL whenever the file changes."""
    digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
    return f"/ui/static/{name}?v={digest}"


templates.env.globals["asset_url"] = asset_url


def _send(request: Request, path: Path, media_type: str) -> Response:
    plain, packed = _file(path)
    headers = {"Cache-Control": CACHE_FOREVER, "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(packed, media_type=media_type, headers={**headers, "Content-Encoding": "gzip"})
    return Response(plain, media_type=media_type, headers=headers)


@router.get(f"/static/plotly-{PLOTLY_VERSION}.min.js")
def plotly_js(request: Request) -> Response:
    return _send(request, _plotly_path(), "text/javascript; charset=utf-8")


@router.get("/static/{name}")
def asset(request: Request, name: str) -> Response:
    media_type = ASSETS.get(name)
    if media_type is None:
        raise NotFound(f"no file {name!r}")
    return _send(request, STATIC / name, media_type)
