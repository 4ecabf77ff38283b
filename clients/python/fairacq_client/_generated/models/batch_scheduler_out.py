from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_scheduler_out_metric import BatchSchedulerOutMetric
from ..models.session_status import SessionStatus
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.cell_batch_count import CellBatchCount
  from ..models.cell_probability import CellProbability
  from ..models.history_entry import HistoryEntry
  from ..models.lambda_info import LambdaInfo





T = TypeVar("T", bound="BatchSchedulerOut")



@_attrs_define
class BatchSchedulerOut:
    """ 
        Attributes:
            batch_composition (list[CellBatchCount]):
            batch_size (int):
            created_at (datetime.datetime):
            epoch (int): last epoch reported (0 before the first)
            groups (list[float | int | str]):
            history (list[HistoryEntry]): every epoch's disparity and λ (GET one scheduler; empty in lists and create
                responses)
            id (UUID):
            labels (list[float | int | str]):
            lambda_info (list[LambdaInfo]):
            lambdas (list[float]):
            metric (BatchSchedulerOutMetric):
            name (None | str):
            positive_label (float | int | str): a string or a number
            sampling_probabilities (list[CellProbability]):
            seed (int):
            status (SessionStatus):
            step_size (float):
            threshold (float):
            version (int):
     """

    batch_composition: list[CellBatchCount]
    batch_size: int
    created_at: datetime.datetime
    epoch: int
    groups: list[float | int | str]
    history: list[HistoryEntry]
    id: UUID
    labels: list[float | int | str]
    lambda_info: list[LambdaInfo]
    lambdas: list[float]
    metric: BatchSchedulerOutMetric
    name: None | str
    positive_label: float | int | str
    sampling_probabilities: list[CellProbability]
    seed: int
    status: SessionStatus
    step_size: float
    threshold: float
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cell_batch_count import CellBatchCount # noqa: PLC0415
        from ..models.cell_probability import CellProbability # noqa: PLC0415
        from ..models.history_entry import HistoryEntry # noqa: PLC0415
        from ..models.lambda_info import LambdaInfo # noqa: PLC0415
        batch_composition = []
        for batch_composition_item_data in self.batch_composition:
            batch_composition_item = batch_composition_item_data.to_dict()
            batch_composition.append(batch_composition_item)



        batch_size = self.batch_size

        created_at = self.created_at.isoformat()

        epoch = self.epoch

        groups = []
        for groups_item_data in self.groups:
            groups_item: float | int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)



        id = str(self.id)

        labels = []
        for labels_item_data in self.labels:
            labels_item: float | int | str
            labels_item = labels_item_data
            labels.append(labels_item)



        lambda_info = []
        for lambda_info_item_data in self.lambda_info:
            lambda_info_item = lambda_info_item_data.to_dict()
            lambda_info.append(lambda_info_item)



        lambdas = self.lambdas



        metric = self.metric.value

        name: None | str
        name = self.name

        positive_label: float | int | str
        positive_label = self.positive_label

        sampling_probabilities = []
        for sampling_probabilities_item_data in self.sampling_probabilities:
            sampling_probabilities_item = sampling_probabilities_item_data.to_dict()
            sampling_probabilities.append(sampling_probabilities_item)



        seed = self.seed

        status = self.status.value

        step_size = self.step_size

        threshold = self.threshold

        version = self.version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "batch_composition": batch_composition,
            "batch_size": batch_size,
            "created_at": created_at,
            "epoch": epoch,
            "groups": groups,
            "history": history,
            "id": id,
            "labels": labels,
            "lambda_info": lambda_info,
            "lambdas": lambdas,
            "metric": metric,
            "name": name,
            "positive_label": positive_label,
            "sampling_probabilities": sampling_probabilities,
            "seed": seed,
            "status": status,
            "step_size": step_size,
            "threshold": threshold,
            "version": version,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cell_batch_count import CellBatchCount # noqa: PLC0415
        from ..models.cell_probability import CellProbability # noqa: PLC0415
        from ..models.history_entry import HistoryEntry # noqa: PLC0415
        from ..models.lambda_info import LambdaInfo # noqa: PLC0415
        d = dict(src_dict)
        batch_composition = []
        _batch_composition = d.pop("batch_composition")
        for batch_composition_item_data in (_batch_composition):
            batch_composition_item = CellBatchCount.from_dict(batch_composition_item_data)



            batch_composition.append(batch_composition_item)


        batch_size = d.pop("batch_size")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        epoch = d.pop("epoch")

        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> float | int | str:
                return cast(float | int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        history = []
        _history = d.pop("history")
        for history_item_data in (_history):
            history_item = HistoryEntry.from_dict(history_item_data)



            history.append(history_item)


        id = UUID(d.pop("id"))




        labels = []
        _labels = d.pop("labels")
        for labels_item_data in (_labels):
            def _parse_labels_item(data: object) -> float | int | str:
                return cast(float | int | str, data)

            labels_item = _parse_labels_item(labels_item_data)

            labels.append(labels_item)


        lambda_info = []
        _lambda_info = d.pop("lambda_info")
        for lambda_info_item_data in (_lambda_info):
            lambda_info_item = LambdaInfo.from_dict(lambda_info_item_data)



            lambda_info.append(lambda_info_item)


        lambdas = cast(list[float], d.pop("lambdas"))


        metric = BatchSchedulerOutMetric(d.pop("metric"))




        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        def _parse_positive_label(data: object) -> float | int | str:
            return cast(float | int | str, data)

        positive_label = _parse_positive_label(d.pop("positive_label"))


        sampling_probabilities = []
        _sampling_probabilities = d.pop("sampling_probabilities")
        for sampling_probabilities_item_data in (_sampling_probabilities):
            sampling_probabilities_item = CellProbability.from_dict(sampling_probabilities_item_data)



            sampling_probabilities.append(sampling_probabilities_item)


        seed = d.pop("seed")

        status = SessionStatus(d.pop("status"))




        step_size = d.pop("step_size")

        threshold = d.pop("threshold")

        version = d.pop("version")

        batch_scheduler_out = cls(
            batch_composition=batch_composition,
            batch_size=batch_size,
            created_at=created_at,
            epoch=epoch,
            groups=groups,
            history=history,
            id=id,
            labels=labels,
            lambda_info=lambda_info,
            lambdas=lambdas,
            metric=metric,
            name=name,
            positive_label=positive_label,
            sampling_probabilities=sampling_probabilities,
            seed=seed,
            status=status,
            step_size=step_size,
            threshold=threshold,
            version=version,
        )


        batch_scheduler_out.additional_properties = d
        return batch_scheduler_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
