from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.partition_bandit_out_metric import PartitionBanditOutMetric
from ..models.partition_bandit_out_reward import PartitionBanditOutReward
from ..models.session_status import SessionStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.last_run import LastRun
  from ..models.partition_bandit_out_partitioning_type_0 import PartitionBanditOutPartitioningType0
  from ..models.partition_out import PartitionOut
  from ..models.pending_out import PendingOut





T = TypeVar("T", bound="PartitionBanditOut")



@_attrs_define
class PartitionBanditOut:
    """ 
        Attributes:
            accepted_batches (int):
            accuracy_tolerance (float | None): δ (null: the paper's acceptance rule)
            accuracy_weight (float): β (0: the paper's reward)
            alpha (float):
            batch_selection (str):
            batch_size (int):
            best_fairness (float | None):
            budget (int):
            budget_remaining (int): budget neither spent nor held by pending decisions
            budget_spent (int):
            created_at (datetime.datetime):
            done (bool):
            evaluations (int):
            fairness_threshold (float):
            id (UUID):
            max_evaluations (int | None):
            metric (PartitionBanditOutMetric):
            name (None | str):
            partitions (list[PartitionOut]):
            pending_ttl_seconds (float): how long a decision holds its batch
            pool_dataset_id (None | UUID):
            reward (PartitionBanditOutReward):
            reward_scale (str):
            round_ (int): the round the next decision is for
            seed (int):
            status (SessionStatus):
            stop_reason (None | str):
            test_dataset_id (None | UUID):
            train_dataset_id (None | UUID):
            version (int):
            acceptance (str | Unset): fairness: the paper's rule; objective: the reward's objective Default: 'fairness'.
            best_accuracy (float | None | Unset): the best accuracy of a kept model (bandits using accuracy)
            error (None | str | Unset): why partitioning failed or was cancelled
            influence_pair (list[str] | None | Unset): influence batches: report F as rate(pair[0]) − rate(pair[1]) or as
                |F|
            job_id (None | Unset | UUID): the partitioning job (pool bandits)
            last_run (LastRun | None | Unset):
            partitioning (None | PartitionBanditOutPartitioningType0 | Unset): method, k chosen and BIC per k (pool bandits)
            pending_decisions (list[PendingOut] | Unset): the oldest (at most 100) decisions still holding their batch
            validation_dataset_id (None | Unset | UUID):
     """

    accepted_batches: int
    accuracy_tolerance: float | None
    accuracy_weight: float
    alpha: float
    batch_selection: str
    batch_size: int
    best_fairness: float | None
    budget: int
    budget_remaining: int
    budget_spent: int
    created_at: datetime.datetime
    done: bool
    evaluations: int
    fairness_threshold: float
    id: UUID
    max_evaluations: int | None
    metric: PartitionBanditOutMetric
    name: None | str
    partitions: list[PartitionOut]
    pending_ttl_seconds: float
    pool_dataset_id: None | UUID
    reward: PartitionBanditOutReward
    reward_scale: str
    round_: int
    seed: int
    status: SessionStatus
    stop_reason: None | str
    test_dataset_id: None | UUID
    train_dataset_id: None | UUID
    version: int
    acceptance: str | Unset = 'fairness'
    best_accuracy: float | None | Unset = UNSET
    error: None | str | Unset = UNSET
    influence_pair: list[str] | None | Unset = UNSET
    job_id: None | Unset | UUID = UNSET
    last_run: LastRun | None | Unset = UNSET
    partitioning: None | PartitionBanditOutPartitioningType0 | Unset = UNSET
    pending_decisions: list[PendingOut] | Unset = UNSET
    validation_dataset_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.last_run import LastRun # noqa: PLC0415
        from ..models.partition_bandit_out_partitioning_type_0 import PartitionBanditOutPartitioningType0 # noqa: PLC0415
        from ..models.partition_out import PartitionOut # noqa: PLC0415
        from ..models.pending_out import PendingOut # noqa: PLC0415
        accepted_batches = self.accepted_batches

        accuracy_tolerance: float | None
        accuracy_tolerance = self.accuracy_tolerance

        accuracy_weight = self.accuracy_weight

        alpha = self.alpha

        batch_selection = self.batch_selection

        batch_size = self.batch_size

        best_fairness: float | None
        best_fairness = self.best_fairness

        budget = self.budget

        budget_remaining = self.budget_remaining

        budget_spent = self.budget_spent

        created_at = self.created_at.isoformat()

        done = self.done

        evaluations = self.evaluations

        fairness_threshold = self.fairness_threshold

        id = str(self.id)

        max_evaluations: int | None
        max_evaluations = self.max_evaluations

        metric = self.metric.value

        name: None | str
        name = self.name

        partitions = []
        for partitions_item_data in self.partitions:
            partitions_item = partitions_item_data.to_dict()
            partitions.append(partitions_item)



        pending_ttl_seconds = self.pending_ttl_seconds

        pool_dataset_id: None | str
        if isinstance(self.pool_dataset_id, UUID):
            pool_dataset_id = str(self.pool_dataset_id)
        else:
            pool_dataset_id = self.pool_dataset_id

        reward = self.reward.value

        reward_scale = self.reward_scale

        round_ = self.round_

        seed = self.seed

        status = self.status.value

        stop_reason: None | str
        stop_reason = self.stop_reason

        test_dataset_id: None | str
        if isinstance(self.test_dataset_id, UUID):
            test_dataset_id = str(self.test_dataset_id)
        else:
            test_dataset_id = self.test_dataset_id

        train_dataset_id: None | str
        if isinstance(self.train_dataset_id, UUID):
            train_dataset_id = str(self.train_dataset_id)
        else:
            train_dataset_id = self.train_dataset_id

        version = self.version

        acceptance = self.acceptance

        best_accuracy: float | None | Unset
        if isinstance(self.best_accuracy, Unset):
            best_accuracy = UNSET
        else:
            best_accuracy = self.best_accuracy

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        influence_pair: list[str] | None | Unset
        if isinstance(self.influence_pair, Unset):
            influence_pair = UNSET
        elif isinstance(self.influence_pair, list):
            influence_pair = self.influence_pair


        else:
            influence_pair = self.influence_pair

        job_id: None | str | Unset
        if isinstance(self.job_id, Unset):
            job_id = UNSET
        elif isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        last_run: dict[str, Any] | None | Unset
        if isinstance(self.last_run, Unset):
            last_run = UNSET
        elif isinstance(self.last_run, LastRun):
            last_run = self.last_run.to_dict()
        else:
            last_run = self.last_run

        partitioning: dict[str, Any] | None | Unset
        if isinstance(self.partitioning, Unset):
            partitioning = UNSET
        elif isinstance(self.partitioning, PartitionBanditOutPartitioningType0):
            partitioning = self.partitioning.to_dict()
        else:
            partitioning = self.partitioning

        pending_decisions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.pending_decisions, Unset):
            pending_decisions = []
            for pending_decisions_item_data in self.pending_decisions:
                pending_decisions_item = pending_decisions_item_data.to_dict()
                pending_decisions.append(pending_decisions_item)



        validation_dataset_id: None | str | Unset
        if isinstance(self.validation_dataset_id, Unset):
            validation_dataset_id = UNSET
        elif isinstance(self.validation_dataset_id, UUID):
            validation_dataset_id = str(self.validation_dataset_id)
        else:
            validation_dataset_id = self.validation_dataset_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "accepted_batches": accepted_batches,
            "accuracy_tolerance": accuracy_tolerance,
            "accuracy_weight": accuracy_weight,
            "alpha": alpha,
            "batch_selection": batch_selection,
            "batch_size": batch_size,
            "best_fairness": best_fairness,
            "budget": budget,
            "budget_remaining": budget_remaining,
            "budget_spent": budget_spent,
            "created_at": created_at,
            "done": done,
            "evaluations": evaluations,
            "fairness_threshold": fairness_threshold,
            "id": id,
            "max_evaluations": max_evaluations,
            "metric": metric,
            "name": name,
            "partitions": partitions,
            "pending_ttl_seconds": pending_ttl_seconds,
            "pool_dataset_id": pool_dataset_id,
            "reward": reward,
            "reward_scale": reward_scale,
            "round": round_,
            "seed": seed,
            "status": status,
            "stop_reason": stop_reason,
            "test_dataset_id": test_dataset_id,
            "train_dataset_id": train_dataset_id,
            "version": version,
        })
        if acceptance is not UNSET:
            field_dict["acceptance"] = acceptance
        if best_accuracy is not UNSET:
            field_dict["best_accuracy"] = best_accuracy
        if error is not UNSET:
            field_dict["error"] = error
        if influence_pair is not UNSET:
            field_dict["influence_pair"] = influence_pair
        if job_id is not UNSET:
            field_dict["job_id"] = job_id
        if last_run is not UNSET:
            field_dict["last_run"] = last_run
        if partitioning is not UNSET:
            field_dict["partitioning"] = partitioning
        if pending_decisions is not UNSET:
            field_dict["pending_decisions"] = pending_decisions
        if validation_dataset_id is not UNSET:
            field_dict["validation_dataset_id"] = validation_dataset_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.last_run import LastRun # noqa: PLC0415
        from ..models.partition_bandit_out_partitioning_type_0 import PartitionBanditOutPartitioningType0 # noqa: PLC0415
        from ..models.partition_out import PartitionOut # noqa: PLC0415
        from ..models.pending_out import PendingOut # noqa: PLC0415
        d = dict(src_dict)
        accepted_batches = d.pop("accepted_batches")

        def _parse_accuracy_tolerance(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        accuracy_tolerance = _parse_accuracy_tolerance(d.pop("accuracy_tolerance"))


        accuracy_weight = d.pop("accuracy_weight")

        alpha = d.pop("alpha")

        batch_selection = d.pop("batch_selection")

        batch_size = d.pop("batch_size")

        def _parse_best_fairness(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        best_fairness = _parse_best_fairness(d.pop("best_fairness"))


        budget = d.pop("budget")

        budget_remaining = d.pop("budget_remaining")

        budget_spent = d.pop("budget_spent")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        done = d.pop("done")

        evaluations = d.pop("evaluations")

        fairness_threshold = d.pop("fairness_threshold")

        id = UUID(d.pop("id"))




        def _parse_max_evaluations(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_evaluations = _parse_max_evaluations(d.pop("max_evaluations"))


        metric = PartitionBanditOutMetric(d.pop("metric"))




        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        partitions = []
        _partitions = d.pop("partitions")
        for partitions_item_data in (_partitions):
            partitions_item = PartitionOut.from_dict(partitions_item_data)



            partitions.append(partitions_item)


        pending_ttl_seconds = d.pop("pending_ttl_seconds")

        def _parse_pool_dataset_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                pool_dataset_id_type_0 = UUID(data)



                return pool_dataset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        pool_dataset_id = _parse_pool_dataset_id(d.pop("pool_dataset_id"))


        reward = PartitionBanditOutReward(d.pop("reward"))




        reward_scale = d.pop("reward_scale")

        round_ = d.pop("round")

        seed = d.pop("seed")

        status = SessionStatus(d.pop("status"))




        def _parse_stop_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        stop_reason = _parse_stop_reason(d.pop("stop_reason"))


        def _parse_test_dataset_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                test_dataset_id_type_0 = UUID(data)



                return test_dataset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        test_dataset_id = _parse_test_dataset_id(d.pop("test_dataset_id"))


        def _parse_train_dataset_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                train_dataset_id_type_0 = UUID(data)



                return train_dataset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        train_dataset_id = _parse_train_dataset_id(d.pop("train_dataset_id"))


        version = d.pop("version")

        acceptance = d.pop("acceptance", UNSET)

        def _parse_best_accuracy(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        best_accuracy = _parse_best_accuracy(d.pop("best_accuracy", UNSET))


        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_influence_pair(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                influence_pair_type_0 = cast(list[str], data)

                return influence_pair_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        influence_pair = _parse_influence_pair(d.pop("influence_pair", UNSET))


        def _parse_job_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)



                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        job_id = _parse_job_id(d.pop("job_id", UNSET))


        def _parse_last_run(data: object) -> LastRun | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_run_type_0 = LastRun.from_dict(data)



                return last_run_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LastRun | None | Unset, data)

        last_run = _parse_last_run(d.pop("last_run", UNSET))


        def _parse_partitioning(data: object) -> None | PartitionBanditOutPartitioningType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                partitioning_type_0 = PartitionBanditOutPartitioningType0.from_dict(data)



                return partitioning_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PartitionBanditOutPartitioningType0 | Unset, data)

        partitioning = _parse_partitioning(d.pop("partitioning", UNSET))


        _pending_decisions = d.pop("pending_decisions", UNSET)
        pending_decisions: list[PendingOut] | Unset = UNSET
        if _pending_decisions is not UNSET:
            pending_decisions = []
            for pending_decisions_item_data in _pending_decisions:
                pending_decisions_item = PendingOut.from_dict(pending_decisions_item_data)



                pending_decisions.append(pending_decisions_item)


        def _parse_validation_dataset_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                validation_dataset_id_type_0 = UUID(data)



                return validation_dataset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        validation_dataset_id = _parse_validation_dataset_id(d.pop("validation_dataset_id", UNSET))


        partition_bandit_out = cls(
            accepted_batches=accepted_batches,
            accuracy_tolerance=accuracy_tolerance,
            accuracy_weight=accuracy_weight,
            alpha=alpha,
            batch_selection=batch_selection,
            batch_size=batch_size,
            best_fairness=best_fairness,
            budget=budget,
            budget_remaining=budget_remaining,
            budget_spent=budget_spent,
            created_at=created_at,
            done=done,
            evaluations=evaluations,
            fairness_threshold=fairness_threshold,
            id=id,
            max_evaluations=max_evaluations,
            metric=metric,
            name=name,
            partitions=partitions,
            pending_ttl_seconds=pending_ttl_seconds,
            pool_dataset_id=pool_dataset_id,
            reward=reward,
            reward_scale=reward_scale,
            round_=round_,
            seed=seed,
            status=status,
            stop_reason=stop_reason,
            test_dataset_id=test_dataset_id,
            train_dataset_id=train_dataset_id,
            version=version,
            acceptance=acceptance,
            best_accuracy=best_accuracy,
            error=error,
            influence_pair=influence_pair,
            job_id=job_id,
            last_run=last_run,
            partitioning=partitioning,
            pending_decisions=pending_decisions,
            validation_dataset_id=validation_dataset_id,
        )


        partition_bandit_out.additional_properties = d
        return partition_bandit_out

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
