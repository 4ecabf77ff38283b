from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.params_out_bound import ParamsOutBound
from typing import cast






T = TypeVar("T", bound="ParamsOut")



@_attrs_define
class ParamsOut:
    """ 
        Attributes:
            bound (ParamsOutBound):
            bound_c (float):
            bound_delta (float):
            bound_vc_dim (int):
            c0 (float):
            c1 (float):
            epsilon (float):
            trend_window (int | None):
            warmup_rounds (int):
            xi (float):
     """

    bound: ParamsOutBound
    bound_c: float
    bound_delta: float
    bound_vc_dim: int
    c0: float
    c1: float
    epsilon: float
    trend_window: int | None
    warmup_rounds: int
    xi: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bound = self.bound.value

        bound_c = self.bound_c

        bound_delta = self.bound_delta

        bound_vc_dim = self.bound_vc_dim

        c0 = self.c0

        c1 = self.c1

        epsilon = self.epsilon

        trend_window: int | None
        trend_window = self.trend_window

        warmup_rounds = self.warmup_rounds

        xi = self.xi


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bound": bound,
            "bound_c": bound_c,
            "bound_delta": bound_delta,
            "bound_vc_dim": bound_vc_dim,
            "c0": c0,
            "c1": c1,
            "epsilon": epsilon,
            "trend_window": trend_window,
            "warmup_rounds": warmup_rounds,
            "xi": xi,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bound = ParamsOutBound(d.pop("bound"))




        bound_c = d.pop("bound_c")

        bound_delta = d.pop("bound_delta")

        bound_vc_dim = d.pop("bound_vc_dim")

        c0 = d.pop("c0")

        c1 = d.pop("c1")

        epsilon = d.pop("epsilon")

        def _parse_trend_window(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        trend_window = _parse_trend_window(d.pop("trend_window"))


        warmup_rounds = d.pop("warmup_rounds")

        xi = d.pop("xi")

        params_out = cls(
            bound=bound,
            bound_c=bound_c,
            bound_delta=bound_delta,
            bound_vc_dim=bound_vc_dim,
            c0=c0,
            c1=c1,
            epsilon=epsilon,
            trend_window=trend_window,
            warmup_rounds=warmup_rounds,
            xi=xi,
        )


        params_out.additional_properties = d
        return params_out

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
