from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cell_batch_count import CellBatchCount
  from ..models.cell_probability import CellProbability





T = TypeVar("T", bound="EpochResult")



@_attrs_define
class EpochResult:
    """ 
        Attributes:
            batch_composition (list[CellBatchCount]):
            disparity (float): largest gap of a group against the overall rate
            epoch (int):
            lambdas (list[float]):
            max_pair_disparity (float):
            moved (int | None): index of the λ that moved, or null when none did
            pair_disparities (list[float]):
            sampling_probabilities (list[CellProbability]):
     """

    batch_composition: list[CellBatchCount]
    disparity: float
    epoch: int
    lambdas: list[float]
    max_pair_disparity: float
    moved: int | None
    pair_disparities: list[float]
    sampling_probabilities: list[CellProbability]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.cell_batch_count import CellBatchCount # noqa: PLC0415
        from ..models.cell_probability import CellProbability # noqa: PLC0415
        batch_composition = []
        for batch_composition_item_data in self.batch_composition:
            batch_composition_item = batch_composition_item_data.to_dict()
            batch_composition.append(batch_composition_item)



        disparity = self.disparity

        epoch = self.epoch

        lambdas = self.lambdas



        max_pair_disparity = self.max_pair_disparity

        moved: int | None
        moved = self.moved

        pair_disparities = self.pair_disparities



        sampling_probabilities = []
        for sampling_probabilities_item_data in self.sampling_probabilities:
            sampling_probabilities_item = sampling_probabilities_item_data.to_dict()
            sampling_probabilities.append(sampling_probabilities_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "batch_composition": batch_composition,
            "disparity": disparity,
            "epoch": epoch,
            "lambdas": lambdas,
            "max_pair_disparity": max_pair_disparity,
            "moved": moved,
            "pair_disparities": pair_disparities,
            "sampling_probabilities": sampling_probabilities,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cell_batch_count import CellBatchCount # noqa: PLC0415
        from ..models.cell_probability import CellProbability # noqa: PLC0415
        d = dict(src_dict)
        batch_composition = []
        _batch_composition = d.pop("batch_composition")
        for batch_composition_item_data in (_batch_composition):
            batch_composition_item = CellBatchCount.from_dict(batch_composition_item_data)



            batch_composition.append(batch_composition_item)


        disparity = d.pop("disparity")

        epoch = d.pop("epoch")

        lambdas = cast(list[float], d.pop("lambdas"))


        max_pair_disparity = d.pop("max_pair_disparity")

        def _parse_moved(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        moved = _parse_moved(d.pop("moved"))


        pair_disparities = cast(list[float], d.pop("pair_disparities"))


        sampling_probabilities = []
        _sampling_probabilities = d.pop("sampling_probabilities")
        for sampling_probabilities_item_data in (_sampling_probabilities):
            sampling_probabilities_item = CellProbability.from_dict(sampling_probabilities_item_data)



            sampling_probabilities.append(sampling_probabilities_item)


        epoch_result = cls(
            batch_composition=batch_composition,
            disparity=disparity,
            epoch=epoch,
            lambdas=lambdas,
            max_pair_disparity=max_pair_disparity,
            moved=moved,
            pair_disparities=pair_disparities,
            sampling_probabilities=sampling_probabilities,
        )


        epoch_result.additional_properties = d
        return epoch_result

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
