from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.realized_group_counts import RealizedGroupCounts
  from ..models.realized_group_shares import RealizedGroupShares





T = TypeVar("T", bound="Realized")



@_attrs_define
class Realized:
    """ 
        Attributes:
            group_counts (RealizedGroupCounts):
            group_shares (RealizedGroupShares):
            imbalance (float | None): ‖shares − U‖₂ among reported outcomes (Definition 2)
            outcomes (int): accepted candidates whose group has been reported
     """

    group_counts: RealizedGroupCounts
    group_shares: RealizedGroupShares
    imbalance: float | None
    outcomes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.realized_group_counts import RealizedGroupCounts # noqa: PLC0415
        from ..models.realized_group_shares import RealizedGroupShares # noqa: PLC0415
        group_counts = self.group_counts.to_dict()

        group_shares = self.group_shares.to_dict()

        imbalance: float | None
        imbalance = self.imbalance

        outcomes = self.outcomes


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "group_counts": group_counts,
            "group_shares": group_shares,
            "imbalance": imbalance,
            "outcomes": outcomes,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.realized_group_counts import RealizedGroupCounts # noqa: PLC0415
        from ..models.realized_group_shares import RealizedGroupShares # noqa: PLC0415
        d = dict(src_dict)
        group_counts = RealizedGroupCounts.from_dict(d.pop("group_counts"))




        group_shares = RealizedGroupShares.from_dict(d.pop("group_shares"))




        def _parse_imbalance(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        imbalance = _parse_imbalance(d.pop("imbalance"))


        outcomes = d.pop("outcomes")

        realized = cls(
            group_counts=group_counts,
            group_shares=group_shares,
            imbalance=imbalance,
            outcomes=outcomes,
        )


        realized.additional_properties = d
        return realized

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
