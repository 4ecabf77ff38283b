from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.bandit_next_decision import BanditNextDecision
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    bandit_id: UUID,
    *,
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
        "url": "/v1/partition-bandits/{bandit_id}/next".format(bandit_id=quote(str(bandit_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BanditNextDecision | Problem | None:
    if response.status_code == 200:
        response_200 = BanditNextDecision.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BanditNextDecision | Problem]:
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
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[BanditNextDecision | Problem]:
    """ Next Partition Bandit Decision

     The partition with the highest UCB (untried first) and its batch of pool items, held (off offer, its
    size
    reserved from the budget) until feedback names its decision_id, it is released, or it expires.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BanditNextDecision | Problem]
     """


    kwargs = _get_kwargs(
        bandit_id=bandit_id,
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
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> BanditNextDecision | Problem | None:
    """ Next Partition Bandit Decision

     The partition with the highest UCB (untried first) and its batch of pool items, held (off offer, its
    size
    reserved from the budget) until feedback names its decision_id, it is released, or it expires.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BanditNextDecision | Problem
     """


    return sync_detailed(
        bandit_id=bandit_id,
client=client,
if_match=if_match,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    bandit_id: UUID,
    *,
    client: AuthenticatedClient,
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[BanditNextDecision | Problem]:
    """ Next Partition Bandit Decision

     The partition with the highest UCB (untried first) and its batch of pool items, held (off offer, its
    size
    reserved from the budget) until feedback names its decision_id, it is released, or it expires.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BanditNextDecision | Problem]
     """


    kwargs = _get_kwargs(
        bandit_id=bandit_id,
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
    if_match: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> BanditNextDecision | Problem | None:
    """ Next Partition Bandit Decision

     The partition with the highest UCB (untried first) and its batch of pool items, held (off offer, its
    size
    reserved from the budget) until feedback names its decision_id, it is released, or it expires.

    Args:
        bandit_id (UUID):
        if_match (str | Unset): the session's ETag; 412 when it has changed
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BanditNextDecision | Problem
     """


    return (await asyncio_detailed(
        bandit_id=bandit_id,
client=client,
if_match=if_match,
idempotency_key=idempotency_key,

    )).parsed
