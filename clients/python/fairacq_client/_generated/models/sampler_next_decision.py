from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sampler_next_decision_reason import SamplerNextDecisionReason
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.sampler_next_decision_scores import SamplerNextDecisionScores





T = TypeVar("T", bound="SamplerNextDecision")



@_attrs_define
class SamplerNextDecision:
    """ 
        Attributes:
            batch_size (int): samples to acquire from the group, held until an observation naming this decision_id, a
                release, or expires_at (cut to the remaining budget)
            budget_remaining (int): samples neither acquired nor held before this batch
            decision_id (UUID):
            expires_at (datetime.datetime): when the batch returns to the budget if nobody reports on it
            group (str):
            note (str): why the group was chosen, in words
            reason (SamplerNextDecisionReason):
            round_ (int): the round this decision is for (observations and pending decisions so far + 1)
            scores (SamplerNextDecisionScores):
            fit_pending (bool | None | Unset): managed mode: some counted samples are not in the model yet
            model_version (int | None | Unset): managed mode: the fit the scores come from (0: none yet)
     """

    batch_size: int
    budget_remaining: int
    decision_id: UUID
    expires_at: datetime.datetime
    group: str
    note: str
    reason: SamplerNextDecisionReason
    round_: int
    scores: SamplerNextDecisionScores
    fit_pending: bool | None | Unset = UNSET
    model_version: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sampler_next_decision_scores import SamplerNextDecisionScores # noqa: PLC0415
        batch_size = self.batch_size

        budget_remaining = self.budget_remaining

        decision_id = str(self.decision_id)

        expires_at = self.expires_at.isoformat()

        group = self.group

        note = self.note

        reason = self.reason.value

        round_ = self.round_

        scores = self.scores.to_dict()

        fit_pending: bool | None | Unset
        if isinstance(self.fit_pending, Unset):
            fit_pending = UNSET
        else:
            fit_pending = self.fit_pending

        model_version: int | None | Unset
        if isinstance(self.model_version, Unset):
            model_version = UNSET
        else:
            model_version = self.model_version


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "batch_size": batch_size,
            "budget_remaining": budget_remaining,
            "decision_id": decision_id,
            "expires_at": expires_at,
            "group": group,
            "note": note,
            "reason": reason,
            "round": round_,
            "scores": scores,
        })
        if fit_pending is not UNSET:
            field_dict["fit_pending"] = fit_pending
        if model_version is not UNSET:
            field_dict["model_version"] = model_version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sampler_next_decision_scores import SamplerNextDecisionScores # noqa: PLC0415
        d = dict(src_dict)
        batch_size = d.pop("batch_size")

        budget_remaining = d.pop("budget_remaining")

        decision_id = UUID(d.pop("decision_id"))




        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        group = d.pop("group")

        note = d.pop("note")

        reason = SamplerNextDecisionReason(d.pop("reason"))




        round_ = d.pop("round")

        scores = SamplerNextDecisionScores.from_dict(d.pop("scores"))




        def _parse_fit_pending(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        fit_pending = _parse_fit_pending(d.pop("fit_pending", UNSET))


        def _parse_model_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        model_version = _parse_model_version(d.pop("model_version", UNSET))


        sampler_next_decision = cls(
            batch_size=batch_size,
            budget_remaining=budget_remaining,
            decision_id=decision_id,
            expires_at=expires_at,
            group=group,
            note=note,
            reason=reason,
            round_=round_,
            scores=scores,
            fit_pending=fit_pending,
            model_version=model_version,
        )


        sampler_next_decision.additional_properties = d
        return sampler_next_decision

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
