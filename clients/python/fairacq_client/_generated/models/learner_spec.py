from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.learner_spec_type import LearnerSpecType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.learner_spec_params import LearnerSpecParams





T = TypeVar("T", bound="LearnerSpec")



@_attrs_define
class LearnerSpec:
    """ The base regressor class the oracle fits.

        Attributes:
            params (LearnerSpecParams | Unset): linear: alpha (L2 penalty, default 1e-4); gradient_boosting: n_estimators,
                max_depth, learning_rate, subsample, min_samples_leaf (scikit-learn's defaults)
            type_ (LearnerSpecType | Unset):  Default: LearnerSpecType.LINEAR.
     """

    params: LearnerSpecParams | Unset = UNSET
    type_: LearnerSpecType | Unset = LearnerSpecType.LINEAR





    def to_dict(self) -> dict[str, Any]:
        from ..models.learner_spec_params import LearnerSpecParams # noqa: PLC0415
        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        type_: str | Unset = UNSET
        if not isinstance(self.type_, Unset):
            type_ = self.type_.value



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
        from ..models.learner_spec_params import LearnerSpecParams # noqa: PLC0415
        d = dict(src_dict)
        _params = d.pop("params", UNSET)
        params: LearnerSpecParams | Unset
        if isinstance(_params,  Unset):
            params = UNSET
        else:
            params = LearnerSpecParams.from_dict(_params)




        _type_ = d.pop("type", UNSET)
        type_: LearnerSpecType | Unset
        if isinstance(_type_,  Unset):
            type_ = UNSET
        else:
            type_ = LearnerSpecType(_type_)




        learner_spec = cls(
            params=params,
            type_=type_,
        )

        return learner_spec

