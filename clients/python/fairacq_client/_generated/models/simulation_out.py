from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_status import SessionStatus
from ..models.simulation_out_decision_type import SimulationOutDecisionType
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.simulation_out_config import SimulationOutConfig
  from ..models.simulation_out_results_type_0 import SimulationOutResultsType0





T = TypeVar("T", bound="SimulationOut")



@_attrs_define
class SimulationOut:
    """ 
        Attributes:
            config (SimulationOutConfig): the request as stored (without the data)
            created_at (datetime.datetime):
            decision_type (SimulationOutDecisionType):
            id (UUID):
            job_id (None | UUID):
            name (None | str):
            seed (int):
            status (SessionStatus):
            error (None | str | Unset):
            progress (float | None | Unset): share of the repetitions done while it runs
            results (None | SimulationOutResultsType0 | Unset): curves (mean and 95% bootstrap interval for the population
                the data was drawn from, per point), end-of-budget comparisons and the recommendation
     """

    config: SimulationOutConfig
    created_at: datetime.datetime
    decision_type: SimulationOutDecisionType
    id: UUID
    job_id: None | UUID
    name: None | str
    seed: int
    status: SessionStatus
    error: None | str | Unset = UNSET
    progress: float | None | Unset = UNSET
    results: None | SimulationOutResultsType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.simulation_out_config import SimulationOutConfig # noqa: PLC0415
        from ..models.simulation_out_results_type_0 import SimulationOutResultsType0 # noqa: PLC0415
        config = self.config.to_dict()

        created_at = self.created_at.isoformat()

        decision_type = self.decision_type.value

        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        name: None | str
        name = self.name

        seed = self.seed

        status = self.status.value

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        progress: float | None | Unset
        if isinstance(self.progress, Unset):
            progress = UNSET
        else:
            progress = self.progress

        results: dict[str, Any] | None | Unset
        if isinstance(self.results, Unset):
            results = UNSET
        elif isinstance(self.results, SimulationOutResultsType0):
            results = self.results.to_dict()
        else:
            results = self.results


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "config": config,
            "created_at": created_at,
            "decision_type": decision_type,
            "id": id,
            "job_id": job_id,
            "name": name,
            "seed": seed,
            "status": status,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if progress is not UNSET:
            field_dict["progress"] = progress
        if results is not UNSET:
            field_dict["results"] = results

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.simulation_out_config import SimulationOutConfig # noqa: PLC0415
        from ..models.simulation_out_results_type_0 import SimulationOutResultsType0 # noqa: PLC0415
        d = dict(src_dict)
        config = SimulationOutConfig.from_dict(d.pop("config"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        decision_type = SimulationOutDecisionType(d.pop("decision_type"))




        id = UUID(d.pop("id"))




        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)



                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("job_id"))


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        seed = d.pop("seed")

        status = SessionStatus(d.pop("status"))




        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_progress(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        progress = _parse_progress(d.pop("progress", UNSET))


        def _parse_results(data: object) -> None | SimulationOutResultsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                results_type_0 = SimulationOutResultsType0.from_dict(data)



                return results_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SimulationOutResultsType0 | Unset, data)

        results = _parse_results(d.pop("results", UNSET))


        simulation_out = cls(
            config=config,
            created_at=created_at,
            decision_type=decision_type,
            id=id,
            job_id=job_id,
            name=name,
            seed=seed,
            status=status,
            error=error,
            progress=progress,
            results=results,
        )


        simulation_out.additional_properties = d
        return simulation_out

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
