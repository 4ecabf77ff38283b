from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.dataset_out_encoding_type_0 import DatasetOutEncodingType0





T = TypeVar("T", bound="DatasetOut")



@_attrs_define
class DatasetOut:
    """ 
        Attributes:
            created_at (datetime.datetime):
            feature_names (list[str]):
            group_values (list[Any] | None):
            has_ids (bool):
            id (UUID):
            n_features (int):
            n_rows (int):
            name (None | str):
            encoding (DatasetOutEncodingType0 | None | Unset): how CSV columns became features (one-hot categories per
                column)
            label_values (list[Any] | None | Unset):
     """

    created_at: datetime.datetime
    feature_names: list[str]
    group_values: list[Any] | None
    has_ids: bool
    id: UUID
    n_features: int
    n_rows: int
    name: None | str
    encoding: DatasetOutEncodingType0 | None | Unset = UNSET
    label_values: list[Any] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_out_encoding_type_0 import DatasetOutEncodingType0 # noqa: PLC0415
        created_at = self.created_at.isoformat()

        feature_names = self.feature_names



        group_values: list[Any] | None
        if isinstance(self.group_values, list):
            group_values = self.group_values


        else:
            group_values = self.group_values

        has_ids = self.has_ids

        id = str(self.id)

        n_features = self.n_features

        n_rows = self.n_rows

        name: None | str
        name = self.name

        encoding: dict[str, Any] | None | Unset
        if isinstance(self.encoding, Unset):
            encoding = UNSET
        elif isinstance(self.encoding, DatasetOutEncodingType0):
            encoding = self.encoding.to_dict()
        else:
            encoding = self.encoding

        label_values: list[Any] | None | Unset
        if isinstance(self.label_values, Unset):
            label_values = UNSET
        elif isinstance(self.label_values, list):
            label_values = self.label_values


        else:
            label_values = self.label_values


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "feature_names": feature_names,
            "group_values": group_values,
            "has_ids": has_ids,
            "id": id,
            "n_features": n_features,
            "n_rows": n_rows,
            "name": name,
        })
        if encoding is not UNSET:
            field_dict["encoding"] = encoding
        if label_values is not UNSET:
            field_dict["label_values"] = label_values

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_out_encoding_type_0 import DatasetOutEncodingType0 # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        feature_names = cast(list[str], d.pop("feature_names"))


        def _parse_group_values(data: object) -> list[Any] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                group_values_type_0 = cast(list[Any], data)

                return group_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None, data)

        group_values = _parse_group_values(d.pop("group_values"))


        has_ids = d.pop("has_ids")

        id = UUID(d.pop("id"))




        n_features = d.pop("n_features")

        n_rows = d.pop("n_rows")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        def _parse_encoding(data: object) -> DatasetOutEncodingType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                encoding_type_0 = DatasetOutEncodingType0.from_dict(data)



                return encoding_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DatasetOutEncodingType0 | None | Unset, data)

        encoding = _parse_encoding(d.pop("encoding", UNSET))


        def _parse_label_values(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                label_values_type_0 = cast(list[Any], data)

                return label_values_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        label_values = _parse_label_values(d.pop("label_values", UNSET))


        dataset_out = cls(
            created_at=created_at,
            feature_names=feature_names,
            group_values=group_values,
            has_ids=has_ids,
            id=id,
            n_features=n_features,
            n_rows=n_rows,
            name=name,
            encoding=encoding,
            label_values=label_values,
        )


        dataset_out.additional_properties = d
        return dataset_out

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
