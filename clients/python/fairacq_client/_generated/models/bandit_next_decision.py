from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bandit_next_decision_reason import BanditNextDecisionReason
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.bandit_next_decision_scores import BanditNextDecisionScores





T = TypeVar("T", bound="BanditNextDecision")



@_attrs_define
class BanditNextDecision:
    """ 
        Attributes:
            batch_size (int): items held by this decision until its feedback, a release or expires_at
            budget_remaining (int): budget neither spent nor held before this batch
            decision_id (UUID):
            expires_at (datetime.datetime): when the batch returns to the pool if nobody reports on it
            partition (str):
            reason (BanditNextDecisionReason):
            round_ (int):
            scores (BanditNextDecisionScores):
            item_ids (list[str] | None | Unset): pool ids (row indices as strings when the pool has no ids); null without a
                pool
     """

    batch_size: int
    budget_remaining: int
    decision_id: UUID
    expires_at: datetime.datetime
    partition: str
    reason: BanditNextDecisionReason
    round_: int
    scores: BanditNextDecisionScores
    item_ids: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bandit_next_decision_scores import BanditNextDecisionScores # noqa: PLC0415
        batch_size = self.batch_size

        budget_remaining = self.budget_remaining

        decision_id = str(self.decision_id)

        expires_at = self.expires_at.isoformat()

        partition = self.partition

        reason = self.reason.value

        round_ = self.round_

        scores = self.scores.to_dict()

        item_ids: list[str] | None | Unset
        if isinstance(self.item_ids, Unset):
            item_ids = UNSET
        elif isinstance(self.item_ids, list):
            item_ids = self.item_ids


        else:
            item_ids = self.item_ids


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "batch_size": batch_size,
            "budget_remaining": budget_remaining,
            "decision_id": decision_id,
            "expires_at": expires_at,
            "partition": partition,
            "reason": reason,
            "round": round_,
            "scores": scores,
        })
        if item_ids is not UNSET:
            field_dict["item_ids"] = item_ids

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bandit_next_decision_scores import BanditNextDecisionScores # noqa: PLC0415
        d = dict(src_dict)
        batch_size = d.pop("batch_size")

        budget_remaining = d.pop("budget_remaining")

        decision_id = UUID(d.pop("decision_id"))




        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        partition = d.pop("partition")

        reason = BanditNextDecisionReason(d.pop("reason"))




        round_ = d.pop("round")

        scores = BanditNextDecisionScores.from_dict(d.pop("scores"))




        def _parse_item_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                item_ids_type_0 = cast(list[str], data)

                return item_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        item_ids = _parse_item_ids(d.pop("item_ids", UNSET))


        bandit_next_decision = cls(
            batch_size=batch_size,
            budget_remaining=budget_remaining,
            decision_id=decision_id,
            expires_at=expires_at,
            partition=partition,
            reason=reason,
            round_=round_,
            scores=scores,
            item_ids=item_ids,
        )


        bandit_next_decision.additional_properties = d
        return bandit_next_decision

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
