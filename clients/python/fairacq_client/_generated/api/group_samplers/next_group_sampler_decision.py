from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.sampler_next_decision import SamplerNextDecision
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    sampler_id: UUID,
    *,
    wait: float | Unset = 0.0,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    params: dict[str, Any] = {}

    params["wait"] = wait


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/group-samplers/{sampler_id}/next".format(sampler_id=quote(str(sampler_id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SamplerNextDecision | None:
    if response.status_code == 200:
        response_200 = SamplerNextDecision.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())



        return response_412

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SamplerNextDecision]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    sampler_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | SamplerNextDecision]:
    """ Next Group Sampler Decision

     The group to sample next, why, and every group's score terms; each call is a logged decision that
    holds its batch until an observation names its decision_id, it is released, or it expires.

    Args:
        sampler_id (UUID):
        wait (float | Unset): managed mode: seconds to wait for a queued or running fit to finish
            before deciding Default: 0.0.
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SamplerNextDecision]
     """


    kwargs = _get_kwargs(
        sampler_id=sampler_id,
wait=wait,
if_match=if_match,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    sampler_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Problem | SamplerNextDecision | None:
    """ Next Group Sampler Decision

     The group to sample next, why, and every group's score terms; each call is a logged decision that
    holds its batch until an observation names its decision_id, it is released, or it expires.

    Args:
        sampler_id (UUID):
        wait (float | Unset): managed mode: seconds to wait for a queued or running fit to finish
            before deciding Default: 0.0.
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SamplerNextDecision
     """


    return sync_detailed(
        sampler_id=sampler_id,
client=client,
wait=wait,
if_match=if_match,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    sampler_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | SamplerNextDecision]:
    """ Next Group Sampler Decision

     The group to sample next, why, and every group's score terms; each call is a logged decision that
    holds its batch until an observation names its decision_id, it is released, or it expires.

    Args:
        sampler_id (UUID):
        wait (float | Unset): managed mode: seconds to wait for a queued or running fit to finish
            before deciding Default: 0.0.
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SamplerNextDecision]
     """


    kwargs = _get_kwargs(
        sampler_id=sampler_id,
wait=wait,
if_match=if_match,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    sampler_id: UUID,
    *,
    client: AuthenticatedClient,
    wait: float | Unset = 0.0,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Problem | SamplerNextDecision | None:
    """ Next Group Sampler Decision

     The group to sample next, why, and every group's score terms; each call is a logged decision that
    holds its batch until an observation names its decision_id, it is released, or it expires.

    Args:
        sampler_id (UUID):
        wait (float | Unset): managed mode: seconds to wait for a queued or running fit to finish
            before deciding Default: 0.0.
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SamplerNextDecision
     """


    return (await asyncio_detailed(
        sampler_id=sampler_id,
client=client,
wait=wait,
if_match=if_match,
idempotency_key=idempotency_key,

    )).parsed
