from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="RandomBatchPolicy")



@_attrs_define
class RandomBatchPolicy:
    """ Partition bandits' baseline: batches drawn uniformly from the whole pool, every one kept.

        Attributes:
            policy (Literal['random']):
            batch_size (int | Unset): points acquired per batch Default: 10.
            name (str | Unset): how results name it (default: random)
     """

    policy: Literal['random']
    batch_size: int | Unset = 10
    name: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        policy = self.policy

        batch_size = self.batch_size

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "policy": policy,
        })
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        policy = cast(Literal['random'] , d.pop("policy"))
        if policy != 'random':
            raise ValueError(f"policy must match const 'random', got '{policy}'")

        batch_size = d.pop("batch_size", UNSET)

        name = d.pop("name", UNSET)

        random_batch_policy = cls(
            policy=policy,
            batch_size=batch_size,
            name=name,
        )

        return random_batch_policy

