from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bootstrap_out import BootstrapOut
  from ..models.metrics_response_counts import MetricsResponseCounts
  from ..models.metrics_response_metrics import MetricsResponseMetrics





T = TypeVar("T", bound="MetricsResponse")



@_attrs_define
class MetricsResponse:
    """ 
        Attributes:
            counts (MetricsResponseCounts): rows per group
            groups (list[int | str]):
            metrics (MetricsResponseMetrics):
            n (int):
            bootstrap (BootstrapOut | None | Unset):
     """

    counts: MetricsResponseCounts
    groups: list[int | str]
    metrics: MetricsResponseMetrics
    n: int
    bootstrap: BootstrapOut | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bootstrap_out import BootstrapOut # noqa: PLC0415
        from ..models.metrics_response_counts import MetricsResponseCounts # noqa: PLC0415
        from ..models.metrics_response_metrics import MetricsResponseMetrics # noqa: PLC0415
        counts = self.counts.to_dict()

        groups = []
        for groups_item_data in self.groups:
            groups_item: int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        metrics = self.metrics.to_dict()

        n = self.n

        bootstrap: dict[str, Any] | None | Unset
        if isinstance(self.bootstrap, Unset):
            bootstrap = UNSET
        elif isinstance(self.bootstrap, BootstrapOut):
            bootstrap = self.bootstrap.to_dict()
        else:
            bootstrap = self.bootstrap


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "counts": counts,
            "groups": groups,
            "metrics": metrics,
            "n": n,
        })
        if bootstrap is not UNSET:
            field_dict["bootstrap"] = bootstrap

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bootstrap_out import BootstrapOut # noqa: PLC0415
        from ..models.metrics_response_counts import MetricsResponseCounts # noqa: PLC0415
        from ..models.metrics_response_metrics import MetricsResponseMetrics # noqa: PLC0415
        d = dict(src_dict)
        counts = MetricsResponseCounts.from_dict(d.pop("counts"))




        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> int | str:
                return cast(int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        metrics = MetricsResponseMetrics.from_dict(d.pop("metrics"))




        n = d.pop("n")

        def _parse_bootstrap(data: object) -> BootstrapOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                bootstrap_type_0 = BootstrapOut.from_dict(data)



                return bootstrap_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BootstrapOut | None | Unset, data)

        bootstrap = _parse_bootstrap(d.pop("bootstrap", UNSET))


        metrics_response = cls(
            counts=counts,
            groups=groups,
            metrics=metrics,
            n=n,
            bootstrap=bootstrap,
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
