from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.partitioning_spec_method import PartitioningSpecMethod
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PartitioningSpec")



@_attrs_define
class PartitioningSpec:
    """ 
        Attributes:
            column (int | None | str | Unset): column: a feature name or index of the pool
            include_groups (bool | Unset): gmm: also cluster on one-hot (standardised) groups Default: False.
            max_components (int | Unset): gmm: BIC picks k in 2..this Default: 10.
            method (PartitioningSpecMethod | Unset):  Default: PartitioningSpecMethod.GMM.
            standardize (bool | Unset): gmm: z-score the features before fitting Default: True.
     """

    column: int | None | str | Unset = UNSET
    include_groups: bool | Unset = False
    max_components: int | Unset = 10
    method: PartitioningSpecMethod | Unset = PartitioningSpecMethod.GMM
    standardize: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        column: int | None | str | Unset
        if isinstance(self.column, Unset):
            column = UNSET
        else:
            column = self.column

        include_groups = self.include_groups

        max_components = self.max_components

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value


        standardize = self.standardize


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if column is not UNSET:
            field_dict["column"] = column
        if include_groups is not UNSET:
            field_dict["include_groups"] = include_groups
        if max_components is not UNSET:
            field_dict["max_components"] = max_components
        if method is not UNSET:
            field_dict["method"] = method
        if standardize is not UNSET:
            field_dict["standardize"] = standardize

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_column(data: object) -> int | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | str | Unset, data)

        column = _parse_column(d.pop("column", UNSET))


        include_groups = d.pop("include_groups", UNSET)

        max_components = d.pop("max_components", UNSET)

        _method = d.pop("method", UNSET)
        method: PartitioningSpecMethod | Unset
        if isinstance(_method,  Unset):
            method = UNSET
        else:
            method = PartitioningSpecMethod(_method)




        standardize = d.pop("standardize", UNSET)

        partitioning_spec = cls(
            column=column,
            include_groups=include_groups,
            max_components=max_components,
            method=method,
            standardize=standardize,
        )

        return partitioning_spec

