from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Sampling")



@_attrs_define
class Sampling:
    """ 
        Attributes:
            distance (float): ‖qA − U‖: distance from U to the hull (relaxed: cone) of A's rows
            gap (float):
            in_hull (bool):
            iterations (int):
            message (str):
            relaxed (bool):
            solver (str):
            status (str):
     """

    distance: float
    gap: float
    in_hull: bool
    iterations: int
    message: str
    relaxed: bool
    solver: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        distance = self.distance

        gap = self.gap

        in_hull = self.in_hull

        iterations = self.iterations

        message = self.message

        relaxed = self.relaxed

        solver = self.solver

        status = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "distance": distance,
            "gap": gap,
            "in_hull": in_hull,
            "iterations": iterations,
            "message": message,
            "relaxed": relaxed,
            "solver": solver,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        distance = d.pop("distance")

        gap = d.pop("gap")

        in_hull = d.pop("in_hull")

        iterations = d.pop("iterations")

        message = d.pop("message")

        relaxed = d.pop("relaxed")

        solver = d.pop("solver")

        status = d.pop("status")

        sampling = cls(
            distance=distance,
            gap=gap,
            in_hull=in_hull,
            iterations=iterations,
            message=message,
            relaxed=relaxed,
            solver=solver,
            status=status,
        )


        sampling.additional_properties = d
        return sampling

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
