from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="CellLoss")



@_attrs_define
class CellLoss:
    """ 
        Attributes:
            group (float | int | str): a string or a number
            label (float | int | str): a string or a number
            loss (float): mean loss of the cell's training examples
     """

    group: float | int | str
    label: float | int | str
    loss: float





    def to_dict(self) -> dict[str, Any]:
        group: float | int | str
        group = self.group

        label: float | int | str
        label = self.label

        loss = self.loss


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "group": group,
            "label": label,
            "loss": loss,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_group(data: object) -> float | int | str:
            return cast(float | int | str, data)

        group = _parse_group(d.pop("group"))


        def _parse_label(data: object) -> float | int | str:
            return cast(float | int | str, data)

        label = _parse_label(d.pop("label"))


        loss = d.pop("loss")

        cell_loss = cls(
            group=group,
            label=label,
            loss=loss,
        )

        return cell_loss

