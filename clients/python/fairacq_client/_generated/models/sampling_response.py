from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="SamplingResponse")



@_attrs_define
class SamplingResponse:
    """ 
        Attributes:
            acceptance_probabilities (list[float]): ρ = q / r̂ scaled to max 1 (Algorithm 1)
            acceptance_rate (float):
            accepted_distribution (list[float]):
            distance (float):
            gap (float):
            imbalance (float | None): null when nothing would be accepted
            in_hull (bool):
            iterations (int):
            message (str):
            q (list[float]):
            relaxed (bool):
            solver (str):
            status (str):
     """

    acceptance_probabilities: list[float]
    acceptance_rate: float
    accepted_distribution: list[float]
    distance: float
    gap: float
    imbalance: float | None
    in_hull: bool
    iterations: int
    message: str
    q: list[float]
    relaxed: bool
    solver: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        acceptance_probabilities = self.acceptance_probabilities



        acceptance_rate = self.acceptance_rate

        accepted_distribution = self.accepted_distribution



        distance = self.distance

        gap = self.gap

        imbalance: float | None
        imbalance = self.imbalance

        in_hull = self.in_hull

        iterations = self.iterations

        message = self.message

        q = self.q



        relaxed = self.relaxed

        solver = self.solver

        status = self.status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "acceptance_probabilities": acceptance_probabilities,
            "acceptance_rate": acceptance_rate,
            "accepted_distribution": accepted_distribution,
            "distance": distance,
            "gap": gap,
            "imbalance": imbalance,
            "in_hull": in_hull,
            "iterations": iterations,
            "message": message,
            "q": q,
            "relaxed": relaxed,
            "solver": solver,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        acceptance_probabilities = cast(list[float], d.pop("acceptance_probabilities"))


        acceptance_rate = d.pop("acceptance_rate")

        accepted_distribution = cast(list[float], d.pop("accepted_distribution"))


        distance = d.pop("distance")

        gap = d.pop("gap")

        def _parse_imbalance(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        imbalance = _parse_imbalance(d.pop("imbalance"))


        in_hull = d.pop("in_hull")

        iterations = d.pop("iterations")

        message = d.pop("message")

        q = cast(list[float], d.pop("q"))


        relaxed = d.pop("relaxed")

        solver = d.pop("solver")

        status = d.pop("status")

        sampling_response = cls(
            acceptance_probabilities=acceptance_probabilities,
            acceptance_rate=acceptance_rate,
            accepted_distribution=accepted_distribution,
            distance=distance,
            gap=gap,
            imbalance=imbalance,
            in_hull=in_hull,
            iterations=iterations,
            message=message,
            q=q,
            relaxed=relaxed,
            solver=solver,
            status=status,
        )


        sampling_response.additional_properties = d
        return sampling_response

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
