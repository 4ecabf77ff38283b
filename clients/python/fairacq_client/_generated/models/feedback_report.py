from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from uuid import UUID






T = TypeVar("T", bound="FeedbackReport")



@_attrs_define
class FeedbackReport:
    """ 
        Attributes:
            decision_id (UUID):
            fairness_after (float): F of the model trained with the batch
            fairness_before (float): F of the model before adding the batch
            accuracy_after (float | Unset): the same for the model trained with the batch
            accuracy_before (float | Unset): accuracy (or another accuracy-side metric, higher is better) of the model
                before the batch, on a validation split; required when the bandit has accuracy_weight > 0 or accuracy_tolerance
     """

    decision_id: UUID
    fairness_after: float
    fairness_before: float
    accuracy_after: float | Unset = UNSET
    accuracy_before: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        decision_id = str(self.decision_id)

        fairness_after = self.fairness_after

        fairness_before = self.fairness_before

        accuracy_after = self.accuracy_after

        accuracy_before = self.accuracy_before


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "decision_id": decision_id,
            "fairness_after": fairness_after,
            "fairness_before": fairness_before,
        })
        if accuracy_after is not UNSET:
            field_dict["accuracy_after"] = accuracy_after
        if accuracy_before is not UNSET:
            field_dict["accuracy_before"] = accuracy_before

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decision_id = UUID(d.pop("decision_id"))




        fairness_after = d.pop("fairness_after")

        fairness_before = d.pop("fairness_before")

        accuracy_after = d.pop("accuracy_after", UNSET)

        accuracy_before = d.pop("accuracy_before", UNSET)

        feedback_report = cls(
            decision_id=decision_id,
            fairness_after=fairness_after,
            fairness_before=fairness_before,
            accuracy_after=accuracy_after,
            accuracy_before=accuracy_before,
        )

        return feedback_report

