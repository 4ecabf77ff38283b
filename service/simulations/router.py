"""``/v1/simulations``: compare acquisition policies on the client's data before spending a budget."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import Response, status

from service.api import refusals, resource_router
from service.auth import TenantDep
from service.db import SessionDep
from service.errors import NotReady
from service.sessions.routes import SessionRoutes, add_session_routes
from service.sessions.service import set_created
from service.settings import SettingsDep
from service.simulations import service
from service.simulations.models import KIND
from service.simulations.plot import render_png
from service.simulations.schemas import SimulationCreate, SimulationList, SimulationOut

router = resource_router("/simulations", "simulations")
PNG: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/png": {}}, "description": "the worst-group curves with their 95% bands"}}


@router.post("", status_code=status.HTTP_202_ACCEPTED, operation_id="create_simulation")
def create_simulation(payload: SimulationCreate, db: SessionDep, tenant: TenantDep, settings: SettingsDep,
                      response: Response) -> SimulationOut:
    """Check the request against its data and queue the run; 202 with the simulation's Location."""
    record = service.create_simulation(db, tenant.id, settings, payload)
    set_created(response, record, router.prefix)
    return service.simulation_out(db, tenant.id, record)


@router.get("/{simulation_id}/plot.png", operation_id="get_simulation_plot", response_class=Response,
            responses={**PNG, **refusals("the simulation has no results yet (not-ready)", if_match=False)})
def get_simulation_plot(simulation_id: uuid.UUID, db: SessionDep, tenant: TenantDep) -> Response:
    """The results as a PNG: each policy's worst-group curve, mean and 95% interval."""
    record = service.repository(db, tenant.id).get(simulation_id)
    results = record.state.get("results")
    if results is None:
        shown = service.simulation_out(db, tenant.id, record)
        raise NotReady(f"the simulation is {shown.status}: it has no results yet")
    title = record.name or f"simulation {record.id}"
    return Response(render_png(results, title), media_type="image/png")


add_session_routes(router, SessionRoutes(
    kind=KIND, noun=service.NOUN, id_param="simulation_id", out=SimulationOut, page=SimulationList,
    render=service.simulation_out,
    docs={"get": "Read a simulation: its run's status and progress and, once done, curves, comparisons and "
                 "the recommendation.",
          "list": "List simulations, oldest first.",
          "log": "The simulation's log: its creation and its results."}))
