from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ModelParams")



@_attrs_define
class ModelParams:
    """ 
        Attributes:
            l2 (float | Unset): L2 penalty on the coefficients (1 is scikit-learn's C = 1) Default: 1.0.
            max_iter (int | Unset): Newton steps at most per fit Default: 50.
     """

    l2: float | Unset = 1.0
    max_iter: int | Unset = 50





    def to_dict(self) -> dict[str, Any]:
        l2 = self.l2

        max_iter = self.max_iter


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if l2 is not UNSET:
            field_dict["l2"] = l2
        if max_iter is not UNSET:
            field_dict["max_iter"] = max_iter

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        l2 = d.pop("l2", UNSET)

        max_iter = d.pop("max_iter", UNSET)

        model_params = cls(
            l2=l2,
            max_iter=max_iter,
        )

        return model_params

