from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.metrics_request_loss import MetricsRequestLoss
from ..models.metrics_request_metrics_item import MetricsRequestMetricsItem
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bootstrap import Bootstrap





T = TypeVar("T", bound="MetricsRequest")



@_attrs_define
class MetricsRequest:
    """ 
        Attributes:
            groups (list[int | str]):
            metrics (list[MetricsRequestMetricsItem]):
            predictions (list[float]): scores or hard labels; >= 0.5 counts as positive for rate metrics
            bootstrap (Bootstrap | Unset): Percentile intervals from a bootstrap stratified by group (every group keeps its
                size).
            labels (list[float] | Unset): needed by equal_opportunity, equalized_odds and group_loss
            loss (MetricsRequestLoss | Unset): the loss group_loss averages Default: MetricsRequestLoss.ZERO_ONE.
     """

    groups: list[int | str]
    metrics: list[MetricsRequestMetricsItem]
    predictions: list[float]
    bootstrap: Bootstrap | Unset = UNSET
    labels: list[float] | Unset = UNSET
    loss: MetricsRequestLoss | Unset = MetricsRequestLoss.ZERO_ONE





    def to_dict(self) -> dict[str, Any]:
        from ..models.bootstrap import Bootstrap # noqa: PLC0415
        groups = []
        for groups_item_data in self.groups:
            groups_item: int | str
            groups_item = groups_item_data
            groups.append(groups_item)



        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.value
            metrics.append(metrics_item)



        predictions = self.predictions



        bootstrap: dict[str, Any] | Unset = UNSET
        if not isinstance(self.bootstrap, Unset):
            bootstrap = self.bootstrap.to_dict()

        labels: list[float] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels



        loss: str | Unset = UNSET
        if not isinstance(self.loss, Unset):
            loss = self.loss.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "groups": groups,
            "metrics": metrics,
            "predictions": predictions,
        })
        if bootstrap is not UNSET:
            field_dict["bootstrap"] = bootstrap
        if labels is not UNSET:
            field_dict["labels"] = labels
        if loss is not UNSET:
            field_dict["loss"] = loss

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bootstrap import Bootstrap # noqa: PLC0415
        d = dict(src_dict)
        groups = []
        _groups = d.pop("groups")
        for groups_item_data in (_groups):
            def _parse_groups_item(data: object) -> int | str:
                return cast(int | str, data)

            groups_item = _parse_groups_item(groups_item_data)

            groups.append(groups_item)


        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = MetricsRequestMetricsItem(metrics_item_data)



            metrics.append(metrics_item)


        predictions = cast(list[float], d.pop("predictions"))


        _bootstrap = d.pop("bootstrap", UNSET)
        bootstrap: Bootstrap | Unset
        if isinstance(_bootstrap,  Unset):
            bootstrap = UNSET
        else:
            bootstrap = Bootstrap.from_dict(_bootstrap)




        labels = cast(list[float], d.pop("labels", UNSET))


        _loss = d.pop("loss", UNSET)
        loss: MetricsRequestLoss | Unset
        if isinstance(_loss,  Unset):
            loss = UNSET
        else:
            loss = MetricsRequestLoss(_loss)




        metrics_request = cls(
            groups=groups,
            metrics=metrics,
            predictions=predictions,
            bootstrap=bootstrap,
            labels=labels,
            loss=loss,
        )

        return metrics_request

