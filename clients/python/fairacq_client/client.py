"""``Client``: the generated functions with retries, typed errors, uploads, waits and pages.

Every operation of the service is a generated function ``api.<tag>.<operation>``;
``client.call(op, ...)`` runs it and returns its parsed answer or raises a
:class:`~fairacq_client.errors.ProblemError`. The helpers cover what a pipeline repeats.
"""

from __future__ import annotations

import importlib
import io
import pkgutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from fairacq_client._generated import api, models
from fairacq_client._generated.client import AuthenticatedClient
from fairacq_client._generated.client import Client as GeneratedClient
from fairacq_client._generated.types import UNSET, File, Response
from fairacq_client.errors import JobFailedError, WaitTimeoutError, problem_error
from fairacq_client.pages import iterate
from fairacq_client.retries import RetryTransport

__all__ = ["Client"]

# api.<tag>.<operation> as attributes: import every generated operation module once.
for _module in pkgutil.walk_packages(api.__path__, prefix=f"{api.__name__}."):
    importlib.import_module(_module.name)

READY = ("ready", "done")
FAILED = ("failed", "cancelled")
# How to read each kind of session again (by its model's name).
_GETTERS = {
    "GroupSamplerOut": api.group_samplers.get_group_sampler,
    "PartitionBanditOut": api.partition_bandits.get_partition_bandit,
    "BalancedFilterOut": api.balanced_filters.get_balanced_filter,
    "BatchSchedulerOut": api.batch_schedulers.get_batch_scheduler,
    "FairRegressionOut": api.fair_regressions.get_fair_regression,
}


def _text(value: Any) -> str:
    return str(getattr(value, "value", value))


class Client:
    """A connection to a fairacq server; ``api_key`` may be omitted for a server in open mode."""

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 30.0, retries: int = 3,
                 backoff: float = 0.2, max_backoff: float = 5.0, transport: httpx.BaseTransport | None = None) -> None:
        self.transport = RetryTransport(transport or httpx.HTTPTransport(), retries=retries, backoff=backoff,
                                        max_backoff=max_backoff)
        options: dict[str, Any] = {"base_url": base_url.rstrip("/"), "timeout": httpx.Timeout(timeout),
                                   "httpx_args": {"transport": self.transport}}
        self.generated: AuthenticatedClient | GeneratedClient = (
            AuthenticatedClient(token=api_key, **options) if api_key else GeneratedClient(**options))

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.generated.get_httpx_client().close()

    # ------------------------------------------------------------------ calls

    def request(self, operation: Any, *args: Any, **kwargs: Any) -> Response[Any]:
        """Run a generated operation; its whole response (status, headers, parsed), or a ProblemError."""
        response = operation.sync_detailed(*args, client=self.generated, **kwargs)
        if response.status_code >= 400:
            raise problem_error(int(response.status_code), response.content, response.headers)
        return response

    def call(self, operation: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a generated operation; its parsed answer, or a ProblemError."""
        return self.request(operation, *args, **kwargs).parsed

    def pages(self, operation: Any, *args: Any, limit: int = 100, **kwargs: Any) -> Iterator[Any]:
        """Every item of a paged list operation, across its pages."""
        return iterate(self.call, operation, *args, limit=limit, **kwargs)

    # ------------------------------------------------------------------ datasets

    def upload_csv(self, csv: str | Path | bytes, *, name: str | None = None, group_column: str | None = None,
                   label_column: str | None = None, id_column: str | None = None,
                   feature_columns: list[str] | None = None) -> models.DatasetOut:
        """Upload a CSV file (a path, or its bytes) as a dataset."""
        data = csv if isinstance(csv, bytes) else Path(csv).read_bytes()
        file_name = "data.csv" if isinstance(csv, bytes) else Path(csv).name
        options = {"name": name, "group_column": group_column, "label_column": label_column, "id_column": id_column,
                   "feature_columns": ",".join(feature_columns) if feature_columns else None}
        body = models.DatasetCsvUpload(file=File(payload=io.BytesIO(data), file_name=file_name, mime_type="text/csv"),
                                       **{k: v for k, v in options.items() if v is not None})
        return self.call(api.datasets.create_dataset, body=body)

    def upload_dataframe(self, frame: Any, **options: Any) -> models.DatasetOut:
        """Upload a pandas DataFrame as a dataset (as CSV: the same options as :meth:`upload_csv`)."""
        return self.upload_csv(frame.to_csv(index=False).encode(), **options)

    # ------------------------------------------------------------------ waits

    def wait_for_job(self, job_id: uuid.UUID | str, timeout: float = 60.0, poll: float = 0.2) -> models.JobOut:
        """The job once it has succeeded; JobFailedError if it failed or was cancelled."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.call(api.jobs.get_job, uuid.UUID(str(job_id)))
            status = _text(job.status)
            if status == "succeeded":
                return job
            if status in FAILED:
                raise JobFailedError(status, job.error if isinstance(job.error, str) else None, job)
            if time.monotonic() >= deadline:
                raise WaitTimeoutError(f"job {job_id} is still {status} after {timeout} s")
            time.sleep(poll)

    def wait_ready(self, resource: Any, timeout: float = 60.0, poll: float = 0.2) -> Any:
        """The session read again once it is ready (or done); JobFailedError if its job failed."""
        getter = _GETTERS[type(resource).__name__]
        deadline = time.monotonic() + timeout
        while True:
            status = _text(resource.status)
            if status in READY:
                return resource
            if status in FAILED:
                error = getattr(resource, "error", UNSET)
                raise JobFailedError(status, error if isinstance(error, str) else None, resource)
            if time.monotonic() >= deadline:
                raise WaitTimeoutError(f"{type(resource).__name__} {resource.id} is still {status} after {timeout} s")
            time.sleep(poll)
            resource = self.call(getter, resource.id)
