"""Service settings, read once from the environment (prefix ``FAIRACQ_``).

Algorithm hyperparameters are request fields, not settings: this class holds
only what an operator tunes (database, limits, workers, job timing).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Literal

from fastapi import Depends, Request
from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "SettingsDep", "app_settings", "get_settings"]

MIB = 1024 * 1024


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FAIRACQ_", extra="ignore")

    database_url: str = "sqlite:///./data/fairacq.db"
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    workers: int = Field(2, ge=0, le=64, description="worker processes started by `serve`")
    # With no API key in the database, requests are refused unless this is set; then each acts
    # as tenant `default`. `serve` refuses to start with neither a key nor this setting.
    open_mode: bool = False

    # Request limits (SPEC §3). A body must arrive within body_timeout_seconds, or within
    # its declared length at body_min_bytes_per_second if that is longer; a request head
    # within header_timeout_seconds.
    max_body_bytes: int = Field(64 * MIB, gt=0)
    # A body FastAPI parses into Python objects costs ~30 bytes a number: a smaller cap keeps a
    # request within 1 GB. Uploads (datasets, candidates) parse their bodies compactly themselves.
    max_json_body_bytes: int = Field(16 * MIB, gt=0)
    body_timeout_seconds: float = Field(30.0, gt=0)
    body_min_bytes_per_second: float = Field(100_000.0, gt=0)
    header_timeout_seconds: float = Field(10.0, gt=0)
    max_rows: int = Field(200_000, gt=0)
    max_features: int = Field(2_000, gt=0)
    max_candidates: int = Field(10_000, gt=0)
    max_groups: int = Field(64, ge=2)

    # Per-tenant quotas (service.quotas); 0 turns one off. The rate is per API process.
    rate_limit_per_second: float = Field(1000.0, ge=0)
    rate_limit_burst: int = Field(2000, ge=1)
    max_active_jobs: int = Field(20, ge=0, description="queued or running jobs per tenant")
    max_stored_bytes: int = Field(10 * 1024 * MIB, ge=0, description="datasets and session blobs per tenant")

    # Observability.
    log_format: Literal["json", "text"] = "json"
    otel_exporter: Literal["none", "console", "otlp"] = "none"
    metrics_token: SecretStr | None = Field(None, description="when set, /metrics needs 'Bearer <token>'")

    # Retention: finished jobs older than this are deleted by the workers (0 keeps them).
    job_retention_days: float = Field(30.0, ge=0)
    # Exports (their files) older than this are deleted by the workers (0 keeps them).
    export_retention_days: float = Field(7.0, ge=0)

    # Jobs (SPEC §6).
    job_lease_seconds: float = Field(60.0, gt=0)
    job_heartbeat_seconds: float = Field(10.0, gt=0)
    job_poll_seconds: float = Field(1.0, gt=0)
    job_max_attempts: int = Field(3, ge=1)
    job_backoff_seconds: float = Field(5.0, ge=0)
    job_timeout_seconds: float = Field(3600.0, gt=0)
    job_timeouts: dict[str, float] = Field(default_factory=dict, description="per-kind overrides")
    enable_diagnostic_jobs: bool = False
    worker_alive_file: str | None = Field(None, description="touched at every poll, for health checks")

    # Webhooks (service.webhooks): the wait before each retry of a failed delivery, after the first
    # attempt; the default (Standard Webhooks' schedule) retries for 27.6 h. An attempt's timeout.
    webhook_retry_schedule_seconds: list[float] = Field(
        default_factory=lambda: [5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0], max_length=50)
    webhook_timeout_seconds: float = Field(10.0, gt=0, le=300)

    # Idempotency records are kept at least this long (SPEC §3: at least 24 h).
    idempotency_ttl_hours: float = Field(24.0, ge=24.0)
    idempotency_lock_seconds: float = Field(60.0, gt=0)

    # PostgreSQL guards for API requests.
    statement_timeout_ms: int = Field(30_000, gt=0)
    lock_timeout_ms: int = Field(5_000, gt=0)

    @model_validator(mode="after")
    def _heartbeat_inside_lease(self) -> Settings:
        if self.job_heartbeat_seconds >= self.job_lease_seconds:
            raise ValueError(
                "FAIRACQ_JOB_HEARTBEAT_SECONDS must be shorter than FAIRACQ_JOB_LEASE_SECONDS, "
                "or a healthy worker would lose its lease"
            )
        return self

    @model_validator(mode="after")
    def _retry_waits_non_negative(self) -> Settings:
        if any(not 0 <= wait < float("inf") for wait in self.webhook_retry_schedule_seconds):
            raise ValueError("FAIRACQ_WEBHOOK_RETRY_SCHEDULE_SECONDS must list finite, non-negative waits")
        return self

    def timeout_for(self, kind: str) -> float:
        return self.job_timeouts.get(kind, self.job_timeout_seconds)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()


async def app_settings(request: Request) -> Settings:
    """The settings the running app was created with (async: no thread hop for a constant)."""
    return request.app.state.settings


SettingsDep = Annotated[Settings, Depends(app_settings)]
