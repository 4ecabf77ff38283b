from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="LabelMapping")



@_attrs_define
class LabelMapping:
    """ 
        Attributes:
            control (str): the Choices control (its name, from_name in results) holding the label
            positive (str): the choice that means label 1; any other choice is 0
     """

    control: str
    positive: str





    def to_dict(self) -> dict[str, Any]:
        control = self.control

        positive = self.positive


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "control": control,
            "positive": positive,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        control = d.pop("control")

        positive = d.pop("positive")

        label_mapping = cls(
            control=control,
            positive=positive,
        )

        return label_mapping

