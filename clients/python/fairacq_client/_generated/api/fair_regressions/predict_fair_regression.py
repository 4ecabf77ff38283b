from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.prediction_request import PredictionRequest
from ...models.prediction_result import PredictionResult
from ...models.problem import Problem
from typing import cast
from uuid import UUID



def _get_kwargs(
    regression_id: UUID,
    *,
    body: PredictionRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/fair-regressions/{regression_id}/predictions".format(regression_id=quote(str(regression_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PredictionResult | Problem | None:
    if response.status_code == 200:
        response_200 = PredictionResult.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PredictionResult | Problem]:
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
    body: PredictionRequest,

) -> Response[PredictionResult | Problem]:
    """ Predict Fair Regression

     Predict with the fitted distribution Q: expected Σ Q(h) h(x), or one h ~ Q drawn per row.

    Args:
        regression_id (UUID):
        body (PredictionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PredictionResult | Problem]
     """


    kwargs = _get_kwargs(
        regression_id=regression_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PredictionRequest,

) -> PredictionResult | Problem | None:
    """ Predict Fair Regression

     Predict with the fitted distribution Q: expected Σ Q(h) h(x), or one h ~ Q drawn per row.

    Args:
        regression_id (UUID):
        body (PredictionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PredictionResult | Problem
     """


    return sync_detailed(
        regression_id=regression_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PredictionRequest,

) -> Response[PredictionResult | Problem]:
    """ Predict Fair Regression

     Predict with the fitted distribution Q: expected Σ Q(h) h(x), or one h ~ Q drawn per row.

    Args:
        regression_id (UUID):
        body (PredictionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PredictionResult | Problem]
     """


    kwargs = _get_kwargs(
        regression_id=regression_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    regression_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PredictionRequest,

) -> PredictionResult | Problem | None:
    """ Predict Fair Regression

     Predict with the fitted distribution Q: expected Σ Q(h) h(x), or one h ~ Q drawn per row.

    Args:
        regression_id (UUID):
        body (PredictionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PredictionResult | Problem
     """


    return (await asyncio_detailed(
        regression_id=regression_id,
client=client,
body=body,

    )).parsed
