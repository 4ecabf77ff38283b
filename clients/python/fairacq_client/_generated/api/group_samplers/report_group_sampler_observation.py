from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.observation_report import ObservationReport
from ...models.observation_result import ObservationResult
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    sampler_id: UUID,
    *,
    body: ObservationReport,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/group-samplers/{sampler_id}/observations".format(sampler_id=quote(str(sampler_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ObservationResult | Problem | None:
    if response.status_code == 200:
        response_200 = ObservationResult.from_dict(response.json())



        return response_200

    if response.status_code == 202:
        response_202 = ObservationResult.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ObservationResult | Problem]:
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
    body: ObservationReport,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[ObservationResult | Problem]:
    """ Report Group Sampler Observation

     Count a round's samples; reported mode applies the losses, managed mode queues a refit (202).

    Args:
        sampler_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (ObservationReport): One round's result. Reported mode sends ``n_acquired`` and
            ``group_losses``; managed mode
            sends ``train`` and ``validation`` samples of ``group`` instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ObservationResult | Problem]
     """


    kwargs = _get_kwargs(
        sampler_id=sampler_id,
body=body,
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
    body: ObservationReport,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> ObservationResult | Problem | None:
    """ Report Group Sampler Observation

     Count a round's samples; reported mode applies the losses, managed mode queues a refit (202).

    Args:
        sampler_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (ObservationReport): One round's result. Reported mode sends ``n_acquired`` and
            ``group_losses``; managed mode
            sends ``train`` and ``validation`` samples of ``group`` instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ObservationResult | Problem
     """


    return sync_detailed(
        sampler_id=sampler_id,
client=client,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    sampler_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ObservationReport,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[ObservationResult | Problem]:
    """ Report Group Sampler Observation

     Count a round's samples; reported mode applies the losses, managed mode queues a refit (202).

    Args:
        sampler_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (ObservationReport): One round's result. Reported mode sends ``n_acquired`` and
            ``group_losses``; managed mode
            sends ``train`` and ``validation`` samples of ``group`` instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ObservationResult | Problem]
     """


    kwargs = _get_kwargs(
        sampler_id=sampler_id,
body=body,
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
    body: ObservationReport,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> ObservationResult | Problem | None:
    """ Report Group Sampler Observation

     Count a round's samples; reported mode applies the losses, managed mode queues a refit (202).

    Args:
        sampler_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (ObservationReport): One round's result. Reported mode sends ``n_acquired`` and
            ``group_losses``; managed mode
            sends ``train`` and ``validation`` samples of ``group`` instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ObservationResult | Problem
     """


    return (await asyncio_detailed(
        sampler_id=sampler_id,
client=client,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,

    )).parsed
