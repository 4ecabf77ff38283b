from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.simulation_out import SimulationOut
  from ..models.skipped_item import SkippedItem





T = TypeVar("T", bound="SimulationList")



@_attrs_define
class SimulationList:
    """ 
        Attributes:
            items (list[SimulationOut]):
            next_cursor (None | str):
            skipped (list[SkippedItem] | Unset): rows of this page that cannot be read (a damaged stored state), by id; the
                page's other items and its cursor are unaffected
     """

    items: list[SimulationOut]
    next_cursor: None | str
    skipped: list[SkippedItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.simulation_out import SimulationOut # noqa: PLC0415
        from ..models.skipped_item import SkippedItem # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        next_cursor: None | str
        next_cursor = self.next_cursor

        skipped: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.skipped, Unset):
            skipped = []
            for skipped_item_data in self.skipped:
                skipped_item = skipped_item_data.to_dict()
                skipped.append(skipped_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "items": items,
            "next_cursor": next_cursor,
        })
        if skipped is not UNSET:
            field_dict["skipped"] = skipped

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.simulation_out import SimulationOut # noqa: PLC0415
        from ..models.skipped_item import SkippedItem # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = SimulationOut.from_dict(items_item_data)



            items.append(items_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))


        _skipped = d.pop("skipped", UNSET)
        skipped: list[SkippedItem] | Unset = UNSET
        if _skipped is not UNSET:
            skipped = []
            for skipped_item_data in _skipped:
                skipped_item = SkippedItem.from_dict(skipped_item_data)



                skipped.append(skipped_item)


        simulation_list = cls(
            items=items,
            next_cursor=next_cursor,
            skipped=skipped,
        )


        simulation_list.additional_properties = d
        return simulation_list

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
