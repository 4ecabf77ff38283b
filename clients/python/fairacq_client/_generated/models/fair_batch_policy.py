from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="FairBatchPolicy")



@_attrs_define
class FairBatchPolicy:
    """ FairBatch's λ controller picks each epoch's batch composition (``POST /v1/batch-schedulers``).

        Attributes:
            policy (Literal['fairbatch']):
            name (str | Unset): how results name it (default: fairbatch)
            step_size (float | Unset): α: probability moved per epoch Default: 0.005.
            threshold (float | Unset): T: λ moves only while the disparity exceeds it Default: 0.0.
     """

    policy: Literal['fairbatch']
    name: str | Unset = UNSET
    step_size: float | Unset = 0.005
    threshold: float | Unset = 0.0





    def to_dict(self) -> dict[str, Any]:
        policy = self.policy

        name = self.name

        step_size = self.step_size

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "policy": policy,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if step_size is not UNSET:
            field_dict["step_size"] = step_size
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        policy = cast(Literal['fairbatch'] , d.pop("policy"))
        if policy != 'fairbatch':
            raise ValueError(f"policy must match const 'fairbatch', got '{policy}'")

        name = d.pop("name", UNSET)

        step_size = d.pop("step_size", UNSET)

        threshold = d.pop("threshold", UNSET)

        fair_batch_policy = cls(
            policy=policy,
            name=name,
            step_size=step_size,
            threshold=threshold,
        )

        return fair_batch_policy

