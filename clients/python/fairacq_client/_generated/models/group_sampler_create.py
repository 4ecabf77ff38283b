from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.group_sampler_create_loss import GroupSamplerCreateLoss
from ..models.group_sampler_create_mode import GroupSamplerCreateMode
from ..models.group_sampler_create_strategy import GroupSamplerCreateStrategy
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.sampler_model_spec import SamplerModelSpec
  from ..models.sampler_params import SamplerParams





T = TypeVar("T", bound="GroupSamplerCreate")



@_attrs_define
class GroupSamplerCreate:
    """ 
        Attributes:
            budget (int): samples to acquire in total
            groups (list[str]): distinct group names
            strategy (GroupSamplerCreateStrategy):
            batch_size (int | Unset): samples to acquire per decision Default: 1.
            loss (GroupSamplerCreateLoss | Unset):  Default: GroupSamplerCreateLoss.ZERO_ONE.
            mode (GroupSamplerCreateMode | Unset): reported: the client trains and reports losses; managed: the client sends
                samples and a worker trains Default: GroupSamplerCreateMode.REPORTED.
            model (SamplerModelSpec | Unset): The model managed mode trains in a worker after every observation.
            name (str | Unset):
            params (SamplerParams | Unset): Hyperparameters of the sampling rule (SPEC §5.1); unknown names are refused.
            pending_ttl_seconds (int | Unset): how long a decision holds its batch with no observation naming it before the
                samples return to the budget (it can be released sooner) Default: 3600.
            seed (int | Unset):
     """

    budget: int
    groups: list[str]
    strategy: GroupSamplerCreateStrategy
    batch_size: int | Unset = 1
    loss: GroupSamplerCreateLoss | Unset = GroupSamplerCreateLoss.ZERO_ONE
    mode: GroupSamplerCreateMode | Unset = GroupSamplerCreateMode.REPORTED
    model: SamplerModelSpec | Unset = UNSET
    name: str | Unset = UNSET
    params: SamplerParams | Unset = UNSET
    pending_ttl_seconds: int | Unset = 3600
    seed: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.sampler_model_spec import SamplerModelSpec # noqa: PLC0415
        from ..models.sampler_params import SamplerParams # noqa: PLC0415
        budget = self.budget

        groups = self.groups



        strategy = self.strategy.value

        batch_size = self.batch_size

        loss: str | Unset = UNSET
        if not isinstance(self.loss, Unset):
            loss = self.loss.value


        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value


        model: dict[str, Any] | Unset = UNSET
        if not isinstance(self.model, Unset):
            model = self.model.to_dict()

        name = self.name

        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        pending_ttl_seconds = self.pending_ttl_seconds

        seed = self.seed


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "budget": budget,
            "groups": groups,
            "strategy": strategy,
        })
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if loss is not UNSET:
            field_dict["loss"] = loss
        if mode is not UNSET:
            field_dict["mode"] = mode
        if model is not UNSET:
            field_dict["model"] = model
        if name is not UNSET:
            field_dict["name"] = name
        if params is not UNSET:
            field_dict["params"] = params
        if pending_ttl_seconds is not UNSET:
            field_dict["pending_ttl_seconds"] = pending_ttl_seconds
        if seed is not UNSET:
            field_dict["seed"] = seed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sampler_model_spec import SamplerModelSpec # noqa: PLC0415
        from ..models.sampler_params import SamplerParams # noqa: PLC0415
        d = dict(src_dict)
        budget = d.pop("budget")

        groups = cast(list[str], d.pop("groups"))


        strategy = GroupSamplerCreateStrategy(d.pop("strategy"))




        batch_size = d.pop("batch_size", UNSET)

        _loss = d.pop("loss", UNSET)
        loss: GroupSamplerCreateLoss | Unset
        if isinstance(_loss,  Unset):
            loss = UNSET
        else:
            loss = GroupSamplerCreateLoss(_loss)




        _mode = d.pop("mode", UNSET)
        mode: GroupSamplerCreateMode | Unset
        if isinstance(_mode,  Unset):
            mode = UNSET
        else:
            mode = GroupSamplerCreateMode(_mode)




        _model = d.pop("model", UNSET)
        model: SamplerModelSpec | Unset
        if isinstance(_model,  Unset):
            model = UNSET
        else:
            model = SamplerModelSpec.from_dict(_model)




        name = d.pop("name", UNSET)

        _params = d.pop("params", UNSET)
        params: SamplerParams | Unset
        if isinstance(_params,  Unset):
            params = UNSET
        else:
            params = SamplerParams.from_dict(_params)




        pending_ttl_seconds = d.pop("pending_ttl_seconds", UNSET)

        seed = d.pop("seed", UNSET)

        group_sampler_create = cls(
            budget=budget,
            groups=groups,
            strategy=strategy,
            batch_size=batch_size,
            loss=loss,
            mode=mode,
            model=model,
            name=name,
            params=params,
            pending_ttl_seconds=pending_ttl_seconds,
            seed=seed,
        )

        return group_sampler_create

