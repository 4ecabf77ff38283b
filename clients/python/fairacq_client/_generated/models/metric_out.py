from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.metric_ci import MetricCI
  from ..models.metric_out_by_group import MetricOutByGroup
  from ..models.metric_out_details import MetricOutDetails





T = TypeVar("T", bound="MetricOut")



@_attrs_define
class MetricOut:
    """ 
        Attributes:
            by_group (MetricOutByGroup):
            disparity (float | None): largest gap between two groups
            disparity_vs_overall (float | None): largest gap between a group and everyone
            overall (float | None):
            ci (MetricCI | None | Unset): with bootstrap: the interval of each value above
            details (MetricOutDetails | Unset):
     """

    by_group: MetricOutByGroup
    disparity: float | None
    disparity_vs_overall: float | None
    overall: float | None
    ci: MetricCI | None | Unset = UNSET
    details: MetricOutDetails | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metric_ci import MetricCI # noqa: PLC0415
        from ..models.metric_out_by_group import MetricOutByGroup # noqa: PLC0415
        from ..models.metric_out_details import MetricOutDetails # noqa: PLC0415
        by_group = self.by_group.to_dict()

        disparity: float | None
        disparity = self.disparity

        disparity_vs_overall: float | None
        disparity_vs_overall = self.disparity_vs_overall

        overall: float | None
        overall = self.overall

        ci: dict[str, Any] | None | Unset
        if isinstance(self.ci, Unset):
            ci = UNSET
        elif isinstance(self.ci, MetricCI):
            ci = self.ci.to_dict()
        else:
            ci = self.ci

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
        if ci is not UNSET:
            field_dict["ci"] = ci
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metric_ci import MetricCI # noqa: PLC0415
        from ..models.metric_out_by_group import MetricOutByGroup # noqa: PLC0415
        from ..models.metric_out_details import MetricOutDetails # noqa: PLC0415
        d = dict(src_dict)
        by_group = MetricOutByGroup.from_dict(d.pop("by_group"))




        def _parse_disparity(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        disparity = _parse_disparity(d.pop("disparity"))


        def _parse_disparity_vs_overall(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        disparity_vs_overall = _parse_disparity_vs_overall(d.pop("disparity_vs_overall"))


        def _parse_overall(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        overall = _parse_overall(d.pop("overall"))


        def _parse_ci(data: object) -> MetricCI | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ci_type_0 = MetricCI.from_dict(data)



                return ci_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetricCI | None | Unset, data)

        ci = _parse_ci(d.pop("ci", UNSET))


        _details = d.pop("details", UNSET)
        details: MetricOutDetails | Unset
        if isinstance(_details,  Unset):
            details = UNSET
        else:
            details = MetricOutDetails.from_dict(_details)




        metric_out = cls(
            by_group=by_group,
            disparity=disparity,
            disparity_vs_overall=disparity_vs_overall,
            overall=overall,
            ci=ci,
            details=details,
        )


        metric_out.additional_properties = d
        return metric_out

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
