from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sampler_params_bound import SamplerParamsBound
from ..types import UNSET, Unset






T = TypeVar("T", bound="SamplerParams")



@_attrs_define
class SamplerParams:
    """ Hyperparameters of the sampling rule (SPEC §5.1); unknown names are refused.

        Attributes:
            bound (SamplerParamsBound | Unset): empirical: eq. 6; theoretical: the three terms of eq. 4 Default:
                SamplerParamsBound.EMPIRICAL.
            bound_c (float | Unset): C of Assumption 3 (bound = theoretical) Default: 0.5.
            bound_delta (float | Unset): δ of Remark 1 (bound = theoretical) Default: 0.05.
            bound_vc_dim (int | Unset): VC dimension in e_z(N) (bound = theoretical) Default: 3.
            c0 (float | Unset): weight of the exploration bonus c0 / sqrt(N_z) (eq. 6) Default: 0.1.
            c1 (float | Unset): weight of the Mann–Kendall trend term; default 0.1 for aopt_plus, and it must be 0 for the
                other strategies
            epsilon (float | Unset): exploration probability of epsilon_greedy Default: 0.1.
            trend_window (int | Unset): aopt_plus: the Mann–Kendall series keeps each group's last trend_window accuracies
                (default 30)
            warmup_rounds (int | Unset): round-robin rounds first; default one per group
            xi (float | Unset): forced exploration when min N_z < t^xi Default: 0.5.
     """

    bound: SamplerParamsBound | Unset = SamplerParamsBound.EMPIRICAL
    bound_c: float | Unset = 0.5
    bound_delta: float | Unset = 0.05
    bound_vc_dim: int | Unset = 3
    c0: float | Unset = 0.1
    c1: float | Unset = UNSET
    epsilon: float | Unset = 0.1
    trend_window: int | Unset = UNSET
    warmup_rounds: int | Unset = UNSET
    xi: float | Unset = 0.5





    def to_dict(self) -> dict[str, Any]:
        bound: str | Unset = UNSET
        if not isinstance(self.bound, Unset):
            bound = self.bound.value


        bound_c = self.bound_c

        bound_delta = self.bound_delta

        bound_vc_dim = self.bound_vc_dim

        c0 = self.c0

        c1 = self.c1

        epsilon = self.epsilon

        trend_window = self.trend_window

        warmup_rounds = self.warmup_rounds

        xi = self.xi


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if bound is not UNSET:
            field_dict["bound"] = bound
        if bound_c is not UNSET:
            field_dict["bound_c"] = bound_c
        if bound_delta is not UNSET:
            field_dict["bound_delta"] = bound_delta
        if bound_vc_dim is not UNSET:
            field_dict["bound_vc_dim"] = bound_vc_dim
        if c0 is not UNSET:
            field_dict["c0"] = c0
        if c1 is not UNSET:
            field_dict["c1"] = c1
        if epsilon is not UNSET:
            field_dict["epsilon"] = epsilon
        if trend_window is not UNSET:
            field_dict["trend_window"] = trend_window
        if warmup_rounds is not UNSET:
            field_dict["warmup_rounds"] = warmup_rounds
        if xi is not UNSET:
            field_dict["xi"] = xi

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _bound = d.pop("bound", UNSET)
        bound: SamplerParamsBound | Unset
        if isinstance(_bound,  Unset):
            bound = UNSET
        else:
            bound = SamplerParamsBound(_bound)




        bound_c = d.pop("bound_c", UNSET)

        bound_delta = d.pop("bound_delta", UNSET)

        bound_vc_dim = d.pop("bound_vc_dim", UNSET)

        c0 = d.pop("c0", UNSET)

        c1 = d.pop("c1", UNSET)

        epsilon = d.pop("epsilon", UNSET)

        trend_window = d.pop("trend_window", UNSET)

        warmup_rounds = d.pop("warmup_rounds", UNSET)

        xi = d.pop("xi", UNSET)

        sampler_params = cls(
            bound=bound,
            bound_c=bound_c,
            bound_delta=bound_delta,
            bound_vc_dim=bound_vc_dim,
            c0=c0,
            c1=c1,
            epsilon=epsilon,
            trend_window=trend_window,
            warmup_rounds=warmup_rounds,
            xi=xi,
        )

        return sampler_params

