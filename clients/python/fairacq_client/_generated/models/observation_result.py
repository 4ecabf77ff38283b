from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_status import SessionStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.job_out import JobOut
  from ..models.observation_result_counts import ObservationResultCounts
  from ..models.observation_result_group_losses import ObservationResultGroupLosses
  from ..models.observation_result_mixture import ObservationResultMixture
  from ..models.observation_result_pending import ObservationResultPending





T = TypeVar("T", bound="ObservationResult")



@_attrs_define
class ObservationResult:
    """ 
        Attributes:
            budget_remaining (int): samples neither acquired nor held by pending decisions
            counts (ObservationResultCounts): N_z: training samples acquired per group
            group (str):
            group_losses (ObservationResultGroupLosses):
            mixture (ObservationResultMixture): π(z) = N_z / Σ N
            n_acquired (int):
            observation_id (str):
            pending (ObservationResultPending): P_z: samples held per group by pending decisions
            round_ (int): observations applied so far
            status (SessionStatus):
            decision_id (None | Unset | UUID):
            job (JobOut | None | Unset): managed mode: the fit job (also in Location)
     """

    budget_remaining: int
    counts: ObservationResultCounts
    group: str
    group_losses: ObservationResultGroupLosses
    mixture: ObservationResultMixture
    n_acquired: int
    observation_id: str
    pending: ObservationResultPending
    round_: int
    status: SessionStatus
    decision_id: None | Unset | UUID = UNSET
    job: JobOut | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.job_out import JobOut # noqa: PLC0415
        from ..models.observation_result_counts import ObservationResultCounts # noqa: PLC0415
        from ..models.observation_result_group_losses import ObservationResultGroupLosses # noqa: PLC0415
        from ..models.observation_result_mixture import ObservationResultMixture # noqa: PLC0415
        from ..models.observation_result_pending import ObservationResultPending # noqa: PLC0415
        budget_remaining = self.budget_remaining

        counts = self.counts.to_dict()

        group = self.group

        group_losses = self.group_losses.to_dict()

        mixture = self.mixture.to_dict()

        n_acquired = self.n_acquired

        observation_id = self.observation_id

        pending = self.pending.to_dict()

        round_ = self.round_

        status = self.status.value

        decision_id: None | str | Unset
        if isinstance(self.decision_id, Unset):
            decision_id = UNSET
        elif isinstance(self.decision_id, UUID):
            decision_id = str(self.decision_id)
        else:
            decision_id = self.decision_id

        job: dict[str, Any] | None | Unset
        if isinstance(self.job, Unset):
            job = UNSET
        elif isinstance(self.job, JobOut):
            job = self.job.to_dict()
        else:
            job = self.job


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "budget_remaining": budget_remaining,
            "counts": counts,
            "group": group,
            "group_losses": group_losses,
            "mixture": mixture,
            "n_acquired": n_acquired,
            "observation_id": observation_id,
            "pending": pending,
            "round": round_,
            "status": status,
        })
        if decision_id is not UNSET:
            field_dict["decision_id"] = decision_id
        if job is not UNSET:
            field_dict["job"] = job

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_out import JobOut # noqa: PLC0415
        from ..models.observation_result_counts import ObservationResultCounts # noqa: PLC0415
        from ..models.observation_result_group_losses import ObservationResultGroupLosses # noqa: PLC0415
        from ..models.observation_result_mixture import ObservationResultMixture # noqa: PLC0415
        from ..models.observation_result_pending import ObservationResultPending # noqa: PLC0415
        d = dict(src_dict)
        budget_remaining = d.pop("budget_remaining")

        counts = ObservationResultCounts.from_dict(d.pop("counts"))




        group = d.pop("group")

        group_losses = ObservationResultGroupLosses.from_dict(d.pop("group_losses"))




        mixture = ObservationResultMixture.from_dict(d.pop("mixture"))




        n_acquired = d.pop("n_acquired")

        observation_id = d.pop("observation_id")

        pending = ObservationResultPending.from_dict(d.pop("pending"))




        round_ = d.pop("round")

        status = SessionStatus(d.pop("status"))




        def _parse_decision_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_id_type_0 = UUID(data)



                return decision_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        decision_id = _parse_decision_id(d.pop("decision_id", UNSET))


        def _parse_job(data: object) -> JobOut | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                job_type_0 = JobOut.from_dict(data)



                return job_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobOut | None | Unset, data)

        job = _parse_job(d.pop("job", UNSET))


        observation_result = cls(
            budget_remaining=budget_remaining,
            counts=counts,
            group=group,
            group_losses=group_losses,
            mixture=mixture,
            n_acquired=n_acquired,
            observation_id=observation_id,
            pending=pending,
            round_=round_,
            status=status,
            decision_id=decision_id,
            job=job,
        )


        observation_result.additional_properties = d
        return observation_result

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
