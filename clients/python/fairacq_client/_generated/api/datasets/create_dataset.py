from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.dataset_create import DatasetCreate
from ...models.dataset_csv_upload import DatasetCsvUpload
from ...models.dataset_out import DatasetOut
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body:    DatasetCreate  |     DatasetCsvUpload  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/datasets",
    }

    if isinstance(body, DatasetCreate):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, DatasetCsvUpload):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DatasetOut | Problem | None:
    if response.status_code == 201:
        response_201 = DatasetOut.from_dict(response.json())



        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DatasetOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body:    DatasetCreate  |     DatasetCsvUpload  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[DatasetOut | Problem]:
    """ Create Dataset

     Upload a dataset: JSON, or a CSV file as a multipart form (``file`` and the column options) or
    as a raw ``text/csv`` body with the options in the query (categorical columns are one-hot encoded).

    Args:
        idempotency_key (str | Unset):
        body (DatasetCreate):
        body (DatasetCsvUpload): The ``multipart/form-data`` body of a CSV upload (documents it:
            the route reads the form itself).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetOut | Problem]
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
    body:    DatasetCreate  |     DatasetCsvUpload  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> DatasetOut | Problem | None:
    """ Create Dataset

     Upload a dataset: JSON, or a CSV file as a multipart form (``file`` and the column options) or
    as a raw ``text/csv`` body with the options in the query (categorical columns are one-hot encoded).

    Args:
        idempotency_key (str | Unset):
        body (DatasetCreate):
        body (DatasetCsvUpload): The ``multipart/form-data`` body of a CSV upload (documents it:
            the route reads the form itself).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetOut | Problem
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body:    DatasetCreate  |     DatasetCsvUpload  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> Response[DatasetOut | Problem]:
    """ Create Dataset

     Upload a dataset: JSON, or a CSV file as a multipart form (``file`` and the column options) or
    as a raw ``text/csv`` body with the options in the query (categorical columns are one-hot encoded).

    Args:
        idempotency_key (str | Unset):
        body (DatasetCreate):
        body (DatasetCsvUpload): The ``multipart/form-data`` body of a CSV upload (documents it:
            the route reads the form itself).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DatasetOut | Problem]
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
    body:    DatasetCreate  |     DatasetCsvUpload  | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,

) -> DatasetOut | Problem | None:
    """ Create Dataset

     Upload a dataset: JSON, or a CSV file as a multipart form (``file`` and the column options) or
    as a raw ``text/csv`` body with the options in the query (categorical columns are one-hot encoded).

    Args:
        idempotency_key (str | Unset):
        body (DatasetCreate):
        body (DatasetCsvUpload): The ``multipart/form-data`` body of a CSV upload (documents it:
            the route reads the form itself).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DatasetOut | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
