from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="PartitionScore")



@_attrs_define
class PartitionScore:
    """ 
        Attributes:
            bonus (float): α·sqrt(2 ln(n / (n_j + 1)))
            eligible (bool): holds a full batch
            pulls (int): times j was selected and reported on
            remaining (int): items still on offer
            reward (float): R_j, the mean of the rewards credited to j (eq. 2)
            ucb (float):
            pending (int | Unset): decisions on j awaiting feedback; n_j of eq. 2 is pulls + pending Default: 0.
     """

    bonus: float
    eligible: bool
    pulls: int
    remaining: int
    reward: float
    ucb: float
    pending: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bonus = self.bonus

        eligible = self.eligible

        pulls = self.pulls

        remaining = self.remaining

        reward = self.reward

        ucb = self.ucb

        pending = self.pending


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bonus": bonus,
            "eligible": eligible,
            "pulls": pulls,
            "remaining": remaining,
            "reward": reward,
            "ucb": ucb,
        })
        if pending is not UNSET:
            field_dict["pending"] = pending

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bonus = d.pop("bonus")

        eligible = d.pop("eligible")

        pulls = d.pop("pulls")

        remaining = d.pop("remaining")

        reward = d.pop("reward")

        ucb = d.pop("ucb")

        pending = d.pop("pending", UNSET)

        partition_score = cls(
            bonus=bonus,
            eligible=eligible,
            pulls=pulls,
            remaining=remaining,
            reward=reward,
            ucb=ucb,
            pending=pending,
        )


        partition_score.additional_properties = d
        return partition_score

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
