from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="LastRun")



@_attrs_define
class LastRun:
    """ The last managed run's outcome (its acquired rows and trajectory are the blob ``run``).

        Attributes:
            evaluations (int):
            final_accuracy (float):
            final_fairness (float):
            initial_accuracy (float):
            initial_fairness (float):
            job_id (UUID):
            n_acquired (int):
            stop_reason (str):
            final_validation_accuracy (float | None | Unset):
            initial_validation_accuracy (float | None | Unset):
     """

    evaluations: int
    final_accuracy: float
    final_fairness: float
    initial_accuracy: float
    initial_fairness: float
    job_id: UUID
    n_acquired: int
    stop_reason: str
    final_validation_accuracy: float | None | Unset = UNSET
    initial_validation_accuracy: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        evaluations = self.evaluations

        final_accuracy = self.final_accuracy

        final_fairness = self.final_fairness

        initial_accuracy = self.initial_accuracy

        initial_fairness = self.initial_fairness

        job_id = str(self.job_id)

        n_acquired = self.n_acquired

        stop_reason = self.stop_reason

        final_validation_accuracy: float | None | Unset
        if isinstance(self.final_validation_accuracy, Unset):
            final_validation_accuracy = UNSET
        else:
            final_validation_accuracy = self.final_validation_accuracy

        initial_validation_accuracy: float | None | Unset
        if isinstance(self.initial_validation_accuracy, Unset):
            initial_validation_accuracy = UNSET
        else:
            initial_validation_accuracy = self.initial_validation_accuracy


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "evaluations": evaluations,
            "final_accuracy": final_accuracy,
            "final_fairness": final_fairness,
            "initial_accuracy": initial_accuracy,
            "initial_fairness": initial_fairness,
            "job_id": job_id,
            "n_acquired": n_acquired,
            "stop_reason": stop_reason,
        })
        if final_validation_accuracy is not UNSET:
            field_dict["final_validation_accuracy"] = final_validation_accuracy
        if initial_validation_accuracy is not UNSET:
            field_dict["initial_validation_accuracy"] = initial_validation_accuracy

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        evaluations = d.pop("evaluations")

        final_accuracy = d.pop("final_accuracy")

        final_fairness = d.pop("final_fairness")

        initial_accuracy = d.pop("initial_accuracy")

        initial_fairness = d.pop("initial_fairness")

        job_id = UUID(d.pop("job_id"))




        n_acquired = d.pop("n_acquired")

        stop_reason = d.pop("stop_reason")

        def _parse_final_validation_accuracy(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        final_validation_accuracy = _parse_final_validation_accuracy(d.pop("final_validation_accuracy", UNSET))


        def _parse_initial_validation_accuracy(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        initial_validation_accuracy = _parse_initial_validation_accuracy(d.pop("initial_validation_accuracy", UNSET))


        last_run = cls(
            evaluations=evaluations,
            final_accuracy=final_accuracy,
            final_fairness=final_fairness,
            initial_accuracy=initial_accuracy,
            initial_fairness=initial_fairness,
            job_id=job_id,
            n_acquired=n_acquired,
            stop_reason=stop_reason,
            final_validation_accuracy=final_validation_accuracy,
            initial_validation_accuracy=initial_validation_accuracy,
        )


        last_run.additional_properties = d
        return last_run

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
