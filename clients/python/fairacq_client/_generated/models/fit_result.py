from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.fit_result_status import FitResultStatus
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.fit_result_group_losses import FitResultGroupLosses
  from ..models.frontier_point import FrontierPoint





T = TypeVar("T", bound="FitResult")



@_attrs_define
class FitResult:
    """ One fitted distribution ``Q`` and its measures on the training data.

        Attributes:
            bound_b (float): B used
            disparity (float | None): SP disparity of the randomized predictor on the grid
            disparity_expected (float | None): SP disparity of the expected predictor
            duality_gap (float | None):
            feasible (bool): the paper's acceptance test: every constraint within (ρ + 2ν)/B
            group_losses (FitResultGroupLosses):
            iterations (int):
            max_violation (float | None):
            message (str):
            n_predictors (int):
            oracle_calls (int):
            status (FitResultStatus):
            tolerance (float): ν used
            train_loss (float | None): mean loss of the randomized predictor (labels scaled to [0, 1])
            train_loss_expected (float | None): mean loss of the expected predictor Σ Q(h) h(x)
            weights (list[float]): Q: the probability of each base regressor (sums to 1)
            frontier (list[FrontierPoint] | None | Unset): a sweep's Pareto frontier of (loss, disparity), by increasing
                disparity
            slack (float | None | Unset): statistical parity: the slack this result was fitted for
     """

    bound_b: float
    disparity: float | None
    disparity_expected: float | None
    duality_gap: float | None
    feasible: bool
    group_losses: FitResultGroupLosses
    iterations: int
    max_violation: float | None
    message: str
    n_predictors: int
    oracle_calls: int
    status: FitResultStatus
    tolerance: float
    train_loss: float | None
    train_loss_expected: float | None
    weights: list[float]
    frontier: list[FrontierPoint] | None | Unset = UNSET
    slack: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.fit_result_group_losses import FitResultGroupLosses # noqa: PLC0415
        from ..models.frontier_point import FrontierPoint # noqa: PLC0415
        bound_b = self.bound_b

        disparity: float | None
        disparity = self.disparity

        disparity_expected: float | None
        disparity_expected = self.disparity_expected

        duality_gap: float | None
        duality_gap = self.duality_gap

        feasible = self.feasible

        group_losses = self.group_losses.to_dict()

        iterations = self.iterations

        max_violation: float | None
        max_violation = self.max_violation

        message = self.message

        n_predictors = self.n_predictors

        oracle_calls = self.oracle_calls

        status = self.status.value

        tolerance = self.tolerance

        train_loss: float | None
        train_loss = self.train_loss

        train_loss_expected: float | None
        train_loss_expected = self.train_loss_expected

        weights = self.weights



        frontier: list[dict[str, Any]] | None | Unset
        if isinstance(self.frontier, Unset):
            frontier = UNSET
        elif isinstance(self.frontier, list):
            frontier = []
            for frontier_type_0_item_data in self.frontier:
                frontier_type_0_item = frontier_type_0_item_data.to_dict()
                frontier.append(frontier_type_0_item)


        else:
            frontier = self.frontier

        slack: float | None | Unset
        if isinstance(self.slack, Unset):
            slack = UNSET
        else:
            slack = self.slack


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bound_b": bound_b,
            "disparity": disparity,
            "disparity_expected": disparity_expected,
            "duality_gap": duality_gap,
            "feasible": feasible,
            "group_losses": group_losses,
            "iterations": iterations,
            "max_violation": max_violation,
            "message": message,
            "n_predictors": n_predictors,
            "oracle_calls": oracle_calls,
            "status": status,
            "tolerance": tolerance,
            "train_loss": train_loss,
            "train_loss_expected": train_loss_expected,
            "weights": weights,
        })
        if frontier is not UNSET:
            field_dict["frontier"] = frontier
        if slack is not UNSET:
            field_dict["slack"] = slack

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fit_result_group_losses import FitResultGroupLosses # noqa: PLC0415
        from ..models.frontier_point import FrontierPoint # noqa: PLC0415
        d = dict(src_dict)
        bound_b = d.pop("bound_b")

        def _parse_disparity(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        disparity = _parse_disparity(d.pop("disparity"))


        def _parse_disparity_expected(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        disparity_expected = _parse_disparity_expected(d.pop("disparity_expected"))


        def _parse_duality_gap(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        duality_gap = _parse_duality_gap(d.pop("duality_gap"))


        feasible = d.pop("feasible")

        group_losses = FitResultGroupLosses.from_dict(d.pop("group_losses"))




        iterations = d.pop("iterations")

        def _parse_max_violation(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_violation = _parse_max_violation(d.pop("max_violation"))


        message = d.pop("message")

        n_predictors = d.pop("n_predictors")

        oracle_calls = d.pop("oracle_calls")

        status = FitResultStatus(d.pop("status"))




        tolerance = d.pop("tolerance")

        def _parse_train_loss(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        train_loss = _parse_train_loss(d.pop("train_loss"))


        def _parse_train_loss_expected(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        train_loss_expected = _parse_train_loss_expected(d.pop("train_loss_expected"))


        weights = cast(list[float], d.pop("weights"))


        def _parse_frontier(data: object) -> list[FrontierPoint] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                frontier_type_0 = []
                _frontier_type_0 = data
                for frontier_type_0_item_data in (_frontier_type_0):
                    frontier_type_0_item = FrontierPoint.from_dict(frontier_type_0_item_data)



                    frontier_type_0.append(frontier_type_0_item)

                return frontier_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[FrontierPoint] | None | Unset, data)

        frontier = _parse_frontier(d.pop("frontier", UNSET))


        def _parse_slack(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        slack = _parse_slack(d.pop("slack", UNSET))


        fit_result = cls(
            bound_b=bound_b,
            disparity=disparity,
            disparity_expected=disparity_expected,
            duality_gap=duality_gap,
            feasible=feasible,
            group_losses=group_losses,
            iterations=iterations,
            max_violation=max_violation,
            message=message,
            n_predictors=n_predictors,
            oracle_calls=oracle_calls,
            status=status,
            tolerance=tolerance,
            train_loss=train_loss,
            train_loss_expected=train_loss_expected,
            weights=weights,
            frontier=frontier,
            slack=slack,
        )


        fit_result.additional_properties = d
        return fit_result

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
