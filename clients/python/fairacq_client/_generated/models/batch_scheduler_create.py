from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.batch_scheduler_create_metric import BatchSchedulerCreateMetric
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.cell_count import CellCount





T = TypeVar("T", bound="BatchSchedulerCreate")



@_attrs_define
class BatchSchedulerCreate:
    """ 
        Attributes:
            batch_size (int):
            counts (list[CellCount]): training examples per (label, group) cell
            groups (list[float | int | str]):
            labels (list[float | int | str]):
            metric (BatchSchedulerCreateMetric):
            name (str | Unset):
            positive_label (float | int | None | str | Unset): y = 1 of equal opportunity; default 1 or the last
            seed (int | Unset):
            step_size (float | Unset): α: probability moved per epoch (Section 3) Default: 0.005.
            threshold (float | Unset): T of Appendix B.5: λ moves only above this disparity Default: 0.0.
     """

    batch_size: int
    counts: list[CellCount]
    groups: list[float | int | str]
    labels: list[float | int | str]
    metric: BatchSchedulerCreateMetric
    name: str | Unset = UNSET
    positive_label: float | int | None | str | Unset = UNSET
    seed: int | Unset = UNSET
    step_size: float | Unset = 0.005
    threshold: float | Unset = 0.0





    def to_dict(self) -> dict[str, Any]:
        from ..models.cell_count import CellCount # noqa: PLC0415
        batch_size = self.batch_size

        counts = []
        for counts_item_data in self.counts:
            counts_item = counts_item_data.to_dict()
            counts.append(counts_item)



        groups = []
        for groups_item_data in self.groups:
            groups_item: float | int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        labels = []
        for labels_item_data in self.labels:
            labels_item: float | int | str
            labels_item = labels_item_data
            labels.append(labels_item)



        metric = self.metric.value

        name = self.name

        positive_label: float | int | None | str | Unset
        if isinstance(self.positive_label, Unset):
            positive_label = UNSET
        else:
            positive_label = self.positive_label

        seed = self.seed

        step_size = self.step_size

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "batch_size": batch_size,
            "counts": counts,
            "groups": groups,
            "labels": labels,
            "metric": metric,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if positive_label is not UNSET:
            field_dict["positive_label"] = positive_label
        if seed is not UNSET:
            field_dict["seed"] = seed
        if step_size is not UNSET:
            field_dict["step_size"] = step_size
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cell_count import CellCount # noqa: PLC0415
        d = dict(src_dict)
        batch_size = d.pop("batch_size")

        counts = []
        _counts = d.pop("counts")
        for counts_item_data in (_counts):
            counts_item = CellCount.from_dict(counts_item_data)



            counts.append(counts_item)


        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> float | int | str:
                return cast(float | int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        labels = []
        _labels = d.pop("labels")
        for labels_item_data in (_labels):
            def _parse_labels_item(data: object) -> float | int | str:
                return cast(float | int | str, data)

            labels_item = _parse_labels_item(labels_item_data)

            labels.append(labels_item)


        metric = BatchSchedulerCreateMetric(d.pop("metric"))




        name = d.pop("name", UNSET)

        def _parse_positive_label(data: object) -> float | int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | int | None | str | Unset, data)

        positive_label = _parse_positive_label(d.pop("positive_label", UNSET))


        seed = d.pop("seed", UNSET)

        step_size = d.pop("step_size", UNSET)

        threshold = d.pop("threshold", UNSET)

        batch_scheduler_create = cls(
            batch_size=batch_size,
            counts=counts,
            groups=groups,
            labels=labels,
            metric=metric,
            name=name,
            positive_label=positive_label,
            seed=seed,
            step_size=step_size,
            threshold=threshold,
        )

        return batch_scheduler_create

