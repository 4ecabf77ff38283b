from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CellProbability")



@_attrs_define
class CellProbability:
    """ 
        Attributes:
            group (float | int | str): a string or a number
            label (float | int | str): a string or a number
            probability (float):
     """

    group: float | int | str
    label: float | int | str
    probability: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        group: float | int | str
        group = self.group

        label: float | int | str
        label = self.label

        probability = self.probability


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "group": group,
            "label": label,
            "probability": probability,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_group(data: object) -> float | int | str:
            return cast(float | int | str, data)

        group = _parse_group(d.pop("group"))


        def _parse_label(data: object) -> float | int | str:
            return cast(float | int | str, data)

        label = _parse_label(d.pop("label"))


        probability = d.pop("probability")

        cell_probability = cls(
            group=group,
            label=label,
            probability=probability,
        )


        cell_probability.additional_properties = d
        return cell_probability

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
