from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="DecisionBatchRequest")



@_attrs_define
class DecisionBatchRequest:
    """ How many decisions to make at once (one per worker about to acquire).

        Attributes:
            count (int | Unset): decisions to make; fewer come back when the budget (or the pool) runs out during the batch
                Default: 1.
     """

    count: int | Unset = 1





    def to_dict(self) -> dict[str, Any]:
        count = self.count


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if count is not UNSET:
            field_dict["count"] = count

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count", UNSET)

        decision_batch_request = cls(
            count=count,
        )

        return decision_batch_request

