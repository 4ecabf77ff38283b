from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="MinibatchPolicy")



@_attrs_define
class MinibatchPolicy:
    """ Batch schedulers' baseline: the training set shuffled and cut into minibatches each epoch.

        Attributes:
            policy (Literal['minibatch']):
            name (str | Unset): how results name it (default: minibatch)
     """

    policy: Literal['minibatch']
    name: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        policy = self.policy

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "policy": policy,
        })
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        policy = cast(Literal['minibatch'] , d.pop("policy"))
        if policy != 'minibatch':
            raise ValueError(f"policy must match const 'minibatch', got '{policy}'")

        name = d.pop("name", UNSET)

        minibatch_policy = cls(
            policy=policy,
            name=name,
        )

        return minibatch_policy

