from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.feedback_result_rewards import FeedbackResultRewards





T = TypeVar("T", bound="FeedbackResult")



@_attrs_define
class FeedbackResult:
    """ 
        Attributes:
            accepted (bool):
            best_fairness (float):
            budget_remaining (int):
            decision_id (UUID):
            delta_fairness (float): ΔF = |F_before| − |F_after|
            done (bool):
            rewards (FeedbackResultRewards): what this feedback credited to each partition (eq. 1)
            round_ (int):
            accuracy_guard_rejected (bool | Unset): F improved but accuracy fell more than δ below the best Default: False.
            best_accuracy (float | None | Unset): the best accuracy of a kept model (bandits using accuracy)
            delta_accuracy (float | None | Unset): accuracy_after − accuracy_before (bandits using accuracy)
            stop_reason (None | str | Unset):
     """

    accepted: bool
    best_fairness: float
    budget_remaining: int
    decision_id: UUID
    delta_fairness: float
    done: bool
    rewards: FeedbackResultRewards
    round_: int
    accuracy_guard_rejected: bool | Unset = False
    best_accuracy: float | None | Unset = UNSET
    delta_accuracy: float | None | Unset = UNSET
    stop_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.feedback_result_rewards import FeedbackResultRewards # noqa: PLC0415
        accepted = self.accepted

        best_fairness = self.best_fairness

        budget_remaining = self.budget_remaining

        decision_id = str(self.decision_id)

        delta_fairness = self.delta_fairness

        done = self.done

        rewards = self.rewards.to_dict()

        round_ = self.round_

        accuracy_guard_rejected = self.accuracy_guard_rejected

        best_accuracy: float | None | Unset
        if isinstance(self.best_accuracy, Unset):
            best_accuracy = UNSET
        else:
            best_accuracy = self.best_accuracy

        delta_accuracy: float | None | Unset
        if isinstance(self.delta_accuracy, Unset):
            delta_accuracy = UNSET
        else:
            delta_accuracy = self.delta_accuracy

        stop_reason: None | str | Unset
        if isinstance(self.stop_reason, Unset):
            stop_reason = UNSET
        else:
            stop_reason = self.stop_reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accepted": accepted,
            "best_fairness": best_fairness,
            "budget_remaining": budget_remaining,
            "decision_id": decision_id,
            "delta_fairness": delta_fairness,
            "done": done,
            "rewards": rewards,
            "round": round_,
        })
        if accuracy_guard_rejected is not UNSET:
            field_dict["accuracy_guard_rejected"] = accuracy_guard_rejected
        if best_accuracy is not UNSET:
            field_dict["best_accuracy"] = best_accuracy
        if delta_accuracy is not UNSET:
            field_dict["delta_accuracy"] = delta_accuracy
        if stop_reason is not UNSET:
            field_dict["stop_reason"] = stop_reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feedback_result_rewards import FeedbackResultRewards # noqa: PLC0415
        d = dict(src_dict)
        accepted = d.pop("accepted")

        best_fairness = d.pop("best_fairness")

        budget_remaining = d.pop("budget_remaining")

        decision_id = UUID(d.pop("decision_id"))




        delta_fairness = d.pop("delta_fairness")

        done = d.pop("done")

        rewards = FeedbackResultRewards.from_dict(d.pop("rewards"))




        round_ = d.pop("round")

        accuracy_guard_rejected = d.pop("accuracy_guard_rejected", UNSET)

        def _parse_best_accuracy(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_accuracy = _parse_best_accuracy(d.pop("best_accuracy", UNSET))


        def _parse_delta_accuracy(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        delta_accuracy = _parse_delta_accuracy(d.pop("delta_accuracy", UNSET))


        def _parse_stop_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stop_reason = _parse_stop_reason(d.pop("stop_reason", UNSET))


        feedback_result = cls(
            accepted=accepted,
            best_fairness=best_fairness,
            budget_remaining=budget_remaining,
            decision_id=decision_id,
            delta_fairness=delta_fairness,
            done=done,
            rewards=rewards,
            round_=round_,
            accuracy_guard_rejected=accuracy_guard_rejected,
            best_accuracy=best_accuracy,
            delta_accuracy=delta_accuracy,
            stop_reason=stop_reason,
        )


        feedback_result.additional_properties = d
        return feedback_result

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
