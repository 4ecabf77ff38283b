from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.bounded_group_loss_constraint_bounds_type_0 import BoundedGroupLossConstraintBoundsType0





T = TypeVar("T", bound="BoundedGroupLossConstraint")



@_attrs_define
class BoundedGroupLossConstraint:
    """ Every group's mean loss at most its bound (Algorithm 2).

        Attributes:
            type_ (Literal['bounded_group_loss']):
            bound (float | None | Unset): ζ for every group, on the loss of labels scaled to [0, 1]
            bounds (BoundedGroupLossConstraintBoundsType0 | None | Unset): ζ_a per group name (as a string); every group
                needs one
     """

    type_: Literal['bounded_group_loss']
    bound: float | None | Unset = UNSET
    bounds: BoundedGroupLossConstraintBoundsType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bounded_group_loss_constraint_bounds_type_0 import BoundedGroupLossConstraintBoundsType0 # noqa: PLC0415
        type_ = self.type_

        bound: float | None | Unset
        if isinstance(self.bound, Unset):
            bound = UNSET
        else:
            bound = self.bound

        bounds: dict[str, Any] | None | Unset
        if isinstance(self.bounds, Unset):
            bounds = UNSET
        elif isinstance(self.bounds, BoundedGroupLossConstraintBoundsType0):
            bounds = self.bounds.to_dict()
        else:
            bounds = self.bounds


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if bound is not UNSET:
            field_dict["bound"] = bound
        if bounds is not UNSET:
            field_dict["bounds"] = bounds

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bounded_group_loss_constraint_bounds_type_0 import BoundedGroupLossConstraintBoundsType0 # noqa: PLC0415
        d = dict(src_dict)
        type_ = cast(Literal['bounded_group_loss'] , d.pop("type"))
        if type_ != 'bounded_group_loss':
            raise ValueError(f"type must match const 'bounded_group_loss', got '{type_}'")

        def _parse_bound(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        bound = _parse_bound(d.pop("bound", UNSET))


        def _parse_bounds(data: object) -> BoundedGroupLossConstraintBoundsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                bounds_type_0 = BoundedGroupLossConstraintBoundsType0.from_dict(data)



                return bounds_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BoundedGroupLossConstraintBoundsType0 | None | Unset, data)

        bounds = _parse_bounds(d.pop("bounds", UNSET))


        bounded_group_loss_constraint = cls(
            type_=type_,
            bound=bound,
            bounds=bounds,
        )

        return bounded_group_loss_constraint

