from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.interval_out import IntervalOut
  from ..models.metric_ci_by_group import MetricCIByGroup
  from ..models.metric_ci_details import MetricCIDetails





T = TypeVar("T", bound="MetricCI")



@_attrs_define
class MetricCI:
    """ The confidence interval of each value of :class:`MetricOut`, in the same layout.

        Attributes:
            by_group (MetricCIByGroup):
            disparity (IntervalOut):
            disparity_vs_overall (IntervalOut):
            overall (IntervalOut):
            details (MetricCIDetails | Unset):
     """

    by_group: MetricCIByGroup
    disparity: IntervalOut
    disparity_vs_overall: IntervalOut
    overall: IntervalOut
    details: MetricCIDetails | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.interval_out import IntervalOut # noqa: PLC0415
        from ..models.metric_ci_by_group import MetricCIByGroup # noqa: PLC0415
        from ..models.metric_ci_details import MetricCIDetails # noqa: PLC0415
        by_group = self.by_group.to_dict()

        disparity = self.disparity.to_dict()

        disparity_vs_overall = self.disparity_vs_overall.to_dict()

        overall = self.overall.to_dict()

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "by_group": by_group,
            "disparity": disparity,
            "disparity_vs_overall": disparity_vs_overall,
            "overall": overall,
        })
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.interval_out import IntervalOut # noqa: PLC0415
        from ..models.metric_ci_by_group import MetricCIByGroup # noqa: PLC0415
        from ..models.metric_ci_details import MetricCIDetails # noqa: PLC0415
        d = dict(src_dict)
        by_group = MetricCIByGroup.from_dict(d.pop("by_group"))




        disparity = IntervalOut.from_dict(d.pop("disparity"))




        disparity_vs_overall = IntervalOut.from_dict(d.pop("disparity_vs_overall"))




        overall = IntervalOut.from_dict(d.pop("overall"))




        _details = d.pop("details", UNSET)
        details: MetricCIDetails | Unset
        if isinstance(_details,  Unset):
            details = UNSET
        else:
            details = MetricCIDetails.from_dict(_details)




        metric_ci = cls(
            by_group=by_group,
            disparity=disparity,
            disparity_vs_overall=disparity_vs_overall,
            overall=overall,
            details=details,
        )


        metric_ci.additional_properties = d
        return metric_ci

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
