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
  from ..models.model_params import ModelParams





T = TypeVar("T", bound="SamplerModelSpec")



@_attrs_define
class SamplerModelSpec:
    """ The model managed mode trains in a worker after every observation.

        Attributes:
            params (ModelParams | Unset):
            type_ (Literal['logistic_regression'] | Unset):  Default: 'logistic_regression'.
     """

    params: ModelParams | Unset = UNSET
    type_: Literal['logistic_regression'] | Unset = 'logistic_regression'





    def to_dict(self) -> dict[str, Any]:
        from ..models.model_params import ModelParams # noqa: PLC0415
        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if params is not UNSET:
            field_dict["params"] = params
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.model_params import ModelParams # noqa: PLC0415
        d = dict(src_dict)
        _params = d.pop("params", UNSET)
        params: ModelParams | Unset
        if isinstance(_params,  Unset):
            params = UNSET
        else:
            params = ModelParams.from_dict(_params)




        type_ = cast(Literal['logistic_regression'] | Unset , d.pop("type", UNSET))
        if type_ != 'logistic_regression'and not isinstance(type_, Unset):
            raise ValueError(f"type must match const 'logistic_regression', got '{type_}'")

        sampler_model_spec = cls(
            params=params,
            type_=type_,
        )

        return sampler_model_spec

