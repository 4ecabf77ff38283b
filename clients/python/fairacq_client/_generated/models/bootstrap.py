from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="Bootstrap")



@_attrs_define
class Bootstrap:
    """ Percentile intervals from a bootstrap stratified by group (every group keeps its size).

        Attributes:
            level (float | Unset): coverage of each interval Default: 0.95.
            resamples (int | Unset): number of resamples; rows × resamples is capped (422 beyond) Default: 1000.
            seed (int | Unset): the same seed gives the same intervals, bit for bit; omitted, one is drawn and returned
     """

    level: float | Unset = 0.95
    resamples: int | Unset = 1000
    seed: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        level = self.level

        resamples = self.resamples

        seed = self.seed


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if level is not UNSET:
            field_dict["level"] = level
        if resamples is not UNSET:
            field_dict["resamples"] = resamples
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        level = d.pop("level", UNSET)

        resamples = d.pop("resamples", UNSET)

        seed = d.pop("seed", UNSET)

        bootstrap = cls(
            level=level,
            resamples=resamples,
            seed=seed,
        )

        return bootstrap

