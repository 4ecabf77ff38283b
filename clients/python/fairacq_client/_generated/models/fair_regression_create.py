from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.fair_regression_create_loss import FairRegressionCreateLoss
from ..models.fair_regression_create_oracle import FairRegressionCreateOracle
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.bounded_group_loss_constraint import BoundedGroupLossConstraint
  from ..models.learner_spec import LearnerSpec
  from ..models.regression_data import RegressionData
  from ..models.statistical_parity_constraint import StatisticalParityConstraint





T = TypeVar("T", bound="FairRegressionCreate")



@_attrs_define
class FairRegressionCreate:
    """ 
        Attributes:
            constraint (BoundedGroupLossConstraint | StatisticalParityConstraint):
            bound_b (float | Unset): B, the ℓ1 bound on λ (default from the slack or bound)
            data (RegressionData | Unset): Training data sent inline instead of ``dataset_id``.
            dataset_id (UUID | Unset): a dataset with groups and labels
            learner (LearnerSpec | Unset): The base regressor class the oracle fits.
            loss (FairRegressionCreateLoss | Unset):  Default: FairRegressionCreateLoss.SQUARE.
            max_iterations (int | Unset): T, iterations of exponentiated gradient Default: 50.
            name (str | Unset):
            oracle (FairRegressionCreateOracle | Unset): statistical parity: default least_squares; cost_sensitive needs the
                linear learner. Bounded group loss always minimises a weighted loss: leave out or loss_minimization
            seed (int | Unset):
            tolerance (float | Unset): ν: stop when the duality gap is at most this (default: half the standard error of the
                unconstrained regressor's loss)
     """

    constraint: BoundedGroupLossConstraint | StatisticalParityConstraint
    bound_b: float | Unset = UNSET
    data: RegressionData | Unset = UNSET
    dataset_id: UUID | Unset = UNSET
    learner: LearnerSpec | Unset = UNSET
    loss: FairRegressionCreateLoss | Unset = FairRegressionCreateLoss.SQUARE
    max_iterations: int | Unset = 50
    name: str | Unset = UNSET
    oracle: FairRegressionCreateOracle | Unset = UNSET
    seed: int | Unset = UNSET
    tolerance: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bounded_group_loss_constraint import BoundedGroupLossConstraint # noqa: PLC0415
        from ..models.learner_spec import LearnerSpec # noqa: PLC0415
        from ..models.regression_data import RegressionData # noqa: PLC0415
        from ..models.statistical_parity_constraint import StatisticalParityConstraint # noqa: PLC0415
        constraint: dict[str, Any]
        if isinstance(self.constraint, BoundedGroupLossConstraint):
            constraint = self.constraint.to_dict()
        else:
            constraint = self.constraint.to_dict()


        bound_b = self.bound_b

        data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = self.data.to_dict()

        dataset_id: str | Unset = UNSET
        if not isinstance(self.dataset_id, Unset):
            dataset_id = str(self.dataset_id)

        learner: dict[str, Any] | Unset = UNSET
        if not isinstance(self.learner, Unset):
            learner = self.learner.to_dict()

        loss: str | Unset = UNSET
        if not isinstance(self.loss, Unset):
            loss = self.loss.value


        max_iterations = self.max_iterations

        name = self.name

        oracle: str | Unset = UNSET
        if not isinstance(self.oracle, Unset):
            oracle = self.oracle.value


        seed = self.seed

        tolerance = self.tolerance


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "constraint": constraint,
        })
        if bound_b is not UNSET:
            field_dict["bound_b"] = bound_b
        if data is not UNSET:
            field_dict["data"] = data
        if dataset_id is not UNSET:
            field_dict["dataset_id"] = dataset_id
        if learner is not UNSET:
            field_dict["learner"] = learner
        if loss is not UNSET:
            field_dict["loss"] = loss
        if max_iterations is not UNSET:
            field_dict["max_iterations"] = max_iterations
        if name is not UNSET:
            field_dict["name"] = name
        if oracle is not UNSET:
            field_dict["oracle"] = oracle
        if seed is not UNSET:
            field_dict["seed"] = seed
        if tolerance is not UNSET:
            field_dict["tolerance"] = tolerance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bounded_group_loss_constraint import BoundedGroupLossConstraint # noqa: PLC0415
        from ..models.learner_spec import LearnerSpec # noqa: PLC0415
        from ..models.regression_data import RegressionData # noqa: PLC0415
        from ..models.statistical_parity_constraint import StatisticalParityConstraint # noqa: PLC0415
        d = dict(src_dict)
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


        bound_b = d.pop("bound_b", UNSET)

        _data = d.pop("data", UNSET)
        data: RegressionData | Unset
        if isinstance(_data,  Unset):
            data = UNSET
        else:
            data = RegressionData.from_dict(_data)




        _dataset_id = d.pop("dataset_id", UNSET)
        dataset_id: UUID | Unset
        if isinstance(_dataset_id,  Unset):
            dataset_id = UNSET
        else:
            dataset_id = UUID(_dataset_id)




        _learner = d.pop("learner", UNSET)
        learner: LearnerSpec | Unset
        if isinstance(_learner,  Unset):
            learner = UNSET
        else:
            learner = LearnerSpec.from_dict(_learner)




        _loss = d.pop("loss", UNSET)
        loss: FairRegressionCreateLoss | Unset
        if isinstance(_loss,  Unset):
            loss = UNSET
        else:
            loss = FairRegressionCreateLoss(_loss)




        max_iterations = d.pop("max_iterations", UNSET)

        name = d.pop("name", UNSET)

        _oracle = d.pop("oracle", UNSET)
        oracle: FairRegressionCreateOracle | Unset
        if isinstance(_oracle,  Unset):
            oracle = UNSET
        else:
            oracle = FairRegressionCreateOracle(_oracle)




        seed = d.pop("seed", UNSET)

        tolerance = d.pop("tolerance", UNSET)

        fair_regression_create = cls(
            constraint=constraint,
            bound_b=bound_b,
            data=data,
            dataset_id=dataset_id,
            learner=learner,
            loss=loss,
            max_iterations=max_iterations,
            name=name,
            oracle=oracle,
            seed=seed,
            tolerance=tolerance,
        )

        return fair_regression_create

