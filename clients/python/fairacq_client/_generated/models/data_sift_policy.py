from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.data_sift_policy_batch_selection import DataSiftPolicyBatchSelection
from ..models.data_sift_policy_reward import DataSiftPolicyReward
from ..models.data_sift_policy_reward_scale import DataSiftPolicyRewardScale
from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="DataSiftPolicy")



@_attrs_define
class DataSiftPolicy:
    """ DataSift over GMM partitions of the pool (``POST /v1/partition-bandits`` parameters).

        Attributes:
            policy (Literal['datasift']):
            alpha (float | Unset): exploration weight of eq. 2's UCB Default: 0.1.
            batch_selection (DataSiftPolicyBatchSelection | Unset):  Default: DataSiftPolicyBatchSelection.RANDOM.
            batch_size (int | Unset): points per evaluated batch Default: 10.
            fairness_threshold (float | Unset): stop once |F| is this small Default: 0.01.
            max_evaluations (int | Unset): batches evaluated at most (default 3 × budget / batch_size)
            name (str | Unset): how results name it (default: datasift_<batch_selection>)
            refresh_influence (bool | Unset): influence only: recompute it after each kept batch Default: False.
            reward (DataSiftPolicyReward | Unset):  Default: DataSiftPolicyReward.BASE_RATE_DISTANCE.
            reward_scale (DataSiftPolicyRewardScale | Unset):  Default: DataSiftPolicyRewardScale.NONE.
     """

    policy: Literal['datasift']
    alpha: float | Unset = 0.1
    batch_selection: DataSiftPolicyBatchSelection | Unset = DataSiftPolicyBatchSelection.RANDOM
    batch_size: int | Unset = 10
    fairness_threshold: float | Unset = 0.01
    max_evaluations: int | Unset = UNSET
    name: str | Unset = UNSET
    refresh_influence: bool | Unset = False
    reward: DataSiftPolicyReward | Unset = DataSiftPolicyReward.BASE_RATE_DISTANCE
    reward_scale: DataSiftPolicyRewardScale | Unset = DataSiftPolicyRewardScale.NONE





    def to_dict(self) -> dict[str, Any]:
        policy = self.policy

        alpha = self.alpha

        batch_selection: str | Unset = UNSET
        if not isinstance(self.batch_selection, Unset):
            batch_selection = self.batch_selection.value


        batch_size = self.batch_size

        fairness_threshold = self.fairness_threshold

        max_evaluations = self.max_evaluations

        name = self.name

        refresh_influence = self.refresh_influence

        reward: str | Unset = UNSET
        if not isinstance(self.reward, Unset):
            reward = self.reward.value


        reward_scale: str | Unset = UNSET
        if not isinstance(self.reward_scale, Unset):
            reward_scale = self.reward_scale.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "policy": policy,
        })
        if alpha is not UNSET:
            field_dict["alpha"] = alpha
        if batch_selection is not UNSET:
            field_dict["batch_selection"] = batch_selection
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if fairness_threshold is not UNSET:
            field_dict["fairness_threshold"] = fairness_threshold
        if max_evaluations is not UNSET:
            field_dict["max_evaluations"] = max_evaluations
        if name is not UNSET:
            field_dict["name"] = name
        if refresh_influence is not UNSET:
            field_dict["refresh_influence"] = refresh_influence
        if reward is not UNSET:
            field_dict["reward"] = reward
        if reward_scale is not UNSET:
            field_dict["reward_scale"] = reward_scale

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        policy = cast(Literal['datasift'] , d.pop("policy"))
        if policy != 'datasift':
            raise ValueError(f"policy must match const 'datasift', got '{policy}'")

        alpha = d.pop("alpha", UNSET)

        _batch_selection = d.pop("batch_selection", UNSET)
        batch_selection: DataSiftPolicyBatchSelection | Unset
        if isinstance(_batch_selection,  Unset):
            batch_selection = UNSET
        else:
            batch_selection = DataSiftPolicyBatchSelection(_batch_selection)




        batch_size = d.pop("batch_size", UNSET)

        fairness_threshold = d.pop("fairness_threshold", UNSET)

        max_evaluations = d.pop("max_evaluations", UNSET)

        name = d.pop("name", UNSET)

        refresh_influence = d.pop("refresh_influence", UNSET)

        _reward = d.pop("reward", UNSET)
        reward: DataSiftPolicyReward | Unset
        if isinstance(_reward,  Unset):
            reward = UNSET
        else:
            reward = DataSiftPolicyReward(_reward)




        _reward_scale = d.pop("reward_scale", UNSET)
        reward_scale: DataSiftPolicyRewardScale | Unset
        if isinstance(_reward_scale,  Unset):
            reward_scale = UNSET
        else:
            reward_scale = DataSiftPolicyRewardScale(_reward_scale)




        data_sift_policy = cls(
            policy=policy,
            alpha=alpha,
            batch_selection=batch_selection,
            batch_size=batch_size,
            fairness_threshold=fairness_threshold,
            max_evaluations=max_evaluations,
            name=name,
            refresh_influence=refresh_influence,
            reward=reward,
            reward_scale=reward_scale,
        )

        return data_sift_policy

