from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.policy_spec_strategy import PolicySpecStrategy
from ..types import UNSET, Unset






T = TypeVar("T", bound="PolicySpec")



@_attrs_define
class PolicySpec:
    """ A group sampler's strategy and its parameters (as ``POST /v1/group-samplers`` takes them).

        Attributes:
            strategy (PolicySpecStrategy):
            batch_size (int | Unset): samples acquired per decision Default: 1.
            c0 (float | Unset): weight of the exploration bonus c0 / sqrt(N_z) Default: 0.1.
            c1 (float | Unset): Aopt+ trend weight (aopt_plus only)
            epsilon (float | Unset): exploration probability of epsilon_greedy Default: 0.1.
            name (str | Unset): how results name it (default: the strategy)
            xi (float | Unset): forced exploration when min N_z < t^xi Default: 0.5.
     """

    strategy: PolicySpecStrategy
    batch_size: int | Unset = 1
    c0: float | Unset = 0.1
    c1: float | Unset = UNSET
    epsilon: float | Unset = 0.1
    name: str | Unset = UNSET
    xi: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        strategy = self.strategy.value

        batch_size = self.batch_size

        c0 = self.c0

        c1 = self.c1

        epsilon = self.epsilon

        name = self.name

        xi = self.xi


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "strategy": strategy,
        })
        if batch_size is not UNSET:
            field_dict["batch_size"] = batch_size
        if c0 is not UNSET:
            field_dict["c0"] = c0
        if c1 is not UNSET:
            field_dict["c1"] = c1
        if epsilon is not UNSET:
            field_dict["epsilon"] = epsilon
        if name is not UNSET:
            field_dict["name"] = name
        if xi is not UNSET:
            field_dict["xi"] = xi

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        strategy = PolicySpecStrategy(d.pop("strategy"))




        batch_size = d.pop("batch_size", UNSET)

        c0 = d.pop("c0", UNSET)

        c1 = d.pop("c1", UNSET)

        epsilon = d.pop("epsilon", UNSET)

        name = d.pop("name", UNSET)

        xi = d.pop("xi", UNSET)

        policy_spec = cls(
            strategy=strategy,
            batch_size=batch_size,
            c0=c0,
            c1=c1,
            epsilon=epsilon,
            name=name,
            xi=xi,
        )

        return policy_spec

