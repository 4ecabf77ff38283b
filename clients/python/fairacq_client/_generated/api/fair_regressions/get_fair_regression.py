from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.fair_regression_out import FairRegressionOut
from ...models.problem import Problem
from typing import cast
from uuid import UUID



def _get_kwargs(
    regression_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fair-regressions/{regression_id}".format(regression_id=quote(str(regression_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> FairRegressionOut | Problem | None:
    if response.status_code == 200:
        response_200 = FairRegressionOut.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[FairRegressionOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[FairRegressionOut | Problem]:
    """ Get Fair Regression

     Read a regression: its fit job's status and, once fitted, the results (and a sweep's frontier).

    Args:
        regression_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FairRegressionOut | Problem]
     """


    kwargs = _get_kwargs(
        regression_id=regression_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,

) -> FairRegressionOut | Problem | None:
    """ Get Fair Regression

     Read a regression: its fit job's status and, once fitted, the results (and a sweep's frontier).

    Args:
        regression_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FairRegressionOut | Problem
     """


    return sync_detailed(
        regression_id=regression_id,
client=client,

    ).parsed

async def asyncio_detailed(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[FairRegressionOut | Problem]:
    """ Get Fair Regression

     Read a regression: its fit job's status and, once fitted, the results (and a sweep's frontier).

    Args:
        regression_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[FairRegressionOut | Problem]
     """


    kwargs = _get_kwargs(
        regression_id=regression_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,

) -> FairRegressionOut | Problem | None:
    """ Get Fair Regression

     Read a regression: its fit job's status and, once fitted, the results (and a sweep's frontier).

    Args:
        regression_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        FairRegressionOut | Problem
     """


    return (await asyncio_detailed(
        regression_id=regression_id,
client=client,

    )).parsed
