from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.prediction_request_mode import PredictionRequestMode
from ..models.prediction_request_scale import PredictionRequestScale
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PredictionRequest")



@_attrs_define
class PredictionRequest:
    """ 
        Attributes:
            features (list[list[float]]):
            mode (PredictionRequestMode | Unset): expected: Σ Q(h) h(x); randomized: one h ~ Q drawn per row Default:
                PredictionRequestMode.EXPECTED.
            scale (PredictionRequestScale | Unset): original: on the labels' scale; unit: on the [0, 1] scale the fit used
                Default: PredictionRequestScale.ORIGINAL.
            seed (int | Unset): randomized: the draw's seed (random when left out; the response says which)
            slack (float | Unset): a sweep: which slack's result to use
     """

    features: list[list[float]]
    mode: PredictionRequestMode | Unset = PredictionRequestMode.EXPECTED
    scale: PredictionRequestScale | Unset = PredictionRequestScale.ORIGINAL
    seed: int | Unset = UNSET
    slack: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        features = []
        for features_item_data in self.features:
            features_item = features_item_data


            features.append(features_item)



        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value


        scale: str | Unset = UNSET
        if not isinstance(self.scale, Unset):
            scale = self.scale.value


        seed = self.seed

        slack = self.slack


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
        })
        if mode is not UNSET:
            field_dict["mode"] = mode
        if scale is not UNSET:
            field_dict["scale"] = scale
        if seed is not UNSET:
            field_dict["seed"] = seed
        if slack is not UNSET:
            field_dict["slack"] = slack

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        features = []
        _features = d.pop("features")
        for features_item_data in (_features):
            features_item = cast(list[float], features_item_data)

            features.append(features_item)


        _mode = d.pop("mode", UNSET)
        mode: PredictionRequestMode | Unset
        if isinstance(_mode,  Unset):
            mode = UNSET
        else:
            mode = PredictionRequestMode(_mode)




        _scale = d.pop("scale", UNSET)
        scale: PredictionRequestScale | Unset
        if isinstance(_scale,  Unset):
            scale = UNSET
        else:
            scale = PredictionRequestScale(_scale)




        seed = d.pop("seed", UNSET)

        slack = d.pop("slack", UNSET)

        prediction_request = cls(
            features=features,
            mode=mode,
            scale=scale,
            seed=seed,
            slack=slack,
        )

        return prediction_request

