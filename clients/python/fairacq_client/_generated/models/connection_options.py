from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ConnectionOptions")



@_attrs_define
class ConnectionOptions:
    """ 
        Attributes:
            fit_wait_seconds (float | Unset): group samplers: /predict waits this long at most for a queued or running refit
                Default: 10.0.
            validation_every (int | Unset): group samplers: each group's first annotation, then every n-th, is held out as
                validation data Default: 4.
     """

    fit_wait_seconds: float | Unset = 10.0
    validation_every: int | Unset = 4





    def to_dict(self) -> dict[str, Any]:
        fit_wait_seconds = self.fit_wait_seconds

        validation_every = self.validation_every


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if fit_wait_seconds is not UNSET:
            field_dict["fit_wait_seconds"] = fit_wait_seconds
        if validation_every is not UNSET:
            field_dict["validation_every"] = validation_every

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fit_wait_seconds = d.pop("fit_wait_seconds", UNSET)

        validation_every = d.pop("validation_every", UNSET)

        connection_options = cls(
            fit_wait_seconds=fit_wait_seconds,
            validation_every=validation_every,
        )

        return connection_options

