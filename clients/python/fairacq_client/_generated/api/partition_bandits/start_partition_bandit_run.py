from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.job_out import JobOut
from ...models.problem import Problem
from ...models.run_request import RunRequest
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    bandit_id: UUID,
    *,
    body: None | RunRequest | Unset = UNSET,
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
        "url": "/v1/partition-bandits/{bandit_id}/runs".format(bandit_id=quote(str(bandit_id), safe=""),),
    }

    
    if isinstance(body, RunRequest):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> JobOut | Problem | None:
    if response.status_code == 202:
        response_202 = JobOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[JobOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    bandit_id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RunRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[JobOut | Problem]:
    """ Start Partition Bandit Run

     Run the whole acquisition loop with retraining in a worker; the job's result holds the outcome.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (None | RunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobOut | Problem]
     """


    kwargs = _get_kwargs(
        bandit_id=bandit_id,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    bandit_id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RunRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> JobOut | Problem | None:
    """ Start Partition Bandit Run

     Run the whole acquisition loop with retraining in a worker; the job's result holds the outcome.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (None | RunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobOut | Problem
     """


    return sync_detailed(
        bandit_id=bandit_id,
client=client,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    bandit_id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RunRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[JobOut | Problem]:
    """ Start Partition Bandit Run

     Run the whole acquisition loop with retraining in a worker; the job's result holds the outcome.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (None | RunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[JobOut | Problem]
     """


    kwargs = _get_kwargs(
        bandit_id=bandit_id,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    bandit_id: UUID,
    *,
    client: AuthenticatedClient,
    body: None | RunRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> JobOut | Problem | None:
    """ Start Partition Bandit Run

     Run the whole acquisition loop with retraining in a worker; the job's result holds the outcome.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):
        body (None | RunRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        JobOut | Problem
     """


    return (await asyncio_detailed(
        bandit_id=bandit_id,
client=client,
body=body,
if_match=if_match,
idempotency_key=idempotency_key,

    )).parsed
