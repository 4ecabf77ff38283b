from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_status import SessionStatus
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.group_sampler_release_counts import GroupSamplerReleaseCounts
  from ..models.group_sampler_release_group_losses import GroupSamplerReleaseGroupLosses
  from ..models.group_sampler_release_mixture import GroupSamplerReleaseMixture
  from ..models.group_sampler_release_pending import GroupSamplerReleasePending





T = TypeVar("T", bound="GroupSamplerRelease")



@_attrs_define
class GroupSamplerRelease:
    """ 
        Attributes:
            budget_remaining (int): samples neither acquired nor held by pending decisions
            counts (GroupSamplerReleaseCounts): N_z: training samples acquired per group
            decision_id (UUID):
            group (str):
            group_losses (GroupSamplerReleaseGroupLosses):
            mixture (GroupSamplerReleaseMixture): π(z) = N_z / Σ N
            pending (GroupSamplerReleasePending): P_z: samples held per group by pending decisions
            released (int): samples returned to the budget
            round_ (int): observations applied so far
            status (SessionStatus):
     """

    budget_remaining: int
    counts: GroupSamplerReleaseCounts
    decision_id: UUID
    group: str
    group_losses: GroupSamplerReleaseGroupLosses
    mixture: GroupSamplerReleaseMixture
    pending: GroupSamplerReleasePending
    released: int
    round_: int
    status: SessionStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.group_sampler_release_counts import GroupSamplerReleaseCounts # noqa: PLC0415
        from ..models.group_sampler_release_group_losses import GroupSamplerReleaseGroupLosses # noqa: PLC0415
        from ..models.group_sampler_release_mixture import GroupSamplerReleaseMixture # noqa: PLC0415
        from ..models.group_sampler_release_pending import GroupSamplerReleasePending # noqa: PLC0415
        budget_remaining = self.budget_remaining

        counts = self.counts.to_dict()

        decision_id = str(self.decision_id)

        group = self.group

        group_losses = self.group_losses.to_dict()

        mixture = self.mixture.to_dict()

        pending = self.pending.to_dict()

        released = self.released

        round_ = self.round_

        status = self.status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "budget_remaining": budget_remaining,
            "counts": counts,
            "decision_id": decision_id,
            "group": group,
            "group_losses": group_losses,
            "mixture": mixture,
            "pending": pending,
            "released": released,
            "round": round_,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.group_sampler_release_counts import GroupSamplerReleaseCounts # noqa: PLC0415
        from ..models.group_sampler_release_group_losses import GroupSamplerReleaseGroupLosses # noqa: PLC0415
        from ..models.group_sampler_release_mixture import GroupSamplerReleaseMixture # noqa: PLC0415
        from ..models.group_sampler_release_pending import GroupSamplerReleasePending # noqa: PLC0415
        d = dict(src_dict)
        budget_remaining = d.pop("budget_remaining")

        counts = GroupSamplerReleaseCounts.from_dict(d.pop("counts"))




        decision_id = UUID(d.pop("decision_id"))




        group = d.pop("group")

        group_losses = GroupSamplerReleaseGroupLosses.from_dict(d.pop("group_losses"))




        mixture = GroupSamplerReleaseMixture.from_dict(d.pop("mixture"))




        pending = GroupSamplerReleasePending.from_dict(d.pop("pending"))




        released = d.pop("released")

        round_ = d.pop("round")

        status = SessionStatus(d.pop("status"))




        group_sampler_release = cls(
            budget_remaining=budget_remaining,
            counts=counts,
            decision_id=decision_id,
            group=group,
            group_losses=group_losses,
            mixture=mixture,
            pending=pending,
            released=released,
            round_=round_,
            status=status,
        )


        group_sampler_release.additional_properties = d
        return group_sampler_release

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
