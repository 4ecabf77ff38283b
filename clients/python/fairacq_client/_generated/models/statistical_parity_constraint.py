from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="StatisticalParityConstraint")



@_attrs_define
class StatisticalParityConstraint:
    """ SP disparity at most the slack (Algorithm 1); a list of slacks runs a sweep.

        Attributes:
            slack (float | list[float]): ε̂; a list of distinct values fits one regressor per value and reports the frontier
            type_ (Literal['statistical_parity']):
            grid_size (int | Unset): N, the thresholds {1/N, …, 1} of Section 4.1 Default: 40.
     """

    slack: float | list[float]
    type_: Literal['statistical_parity']
    grid_size: int | Unset = 40





    def to_dict(self) -> dict[str, Any]:
        slack: float | list[float]
        if isinstance(self.slack, list):
            slack = self.slack


        else:
            slack = self.slack

        type_ = self.type_

        grid_size = self.grid_size


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "slack": slack,
            "type": type_,
        })
        if grid_size is not UNSET:
            field_dict["grid_size"] = grid_size

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_slack(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                slack_type_1 = cast(list[float], data)

                return slack_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        slack = _parse_slack(d.pop("slack"))


        type_ = cast(Literal['statistical_parity'] , d.pop("type"))
        if type_ != 'statistical_parity':
            raise ValueError(f"type must match const 'statistical_parity', got '{type_}'")

        grid_size = d.pop("grid_size", UNSET)

        statistical_parity_constraint = cls(
            slack=slack,
            type_=type_,
            grid_size=grid_size,
        )

        return statistical_parity_constraint

