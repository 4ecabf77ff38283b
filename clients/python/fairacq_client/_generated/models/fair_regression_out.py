from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.fair_regression_out_loss import FairRegressionOutLoss
from ..models.fair_regression_out_oracle import FairRegressionOutOracle
from ..models.session_status import SessionStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.bounded_group_loss_constraint import BoundedGroupLossConstraint
  from ..models.fit_result import FitResult
  from ..models.learner_spec import LearnerSpec
  from ..models.statistical_parity_constraint import StatisticalParityConstraint





T = TypeVar("T", bound="FairRegressionOut")



@_attrs_define
class FairRegressionOut:
    """ 
        Attributes:
            bound_b (float | None):
            constraint (BoundedGroupLossConstraint | StatisticalParityConstraint):
            created_at (datetime.datetime):
            dataset_id (None | UUID):
            groups (list[str]):
            id (UUID):
            job_id (None | UUID):
            label_range (list[float]): [minimum, maximum] of the labels: losses and bounds are on labels scaled to [0, 1] by
                this range
            learner (LearnerSpec): The base regressor class the oracle fits.
            loss (FairRegressionOutLoss):
            max_iterations (int):
            n_features (int):
            n_rows (int):
            name (None | str):
            oracle (FairRegressionOutOracle):
            seed (int):
            status (SessionStatus):
            tolerance (float | None):
            version (int):
            default_slack (float | None | Unset): a sweep: the slack predictions use when none is named (the loosest
                feasible slack; the first slack when none is feasible)
            error (None | str | Unset):
            progress (float | None | Unset): the fit job's progress, 0..1
            result (FitResult | None | Unset): the fit; for a sweep, the result predictions use by default, with the
                frontier
            results (list[FitResult] | None | Unset): a sweep: one result per slack, in request order
     """

    bound_b: float | None
    constraint: BoundedGroupLossConstraint | StatisticalParityConstraint
    created_at: datetime.datetime
    dataset_id: None | UUID
    groups: list[str]
    id: UUID
    job_id: None | UUID
    label_range: list[float]
    learner: LearnerSpec
    loss: FairRegressionOutLoss
    max_iterations: int
    n_features: int
    n_rows: int
    name: None | str
    oracle: FairRegressionOutOracle
    seed: int
    status: SessionStatus
    tolerance: float | None
    version: int
    default_slack: float | None | Unset = UNSET
    error: None | str | Unset = UNSET
    progress: float | None | Unset = UNSET
    result: FitResult | None | Unset = UNSET
    results: list[FitResult] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bounded_group_loss_constraint import BoundedGroupLossConstraint # noqa: PLC0415
        from ..models.fit_result import FitResult # noqa: PLC0415
        from ..models.learner_spec import LearnerSpec # noqa: PLC0415
        from ..models.statistical_parity_constraint import StatisticalParityConstraint # noqa: PLC0415
        bound_b: float | None
        bound_b = self.bound_b

        constraint: dict[str, Any]
        if isinstance(self.constraint, BoundedGroupLossConstraint):
            constraint = self.constraint.to_dict()
        else:
            constraint = self.constraint.to_dict()


        created_at = self.created_at.isoformat()

        dataset_id: None | str
        if isinstance(self.dataset_id, UUID):
            dataset_id = str(self.dataset_id)
        else:
            dataset_id = self.dataset_id

        groups = self.groups



        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        label_range = self.label_range



        learner = self.learner.to_dict()

        loss = self.loss.value

        max_iterations = self.max_iterations

        n_features = self.n_features

        n_rows = self.n_rows

        name: None | str
        name = self.name

        oracle = self.oracle.value

        seed = self.seed

        status = self.status.value

        tolerance: float | None
        tolerance = self.tolerance

        version = self.version

        default_slack: float | None | Unset
        if isinstance(self.default_slack, Unset):
            default_slack = UNSET
        else:
            default_slack = self.default_slack

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

        result: dict[str, Any] | None | Unset
        if isinstance(self.result, Unset):
            result = UNSET
        elif isinstance(self.result, FitResult):
            result = self.result.to_dict()
        else:
            result = self.result

        results: list[dict[str, Any]] | None | Unset
        if isinstance(self.results, Unset):
            results = UNSET
        elif isinstance(self.results, list):
            results = []
            for results_type_0_item_data in self.results:
                results_type_0_item = results_type_0_item_data.to_dict()
                results.append(results_type_0_item)


        else:
            results = self.results


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bound_b": bound_b,
            "constraint": constraint,
            "created_at": created_at,
            "dataset_id": dataset_id,
            "groups": groups,
            "id": id,
            "job_id": job_id,
            "label_range": label_range,
            "learner": learner,
            "loss": loss,
            "max_iterations": max_iterations,
            "n_features": n_features,
            "n_rows": n_rows,
            "name": name,
            "oracle": oracle,
            "seed": seed,
            "status": status,
            "tolerance": tolerance,
            "version": version,
        })
        if default_slack is not UNSET:
            field_dict["default_slack"] = default_slack
        if error is not UNSET:
            field_dict["error"] = error
        if progress is not UNSET:
            field_dict["progress"] = progress
        if result is not UNSET:
            field_dict["result"] = result
        if results is not UNSET:
            field_dict["results"] = results

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bounded_group_loss_constraint import BoundedGroupLossConstraint # noqa: PLC0415
        from ..models.fit_result import FitResult # noqa: PLC0415
        from ..models.learner_spec import LearnerSpec # noqa: PLC0415
        from ..models.statistical_parity_constraint import StatisticalParityConstraint # noqa: PLC0415
        d = dict(src_dict)
        def _parse_bound_b(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        bound_b = _parse_bound_b(d.pop("bound_b"))


        def _parse_constraint(data: object) -> BoundedGroupLossConstraint | StatisticalParityConstraint:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                constraint_type_0 = BoundedGroupLossConstraint.from_dict(data)



                return constraint_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            constraint_type_1 = StatisticalParityConstraint.from_dict(data)



            return constraint_type_1

        constraint = _parse_constraint(d.pop("constraint"))


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_dataset_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dataset_id_type_0 = UUID(data)



                return dataset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        dataset_id = _parse_dataset_id(d.pop("dataset_id"))


        groups = cast(list[str], d.pop("groups"))


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


        label_range = cast(list[float], d.pop("label_range"))


        learner = LearnerSpec.from_dict(d.pop("learner"))




        loss = FairRegressionOutLoss(d.pop("loss"))




        max_iterations = d.pop("max_iterations")

        n_features = d.pop("n_features")

        n_rows = d.pop("n_rows")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        oracle = FairRegressionOutOracle(d.pop("oracle"))




        seed = d.pop("seed")

        status = SessionStatus(d.pop("status"))




        def _parse_tolerance(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        tolerance = _parse_tolerance(d.pop("tolerance"))


        version = d.pop("version")

        def _parse_default_slack(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        default_slack = _parse_default_slack(d.pop("default_slack", UNSET))


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


        def _parse_result(data: object) -> FitResult | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = FitResult.from_dict(data)



                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FitResult | None | Unset, data)

        result = _parse_result(d.pop("result", UNSET))


        def _parse_results(data: object) -> list[FitResult] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                results_type_0 = []
                _results_type_0 = data
                for results_type_0_item_data in (_results_type_0):
                    results_type_0_item = FitResult.from_dict(results_type_0_item_data)



                    results_type_0.append(results_type_0_item)

                return results_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[FitResult] | None | Unset, data)

        results = _parse_results(d.pop("results", UNSET))


        fair_regression_out = cls(
            bound_b=bound_b,
            constraint=constraint,
            created_at=created_at,
            dataset_id=dataset_id,
            groups=groups,
            id=id,
            job_id=job_id,
            label_range=label_range,
            learner=learner,
            loss=loss,
            max_iterations=max_iterations,
            n_features=n_features,
            n_rows=n_rows,
            name=name,
            oracle=oracle,
            seed=seed,
            status=status,
            tolerance=tolerance,
            version=version,
            default_slack=default_slack,
            error=error,
            progress=progress,
            result=result,
            results=results,
        )


        fair_regression_out.additional_properties = d
        return fair_regression_out

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
