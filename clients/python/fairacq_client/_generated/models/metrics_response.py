from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.metrics_response_metrics import MetricsResponseMetrics





T = TypeVar("T", bound="MetricsResponse")



@_attrs_define
class MetricsResponse:
    """ 
        Attributes:
            groups (list[int | str]):
            metrics (MetricsResponseMetrics):
            n (int):
     """

    groups: list[int | str]
    metrics: MetricsResponseMetrics
    n: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metrics_response_metrics import MetricsResponseMetrics # noqa: PLC0415
        groups = []
        for groups_item_data in self.groups:
            groups_item: int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        metrics = self.metrics.to_dict()

        n = self.n


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "groups": groups,
            "metrics": metrics,
            "n": n,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metrics_response_metrics import MetricsResponseMetrics # noqa: PLC0415
        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> int | str:
                return cast(int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        metrics = MetricsResponseMetrics.from_dict(d.pop("metrics"))




        n = d.pop("n")

        metrics_response = cls(
            groups=groups,
            metrics=metrics,
            n=n,
        )


        metrics_response.additional_properties = d
        return metrics_response

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
