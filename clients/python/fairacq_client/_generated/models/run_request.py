from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from uuid import UUID






T = TypeVar("T", bound="RunRequest")



@_attrs_define
class RunRequest:
    """ 
        Attributes:
            refresh_influence (bool | Unset): DataSift-Inf: recompute influence after kept batches Default: False.
            test_dataset_id (UUID | Unset): default: the bandit's
            train_dataset_id (UUID | Unset): default: the bandit's
            validation_dataset_id (UUID | Unset): default: the bandit's; accuracy is measured here (needed with
                accuracy_weight > 0 or accuracy_tolerance)
     """

    refresh_influence: bool | Unset = False
    test_dataset_id: UUID | Unset = UNSET
    train_dataset_id: UUID | Unset = UNSET
    validation_dataset_id: UUID | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        refresh_influence = self.refresh_influence

        test_dataset_id: str | Unset = UNSET
        if not isinstance(self.test_dataset_id, Unset):
            test_dataset_id = str(self.test_dataset_id)

        train_dataset_id: str | Unset = UNSET
        if not isinstance(self.train_dataset_id, Unset):
            train_dataset_id = str(self.train_dataset_id)

        validation_dataset_id: str | Unset = UNSET
        if not isinstance(self.validation_dataset_id, Unset):
            validation_dataset_id = str(self.validation_dataset_id)


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if refresh_influence is not UNSET:
            field_dict["refresh_influence"] = refresh_influence
        if test_dataset_id is not UNSET:
            field_dict["test_dataset_id"] = test_dataset_id
        if train_dataset_id is not UNSET:
            field_dict["train_dataset_id"] = train_dataset_id
        if validation_dataset_id is not UNSET:
            field_dict["validation_dataset_id"] = validation_dataset_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        refresh_influence = d.pop("refresh_influence", UNSET)

        _test_dataset_id = d.pop("test_dataset_id", UNSET)
        test_dataset_id: UUID | Unset
        if isinstance(_test_dataset_id,  Unset):
            test_dataset_id = UNSET
        else:
            test_dataset_id = UUID(_test_dataset_id)




        _train_dataset_id = d.pop("train_dataset_id", UNSET)
        train_dataset_id: UUID | Unset
        if isinstance(_train_dataset_id,  Unset):
            train_dataset_id = UNSET
        else:
            train_dataset_id = UUID(_train_dataset_id)




        _validation_dataset_id = d.pop("validation_dataset_id", UNSET)
        validation_dataset_id: UUID | Unset
        if isinstance(_validation_dataset_id,  Unset):
            validation_dataset_id = UNSET
        else:
            validation_dataset_id = UUID(_validation_dataset_id)




        run_request = cls(
            refresh_influence=refresh_influence,
            test_dataset_id=test_dataset_id,
            train_dataset_id=train_dataset_id,
            validation_dataset_id=validation_dataset_id,
        )

        return run_request

