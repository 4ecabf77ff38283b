from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO






T = TypeVar("T", bound="DatasetCsvUpload")



@_attrs_define
class DatasetCsvUpload:
    """ The ``multipart/form-data`` body of a CSV upload (documents it: the route reads the form itself).

        Attributes:
            file (File): CSV with a header row
            feature_columns (str | Unset): comma-separated names (default: every other column)
            group_column (str | Unset): the column holding each row's group
            id_column (str | Unset): the column holding each row's id
            label_column (str | Unset): the column holding each row's label
            name (str | Unset):
     """

    file: File
    feature_columns: str | Unset = UNSET
    group_column: str | Unset = UNSET
    id_column: str | Unset = UNSET
    label_column: str | Unset = UNSET
    name: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()


        feature_columns = self.feature_columns

        group_column = self.group_column

        id_column = self.id_column

        label_column = self.label_column

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "file": file,
        })
        if feature_columns is not UNSET:
            field_dict["feature_columns"] = feature_columns
        if group_column is not UNSET:
            field_dict["group_column"] = group_column
        if id_column is not UNSET:
            field_dict["id_column"] = id_column
        if label_column is not UNSET:
            field_dict["label_column"] = label_column
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.feature_columns, Unset):
            files.append(("feature_columns", (None, str(self.feature_columns).encode(), "text/plain")))



        if not isinstance(self.group_column, Unset):
            files.append(("group_column", (None, str(self.group_column).encode(), "text/plain")))



        if not isinstance(self.id_column, Unset):
            files.append(("id_column", (None, str(self.id_column).encode(), "text/plain")))



        if not isinstance(self.label_column, Unset):
            files.append(("label_column", (None, str(self.label_column).encode(), "text/plain")))



        if not isinstance(self.name, Unset):
            files.append(("name", (None, str(self.name).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        feature_columns = d.pop("feature_columns", UNSET)

        group_column = d.pop("group_column", UNSET)

        id_column = d.pop("id_column", UNSET)

        label_column = d.pop("label_column", UNSET)

        name = d.pop("name", UNSET)

        dataset_csv_upload = cls(
            file=file,
            feature_columns=feature_columns,
            group_column=group_column,
            id_column=id_column,
            label_column=label_column,
            name=name,
        )

        return dataset_csv_upload

