"""``/v1/labelstudio/connections`` (tenant API) and ``/labelstudio/{id}/…`` (Label Studio's ML backend).

The ML backend routes answer Label Studio, not a tenant's client: they authenticate the
connection's token instead of an API key (:class:`BackendRoute`), sit outside ``/v1``
and outside the OpenAPI document (their contract is Label Studio's), and otherwise
follow the request path of ``service.routing``: the tenant's rate limit, the body read
whole under its limit before any transaction, one transaction committed before the
response is sent.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session

from service import jobs
from service.api import parse_json_body, resource_router
from service.auth import CurrentTenant, TenantDep
from service.db import SessionDep
from service.errors import PayloadTooLarge
from service.labelstudio import backend, service
from service.labelstudio.repository import ConnectionRepository
from service.labelstudio.schemas import (
    ConnectionCreate,
    ConnectionCreated,
    ConnectionOut,
    PredictRequest,
    WebhookPayload,
    WebhookResult,
)
from service.labelstudio.service import BACKEND_PREFIX, BackendCaller
from service.quotas import admit
from service.routing import commit_and_close, rollback_and_close
from service.sessions.repository import SessionRepository
from service.settings import SettingsDep

__all__ = ["router"]

connections = resource_router("/labelstudio/connections", "labelstudio")


@connections.post("", status_code=status.HTTP_201_CREATED, operation_id="create_labelstudio_connection")
def create_labelstudio_connection(payload: ConnectionCreate, db: SessionDep, tenant: TenantDep,
                                  response: Response) -> ConnectionCreated:
    """Connect a Label Studio project to a session; the token is shown once."""
    connection, token = service.create_connection(db, tenant.id, payload)
    response.headers["Location"] = f"/v1/labelstudio/connections/{connection.id}"
    return service.created_out(db, connection, token)


@connections.get("/{connection_id}", operation_id="get_labelstudio_connection")
def get_labelstudio_connection(connection_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> ConnectionOut:
    """A connection: its session, mapping, ML backend path and the annotations it has counted."""
    return service.connection_out(db, ConnectionRepository(db, tenant.id).get(connection_id))


@connections.delete("/{connection_id}", status_code=status.HTTP_204_NO_CONTENT,
                    operation_id="delete_labelstudio_connection")
def delete_labelstudio_connection(connection_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> Response:
    """Disconnect: the token stops working; the session keeps what it counted."""
    service.delete_connection(db, tenant.id, connection_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


# -- the ML backend ----------------------------------------------------------------------------


class BackendRoute(APIRoute):
    """Authenticate the connection's token, admit its tenant, read the body, run in one transaction."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            state = request.app.state
            caller = await run_in_threadpool(service.authenticate, state.readers,
                                             str(request.path_params.get("connection_id", "")),
                                             request.headers.get("authorization"))
            request.state.caller = caller
            admit(request, CurrentTenant(caller.tenant_id, str(caller.tenant_id)))
            limit = state.settings.max_body_bytes  # a predict call carries every task's data
            if len(await request.body()) > limit:
                raise PayloadTooLarge(f"the body is over {limit} bytes (FAIRACQ_MAX_BODY_BYTES); lower the batch "
                                      "of tasks Label Studio sends")
            db = state.sessions()
            request.state.db = db
            try:
                response = await handler(request)
            except BaseException:
                await run_in_threadpool(rollback_and_close, db)
                raise
            await run_in_threadpool(commit_and_close if response.status_code < 400 else rollback_and_close, db)
            return response

        return route


async def _caller(request: Request) -> BackendCaller:
    return request.state.caller


CallerDep = Annotated[BackendCaller, Depends(_caller)]
ml = APIRouter(prefix=BACKEND_PREFIX + "/{connection_id}", tags=["labelstudio-backend"], route_class=BackendRoute,
               include_in_schema=False)


@ml.get("/health")
def health(caller: CallerDep) -> dict[str, Any]:
    return {"status": "UP", "model_class": "fairacq", "model_version": service.model_version(caller.id)}


@ml.post("/setup")
def setup(caller: CallerDep) -> dict[str, Any]:
    return backend.setup(caller)


async def _wait_for_refit(request: Request, caller: BackendCaller) -> None:
    """A sampler's queued or running refit: wait for it (bounded), holding no lock, so priorities follow it."""
    seconds = float(caller.options.get("fit_wait_seconds", 0))
    if caller.session_kind != "group_sampler" or seconds <= 0:
        return
    job_id = await run_in_threadpool(_active_fit, request.app.state.readers, caller)
    if job_id is not None:
        await request.app.state.job_waiter.wait(caller.tenant_id, job_id, seconds)


def _active_fit(readers: Callable[[], Session], caller: BackendCaller) -> uuid.UUID | None:
    with readers() as db:
        record = SessionRepository(db, caller.tenant_id, caller.session_kind).find(caller.session_id)
        if record is None or record.job_id is None:
            return None
        job = jobs.view(db, caller.tenant_id, record.job_id)
        return job.id if job is not None and job.status in ("queued", "running") else None


@ml.post("/predict")
async def predict(request: Request, caller: CallerDep, db: SessionDep, settings: SettingsDep) -> Response:
    payload = parse_json_body(PredictRequest, await request.body())
    await _wait_for_refit(request, caller)
    content = await run_in_threadpool(backend.predict, db, settings, caller, payload)
    return Response(content, media_type="application/json")


@ml.post("/webhook")
def webhook(payload: WebhookPayload, caller: CallerDep, db: SessionDep, settings: SettingsDep) -> dict[str, Any]:
    results: list[WebhookResult] = backend.handle_webhook(db, settings, caller, payload)
    return {"action": payload.action, "results": [r.model_dump(exclude_none=True) for r in results]}


router = APIRouter()
router.include_router(connections)
router.include_router(ml)
