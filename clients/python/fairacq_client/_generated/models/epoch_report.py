from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.cell_loss import CellLoss





T = TypeVar("T", bound="EpochReport")



@_attrs_define
class EpochReport:
    """ 
        Attributes:
            epoch (int): counts up from 1 (may skip; at most 2^63 - 1, the int64 the history stores); a repeated epoch
                returns its first result
            losses (list[CellLoss]):
     """

    epoch: int
    losses: list[CellLoss]





    def to_dict(self) -> dict[str, Any]:
        from ..models.cell_loss import CellLoss # noqa: PLC0415
        epoch = self.epoch

        losses = []
        for losses_item_data in self.losses:
            losses_item = losses_item_data.to_dict()
            losses.append(losses_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "epoch": epoch,
            "losses": losses,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cell_loss import CellLoss # noqa: PLC0415
        d = dict(src_dict)
        epoch = d.pop("epoch")

        losses = []
        _losses = d.pop("losses")
        for losses_item_data in (_losses):
            losses_item = CellLoss.from_dict(losses_item_data)



            losses.append(losses_item)


        epoch_report = cls(
            epoch=epoch,
            losses=losses,
        )

        return epoch_report

