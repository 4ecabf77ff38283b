"""The connection resource (``/v1/labelstudio/connections``) and Label Studio's ML backend payloads.

Label Studio's side is read leniently (``extra="ignore"``): it sends far more than the
adapter needs (a task's annotations, predictions, timestamps…), and which fields it
adds changes between its versions. Only what is read is declared.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from service.fields import FiniteFloat, Name, RequestModel, Text

__all__ = [
    "ConnectionCreate", "ConnectionCreated", "ConnectionOptions", "ConnectionOut", "FieldMapping", "LabelMapping",
    "LedgerCounts", "LsAnnotation", "LsTask", "PredictRequest", "SessionType", "WebhookPayload", "WebhookResult",
]

# (Text, not a helper of service.fields, whose text helpers are being reworked.)
FieldName = Annotated[Text, Field(min_length=1, max_length=200)]
SessionType = Literal["group_sampler", "balanced_filter"]
# A sampler's first annotation of each group, then every 4th, is held out for validation:
# a quarter of the labels measure the group losses Aopt compares, the rest train.
DEFAULT_VALIDATION_EVERY = 4
# /predict waits at most this long for a managed sampler's refit, so the priorities it
# returns follow the latest annotation (Label Studio waits 100 s for /predict by default).
DEFAULT_FIT_WAIT_SECONDS = 10.0


class LabelMapping(RequestModel):
    control: FieldName = Field(description="the Choices control (its name, from_name in results) holding the label")
    positive: FieldName = Field(description="the choice that means label 1; any other choice is 0")


class FieldMapping(RequestModel):
    """Where the adapter finds a task's features, its group and an annotation's label."""

    features: FieldName = Field(description="task data field holding the feature vector (a list of numbers)")
    group: FieldName = Field(description="task data field holding the task's group")
    label: LabelMapping | None = Field(None, description="group samplers: the annotation choice that is the label")


class ConnectionOptions(RequestModel):
    validation_every: int = Field(DEFAULT_VALIDATION_EVERY, ge=2, le=1000, description=(
        "group samplers: each group's first annotation, then every n-th, is held out as validation data"))
    fit_wait_seconds: FiniteFloat = Field(DEFAULT_FIT_WAIT_SECONDS, ge=0, le=30, description=(
        "group samplers: /predict waits this long at most for a queued or running refit"))


class ConnectionCreate(RequestModel):
    name: Name | None = None
    session_type: SessionType
    session_id: uuid.UUID = Field(description="a managed group sampler, or a balanced filter")
    mapping: FieldMapping
    options: ConnectionOptions = Field(default_factory=ConnectionOptions)


class LedgerCounts(BaseModel):
    received: int = Field(description="distinct annotation ids received")
    counted: int = Field(description="of them, those the session has counted (in an observation or an outcome)")
    pending: int = Field(description="sampler rows waiting for their group's next observation")
    ignored: int = Field(description="annotations without a usable label, task or group (see docs/labelstudio.md)")
    updates: int = Field(description="ANNOTATION_UPDATED deliveries of annotations already received")


class ConnectionOut(BaseModel):
    id: uuid.UUID
    name: str | None
    session_type: SessionType
    session_id: uuid.UUID
    mapping: FieldMapping
    options: ConnectionOptions
    model_version: str = Field(description="what /setup and every prediction report; the ML backend's title")
    backend_path: str = Field(description="the ML backend's URL path on this server (append it to the base URL)")
    annotations: LedgerCounts
    first_group: str | None = Field(description="group samplers: the group whose tasks /predict puts first now "
                                    "(the sampler's rule on its current state; null when its budget is spent)")
    created_at: datetime


class ConnectionCreated(ConnectionOut):
    token: str = Field(description="shown once: Label Studio's basic-auth password (any user name), or a Bearer token")


# -- Label Studio's requests -------------------------------------------------------------------


class LsTask(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: int | str
    data: dict[str, Any] = Field(default_factory=dict)


class PredictRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    tasks: list[LsTask]


class LsAnnotation(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: int | str
    task: int | str | dict[str, Any] | None = None
    result: list[dict[str, Any]] | None = None
    was_cancelled: bool = False

    @property
    def task_id(self) -> str | None:
        task = self.task.get("id") if isinstance(self.task, dict) else self.task
        return None if task is None else str(task)


class WebhookPayload(BaseModel):
    """ANNOTATION_CREATED / ANNOTATION_UPDATED (one annotation and its task) or ANNOTATIONS_CREATED (lists)."""

    model_config = ConfigDict(extra="ignore")

    action: str
    annotation: LsAnnotation | list[LsAnnotation] | None = None
    task: LsTask | list[LsTask] | None = None


class WebhookResult(BaseModel):
    annotation_id: str
    status: Literal["counted", "pending", "repeated", "updated", "ignored"]
    observation_id: str | None = None
    reason: str | None = None
