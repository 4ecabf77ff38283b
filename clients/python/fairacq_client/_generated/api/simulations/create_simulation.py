from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.balanced_filter_simulation import BalancedFilterSimulation
from ...models.batch_scheduler_simulation import BatchSchedulerSimulation
from ...models.group_sampler_simulation import GroupSamplerSimulation
from ...models.partition_bandit_simulation import PartitionBanditSimulation
from ...models.problem import Problem
from ...models.simulation_out import SimulationOut
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation | PartitionBanditSimulation,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/simulations",
    }

    
    if isinstance(body, GroupSamplerSimulation):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, PartitionBanditSimulation):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, BatchSchedulerSimulation):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SimulationOut | None:
    if response.status_code == 202:
        response_202 = SimulationOut.from_dict(response.json())



        return response_202

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SimulationOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation | PartitionBanditSimulation,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | SimulationOut]:
    """ Create Simulation

     Check the request against its data and queue the run; 202 with the simulation's Location.

    Args:
        idempotency_key (str | Unset):
        body (BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation |
            PartitionBanditSimulation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SimulationOut]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation | PartitionBanditSimulation,
    idempotency_key: str | Unset = UNSET,

) -> Problem | SimulationOut | None:
    """ Create Simulation

     Check the request against its data and queue the run; 202 with the simulation's Location.

    Args:
        idempotency_key (str | Unset):
        body (BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation |
            PartitionBanditSimulation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SimulationOut
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation | PartitionBanditSimulation,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | SimulationOut]:
    """ Create Simulation

     Check the request against its data and queue the run; 202 with the simulation's Location.

    Args:
        idempotency_key (str | Unset):
        body (BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation |
            PartitionBanditSimulation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SimulationOut]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation | PartitionBanditSimulation,
    idempotency_key: str | Unset = UNSET,

) -> Problem | SimulationOut | None:
    """ Create Simulation

     Check the request against its data and queue the run; 202 with the simulation's Location.

    Args:
        idempotency_key (str | Unset):
        body (BalancedFilterSimulation | BatchSchedulerSimulation | GroupSamplerSimulation |
            PartitionBanditSimulation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SimulationOut
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
