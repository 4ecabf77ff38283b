from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.prediction_result_mode import PredictionResultMode
from ..models.prediction_result_scale import PredictionResultScale
from typing import cast






T = TypeVar("T", bound="PredictionResult")



@_attrs_define
class PredictionResult:
    """ 
        Attributes:
            mode (PredictionResultMode):
            predictions (list[float]):
            scale (PredictionResultScale):
            seed (int | None): randomized: the seed of the draw, to reproduce it
            slack (float | None): the slack of the result used (statistical parity)
     """

    mode: PredictionResultMode
    predictions: list[float]
    scale: PredictionResultScale
    seed: int | None
    slack: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        predictions = self.predictions



        scale = self.scale.value

        seed: int | None
        seed = self.seed

        slack: float | None
        slack = self.slack


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "predictions": predictions,
            "scale": scale,
            "seed": seed,
            "slack": slack,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = PredictionResultMode(d.pop("mode"))




        predictions = cast(list[float], d.pop("predictions"))


        scale = PredictionResultScale(d.pop("scale"))




        def _parse_seed(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seed = _parse_seed(d.pop("seed"))


        def _parse_slack(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        slack = _parse_slack(d.pop("slack"))


        prediction_result = cls(
            mode=mode,
            predictions=predictions,
            scale=scale,
            seed=seed,
            slack=slack,
        )


        prediction_result.additional_properties = d
        return prediction_result

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
