from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.export_out import ExportOut
from ...models.problem import Problem
from typing import cast
from uuid import UUID



def _get_kwargs(
    export_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/exports/{export_id}".format(export_id=quote(str(export_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ExportOut | Problem | None:
    if response.status_code == 200:
        response_200 = ExportOut.from_dict(response.json())



        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ExportOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    export_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ExportOut | Problem]:
    """ Get Export

     Read an export: its job's status and, once it succeeded, its download_url.

    Args:
        export_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportOut | Problem]
     """


    kwargs = _get_kwargs(
        export_id=export_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    export_id: UUID,
    *,
    client: AuthenticatedClient,

) -> ExportOut | Problem | None:
    """ Get Export

     Read an export: its job's status and, once it succeeded, its download_url.

    Args:
        export_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportOut | Problem
     """


    return sync_detailed(
        export_id=export_id,
client=client,

    ).parsed

async def asyncio_detailed(
    export_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[ExportOut | Problem]:
    """ Get Export

     Read an export: its job's status and, once it succeeded, its download_url.

    Args:
        export_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportOut | Problem]
     """


    kwargs = _get_kwargs(
        export_id=export_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    export_id: UUID,
    *,
    client: AuthenticatedClient,

) -> ExportOut | Problem | None:
    """ Get Export

     Read an export: its job's status and, once it succeeded, its download_url.

    Args:
        export_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportOut | Problem
     """


    return (await asyncio_detailed(
        export_id=export_id,
client=client,

    )).parsed
