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
  from ..models.observation_report_group_accuracies import ObservationReportGroupAccuracies
  from ..models.observation_report_group_losses import ObservationReportGroupLosses
  from ..models.sample_set import SampleSet





T = TypeVar("T", bound="ObservationReport")



@_attrs_define
class ObservationReport:
    """ One round's result. Reported mode sends ``n_acquired`` and ``group_losses``; managed mode
    sends ``train`` and ``validation`` samples of ``group`` instead.

        Attributes:
            group (str): the group the samples were acquired from
            observation_id (str): unique per sampler; a retry counts once
            decision_id (UUID | Unset): the next decision this observation answers
            group_accuracies (ObservationReportGroupAccuracies | Unset): reported mode: validation accuracy per group (Aopt+
                trend; default from the loss)
            group_losses (ObservationReportGroupLosses | Unset): reported mode: the retrained model's validation loss per
                group (others keep theirs)
            n_acquired (int | Unset): reported mode: samples acquired from the group
            train (SampleSet | Unset):
            validation (SampleSet | Unset):
     """

    group: str
    observation_id: str
    decision_id: UUID | Unset = UNSET
    group_accuracies: ObservationReportGroupAccuracies | Unset = UNSET
    group_losses: ObservationReportGroupLosses | Unset = UNSET
    n_acquired: int | Unset = UNSET
    train: SampleSet | Unset = UNSET
    validation: SampleSet | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.observation_report_group_accuracies import ObservationReportGroupAccuracies # noqa: PLC0415
        from ..models.observation_report_group_losses import ObservationReportGroupLosses # noqa: PLC0415
        from ..models.sample_set import SampleSet # noqa: PLC0415
        group = self.group

        observation_id = self.observation_id

        decision_id: str | Unset = UNSET
        if not isinstance(self.decision_id, Unset):
            decision_id = str(self.decision_id)

        group_accuracies: dict[str, Any] | Unset = UNSET
        if not isinstance(self.group_accuracies, Unset):
            group_accuracies = self.group_accuracies.to_dict()

        group_losses: dict[str, Any] | Unset = UNSET
        if not isinstance(self.group_losses, Unset):
            group_losses = self.group_losses.to_dict()

        n_acquired = self.n_acquired

        train: dict[str, Any] | Unset = UNSET
        if not isinstance(self.train, Unset):
            train = self.train.to_dict()

        validation: dict[str, Any] | Unset = UNSET
        if not isinstance(self.validation, Unset):
            validation = self.validation.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "group": group,
            "observation_id": observation_id,
        })
        if decision_id is not UNSET:
            field_dict["decision_id"] = decision_id
        if group_accuracies is not UNSET:
            field_dict["group_accuracies"] = group_accuracies
        if group_losses is not UNSET:
            field_dict["group_losses"] = group_losses
        if n_acquired is not UNSET:
            field_dict["n_acquired"] = n_acquired
        if train is not UNSET:
            field_dict["train"] = train
        if validation is not UNSET:
            field_dict["validation"] = validation

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.observation_report_group_accuracies import ObservationReportGroupAccuracies # noqa: PLC0415
        from ..models.observation_report_group_losses import ObservationReportGroupLosses # noqa: PLC0415
        from ..models.sample_set import SampleSet # noqa: PLC0415
        d = dict(src_dict)
        group = d.pop("group")

        observation_id = d.pop("observation_id")

        _decision_id = d.pop("decision_id", UNSET)
        decision_id: UUID | Unset
        if isinstance(_decision_id,  Unset):
            decision_id = UNSET
        else:
            decision_id = UUID(_decision_id)




        _group_accuracies = d.pop("group_accuracies", UNSET)
        group_accuracies: ObservationReportGroupAccuracies | Unset
        if isinstance(_group_accuracies,  Unset):
            group_accuracies = UNSET
        else:
            group_accuracies = ObservationReportGroupAccuracies.from_dict(_group_accuracies)




        _group_losses = d.pop("group_losses", UNSET)
        group_losses: ObservationReportGroupLosses | Unset
        if isinstance(_group_losses,  Unset):
            group_losses = UNSET
        else:
            group_losses = ObservationReportGroupLosses.from_dict(_group_losses)




        n_acquired = d.pop("n_acquired", UNSET)

        _train = d.pop("train", UNSET)
        train: SampleSet | Unset
        if isinstance(_train,  Unset):
            train = UNSET
        else:
            train = SampleSet.from_dict(_train)




        _validation = d.pop("validation", UNSET)
        validation: SampleSet | Unset
        if isinstance(_validation,  Unset):
            validation = UNSET
        else:
            validation = SampleSet.from_dict(_validation)




        observation_report = cls(
            group=group,
            observation_id=observation_id,
            decision_id=decision_id,
            group_accuracies=group_accuracies,
            group_losses=group_losses,
            n_acquired=n_acquired,
            train=train,
            validation=validation,
        )

        return observation_report

