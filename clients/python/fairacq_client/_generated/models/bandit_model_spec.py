from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="BanditModelSpec")



@_attrs_define
class BanditModelSpec:
    """ The parametric model of influence batches and managed runs.

        Attributes:
            c (float | Unset): inverse L2 strength (scikit-learn's C) Default: 1.0.
            type_ (Literal['logistic_regression'] | Unset):  Default: 'logistic_regression'.
     """

    c: float | Unset = 1.0
    type_: Literal['logistic_regression'] | Unset = 'logistic_regression'





    def to_dict(self) -> dict[str, Any]:
        c = self.c

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if c is not UNSET:
            field_dict["C"] = c
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        c = d.pop("C", UNSET)

        type_ = cast(Literal['logistic_regression'] | Unset , d.pop("type", UNSET))
        if type_ != 'logistic_regression'and not isinstance(type_, Unset):
            raise ValueError(f"type must match const 'logistic_regression', got '{type_}'")

        bandit_model_spec = cls(
            c=c,
            type_=type_,
        )

        return bandit_model_spec

