from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.label_mapping import LabelMapping





T = TypeVar("T", bound="FieldMapping")



@_attrs_define
class FieldMapping:
    """ Where the adapter finds a task's features, its group and an annotation's label.

        Attributes:
            features (str): task data field holding the feature vector (a list of numbers)
            group (str): task data field holding the task's group
            label (LabelMapping | None | Unset): group samplers: the annotation choice that is the label
     """

    features: str
    group: str
    label: LabelMapping | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.label_mapping import LabelMapping # noqa: PLC0415
        features = self.features

        group = self.group

        label: dict[str, Any] | None | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        elif isinstance(self.label, LabelMapping):
            label = self.label.to_dict()
        else:
            label = self.label


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "features": features,
            "group": group,
        })
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.label_mapping import LabelMapping # noqa: PLC0415
        d = dict(src_dict)
        features = d.pop("features")

        group = d.pop("group")

        def _parse_label(data: object) -> LabelMapping | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                label_type_0 = LabelMapping.from_dict(data)



                return label_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LabelMapping | None | Unset, data)

        label = _parse_label(d.pop("label", UNSET))


        field_mapping = cls(
            features=features,
            group=group,
            label=label,
        )

        return field_mapping

