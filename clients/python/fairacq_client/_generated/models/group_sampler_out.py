from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.group_sampler_out_loss import GroupSamplerOutLoss
from ..models.group_sampler_out_mode import GroupSamplerOutMode
from ..models.group_sampler_out_strategy import GroupSamplerOutStrategy
from ..models.session_status import SessionStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.group_sampler_out_counts import GroupSamplerOutCounts
  from ..models.group_sampler_out_group_accuracies import GroupSamplerOutGroupAccuracies
  from ..models.group_sampler_out_group_losses import GroupSamplerOutGroupLosses
  from ..models.group_sampler_out_mixture import GroupSamplerOutMixture
  from ..models.group_sampler_out_pending import GroupSamplerOutPending
  from ..models.params_out import ParamsOut
  from ..models.pending_out import PendingOut
  from ..models.sampler_model_spec import SamplerModelSpec





T = TypeVar("T", bound="GroupSamplerOut")



@_attrs_define
class GroupSamplerOut:
    """ 
        Attributes:
            batch_size (int):
            budget (int):
            budget_remaining (int): samples neither acquired nor held by pending decisions
            counts (GroupSamplerOutCounts): N_z: training samples acquired per group
            created_at (datetime.datetime):
            group_accuracies (GroupSamplerOutGroupAccuracies):
            group_losses (GroupSamplerOutGroupLosses):
            groups (list[str]):
            id (UUID):
            loss (GroupSamplerOutLoss):
            mixture (GroupSamplerOutMixture): π(z) = N_z / Σ N
            mode (GroupSamplerOutMode):
            name (None | str):
            params (ParamsOut):
            pending (GroupSamplerOutPending): P_z: samples held per group by pending decisions
            pending_ttl_seconds (float): how long a decision holds its batch
            round_ (int): observations applied so far
            seed (int):
            status (SessionStatus):
            strategy (GroupSamplerOutStrategy):
            version (int):
            fit_job_id (None | Unset | UUID): managed mode: the latest fit job
            fitted_observations (int | None | Unset): managed mode: observations the model was fitted on
            model (None | SamplerModelSpec | Unset):
            model_version (int | None | Unset): managed mode: fits applied so far
            pending_decisions (list[PendingOut] | Unset): the oldest (at most 100) decisions still holding their batch
     """

    batch_size: int
    budget: int
    budget_remaining: int
    counts: GroupSamplerOutCounts
    created_at: datetime.datetime
    group_accuracies: GroupSamplerOutGroupAccuracies
    group_losses: GroupSamplerOutGroupLosses
    groups: list[str]
    id: UUID
    loss: GroupSamplerOutLoss
    mixture: GroupSamplerOutMixture
    mode: GroupSamplerOutMode
    name: None | str
    params: ParamsOut
    pending: GroupSamplerOutPending
    pending_ttl_seconds: float
    round_: int
    seed: int
    status: SessionStatus
    strategy: GroupSamplerOutStrategy
    version: int
    fit_job_id: None | Unset | UUID = UNSET
    fitted_observations: int | None | Unset = UNSET
    model: None | SamplerModelSpec | Unset = UNSET
    model_version: int | None | Unset = UNSET
    pending_decisions: list[PendingOut] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.group_sampler_out_counts import GroupSamplerOutCounts # noqa: PLC0415
        from ..models.group_sampler_out_group_accuracies import GroupSamplerOutGroupAccuracies # noqa: PLC0415
        from ..models.group_sampler_out_group_losses import GroupSamplerOutGroupLosses # noqa: PLC0415
        from ..models.group_sampler_out_mixture import GroupSamplerOutMixture # noqa: PLC0415
        from ..models.group_sampler_out_pending import GroupSamplerOutPending # noqa: PLC0415
        from ..models.params_out import ParamsOut # noqa: PLC0415
        from ..models.pending_out import PendingOut # noqa: PLC0415
        from ..models.sampler_model_spec import SamplerModelSpec # noqa: PLC0415
        batch_size = self.batch_size

        budget = self.budget

        budget_remaining = self.budget_remaining

        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        group_accuracies = self.group_accuracies.to_dict()

        group_losses = self.group_losses.to_dict()

        groups = self.groups



        id = str(self.id)

        loss = self.loss.value

        mixture = self.mixture.to_dict()

        mode = self.mode.value

        name: None | str
        name = self.name

        params = self.params.to_dict()

        pending = self.pending.to_dict()

        pending_ttl_seconds = self.pending_ttl_seconds

        round_ = self.round_

        seed = self.seed

        status = self.status.value

        strategy = self.strategy.value

        version = self.version

        fit_job_id: None | str | Unset
        if isinstance(self.fit_job_id, Unset):
            fit_job_id = UNSET
        elif isinstance(self.fit_job_id, UUID):
            fit_job_id = str(self.fit_job_id)
        else:
            fit_job_id = self.fit_job_id

        fitted_observations: int | None | Unset
        if isinstance(self.fitted_observations, Unset):
            fitted_observations = UNSET
        else:
            fitted_observations = self.fitted_observations

        model: dict[str, Any] | None | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        elif isinstance(self.model, SamplerModelSpec):
            model = self.model.to_dict()
        else:
            model = self.model

        model_version: int | None | Unset
        if isinstance(self.model_version, Unset):
            model_version = UNSET
        else:
            model_version = self.model_version

        pending_decisions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.pending_decisions, Unset):
            pending_decisions = []
            for pending_decisions_item_data in self.pending_decisions:
                pending_decisions_item = pending_decisions_item_data.to_dict()
                pending_decisions.append(pending_decisions_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "batch_size": batch_size,
            "budget": budget,
            "budget_remaining": budget_remaining,
            "counts": counts,
            "created_at": created_at,
            "group_accuracies": group_accuracies,
            "group_losses": group_losses,
            "groups": groups,
            "id": id,
            "loss": loss,
            "mixture": mixture,
            "mode": mode,
            "name": name,
            "params": params,
            "pending": pending,
            "pending_ttl_seconds": pending_ttl_seconds,
            "round": round_,
            "seed": seed,
            "status": status,
            "strategy": strategy,
            "version": version,
        })
        if fit_job_id is not UNSET:
            field_dict["fit_job_id"] = fit_job_id
        if fitted_observations is not UNSET:
            field_dict["fitted_observations"] = fitted_observations
        if model is not UNSET:
            field_dict["model"] = model
        if model_version is not UNSET:
            field_dict["model_version"] = model_version
        if pending_decisions is not UNSET:
            field_dict["pending_decisions"] = pending_decisions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.group_sampler_out_counts import GroupSamplerOutCounts # noqa: PLC0415
        from ..models.group_sampler_out_group_accuracies import GroupSamplerOutGroupAccuracies # noqa: PLC0415
        from ..models.group_sampler_out_group_losses import GroupSamplerOutGroupLosses # noqa: PLC0415
        from ..models.group_sampler_out_mixture import GroupSamplerOutMixture # noqa: PLC0415
        from ..models.group_sampler_out_pending import GroupSamplerOutPending # noqa: PLC0415
        from ..models.params_out import ParamsOut # noqa: PLC0415
        from ..models.pending_out import PendingOut # noqa: PLC0415
        from ..models.sampler_model_spec import SamplerModelSpec # noqa: PLC0415
        d = dict(src_dict)
        batch_size = d.pop("batch_size")

        budget = d.pop("budget")

        budget_remaining = d.pop("budget_remaining")

        counts = GroupSamplerOutCounts.from_dict(d.pop("counts"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        group_accuracies = GroupSamplerOutGroupAccuracies.from_dict(d.pop("group_accuracies"))




        group_losses = GroupSamplerOutGroupLosses.from_dict(d.pop("group_losses"))




        groups = cast(list[str], d.pop("groups"))


        id = UUID(d.pop("id"))




        loss = GroupSamplerOutLoss(d.pop("loss"))




        mixture = GroupSamplerOutMixture.from_dict(d.pop("mixture"))




        mode = GroupSamplerOutMode(d.pop("mode"))




        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        params = ParamsOut.from_dict(d.pop("params"))




        pending = GroupSamplerOutPending.from_dict(d.pop("pending"))




        pending_ttl_seconds = d.pop("pending_ttl_seconds")

        round_ = d.pop("round")

        seed = d.pop("seed")

        status = SessionStatus(d.pop("status"))




        strategy = GroupSamplerOutStrategy(d.pop("strategy"))




        version = d.pop("version")

        def _parse_fit_job_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fit_job_id_type_0 = UUID(data)



                return fit_job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        fit_job_id = _parse_fit_job_id(d.pop("fit_job_id", UNSET))


        def _parse_fitted_observations(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        fitted_observations = _parse_fitted_observations(d.pop("fitted_observations", UNSET))


        def _parse_model(data: object) -> None | SamplerModelSpec | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_type_0 = SamplerModelSpec.from_dict(data)



                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SamplerModelSpec | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_model_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        model_version = _parse_model_version(d.pop("model_version", UNSET))


        _pending_decisions = d.pop("pending_decisions", UNSET)
        pending_decisions: list[PendingOut] | Unset = UNSET
        if _pending_decisions is not UNSET:
            pending_decisions = []
            for pending_decisions_item_data in _pending_decisions:
                pending_decisions_item = PendingOut.from_dict(pending_decisions_item_data)



                pending_decisions.append(pending_decisions_item)


        group_sampler_out = cls(
            batch_size=batch_size,
            budget=budget,
            budget_remaining=budget_remaining,
            counts=counts,
            created_at=created_at,
            group_accuracies=group_accuracies,
            group_losses=group_losses,
            groups=groups,
            id=id,
            loss=loss,
            mixture=mixture,
            mode=mode,
            name=name,
            params=params,
            pending=pending,
            pending_ttl_seconds=pending_ttl_seconds,
            round_=round_,
            seed=seed,
            status=status,
            strategy=strategy,
            version=version,
            fit_job_id=fit_job_id,
            fitted_observations=fitted_observations,
            model=model,
            model_version=model_version,
            pending_decisions=pending_decisions,
        )


        group_sampler_out.additional_properties = d
        return group_sampler_out

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
