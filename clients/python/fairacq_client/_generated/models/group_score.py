from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="GroupScore")



@_attrs_define
class GroupScore:
    """ 
        Attributes:
            bonus (float | None): exploration bonus (Aopt, Aopt+)
            loss (float | None): L̂_z, the latest loss on the group's validation data
            trend (float | None): c1 · S_z / sqrt(Var S_z) (Aopt+)
            ucb (float | None): loss + bonus + trend
     """

    bonus: float | None
    loss: float | None
    trend: float | None
    ucb: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bonus: float | None
        bonus = self.bonus

        loss: float | None
        loss = self.loss

        trend: float | None
        trend = self.trend

        ucb: float | None
        ucb = self.ucb


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bonus": bonus,
            "loss": loss,
            "trend": trend,
            "ucb": ucb,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_bonus(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        bonus = _parse_bonus(d.pop("bonus"))


        def _parse_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        loss = _parse_loss(d.pop("loss"))


        def _parse_trend(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        trend = _parse_trend(d.pop("trend"))


        def _parse_ucb(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ucb = _parse_ucb(d.pop("ucb"))


        group_score = cls(
            bonus=bonus,
            loss=loss,
            trend=trend,
            ucb=ucb,
        )


        group_score.additional_properties = d
        return group_score

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
