from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.proxy_spec_progress import ProxySpecProgress
from ..models.proxy_spec_type import ProxySpecType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ProxySpec")



@_attrs_define
class ProxySpec:
    """ The proxy to learn (SPEC §5.3); fields a type does not use are ignored.

        Attributes:
            type_ (ProxySpecType):
            c (float | Unset): *_logistic: inverse L2 strength
            alpha (float | Unset): ab_tree*: disclosivity budget (Definition 5)
            epsilon (float | Unset): ab_tree*: accuracy of each split's game
            gamma (float | Unset): ab_tree*: each split shrinks the distance to U by 1 − γ Default: 0.1.
            lambda_max (float | Unset): ab_tree*: dual bound (default from ε)
            margins (list[float] | Unset): ab_tree*: progress margins tried
            max_depth (int | Unset): tree depth limit (every tree type) Default: 20.
            max_iter (int | Unset): *_logistic: solver iterations
            max_iterations (int | Unset): ab_tree*: cap on each split game's rounds (library: 300)
            min_leaf_weight (float | Unset): ab_tree*: least training points per new leaf (library: 30)
            min_samples_leaf (int | Unset): qp_tree, naive_tree: scikit-learn's
            progress (ProxySpecProgress | Unset): ab_tree*: split objective (library: gamma)
            step_size (float | Unset): ab_tree*: dual step (default λ_max/√(4K))
            stop_distance (float | Unset): ab_tree*: stop when U is this close to the hull Default: 0.1.
     """

    type_: ProxySpecType
    c: float | Unset = UNSET
    alpha: float | Unset = UNSET
    epsilon: float | Unset = UNSET
    gamma: float | Unset = 0.1
    lambda_max: float | Unset = UNSET
    margins: list[float] | Unset = UNSET
    max_depth: int | Unset = 20
    max_iter: int | Unset = UNSET
    max_iterations: int | Unset = UNSET
    min_leaf_weight: float | Unset = UNSET
    min_samples_leaf: int | Unset = UNSET
    progress: ProxySpecProgress | Unset = UNSET
    step_size: float | Unset = UNSET
    stop_distance: float | Unset = 0.1





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        c = self.c

        alpha = self.alpha

        epsilon = self.epsilon

        gamma = self.gamma

        lambda_max = self.lambda_max

        margins: list[float] | Unset = UNSET
        if not isinstance(self.margins, Unset):
            margins = self.margins



        max_depth = self.max_depth

        max_iter = self.max_iter

        max_iterations = self.max_iterations

        min_leaf_weight = self.min_leaf_weight

        min_samples_leaf = self.min_samples_leaf

        progress: str | Unset = UNSET
        if not isinstance(self.progress, Unset):
            progress = self.progress.value


        step_size = self.step_size

        stop_distance = self.stop_distance


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if c is not UNSET:
            field_dict["C"] = c
        if alpha is not UNSET:
            field_dict["alpha"] = alpha
        if epsilon is not UNSET:
            field_dict["epsilon"] = epsilon
        if gamma is not UNSET:
            field_dict["gamma"] = gamma
        if lambda_max is not UNSET:
            field_dict["lambda_max"] = lambda_max
        if margins is not UNSET:
            field_dict["margins"] = margins
        if max_depth is not UNSET:
            field_dict["max_depth"] = max_depth
        if max_iter is not UNSET:
            field_dict["max_iter"] = max_iter
        if max_iterations is not UNSET:
            field_dict["max_iterations"] = max_iterations
        if min_leaf_weight is not UNSET:
            field_dict["min_leaf_weight"] = min_leaf_weight
        if min_samples_leaf is not UNSET:
            field_dict["min_samples_leaf"] = min_samples_leaf
        if progress is not UNSET:
            field_dict["progress"] = progress
        if step_size is not UNSET:
            field_dict["step_size"] = step_size
        if stop_distance is not UNSET:
            field_dict["stop_distance"] = stop_distance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = ProxySpecType(d.pop("type"))




        c = d.pop("C", UNSET)

        alpha = d.pop("alpha", UNSET)

        epsilon = d.pop("epsilon", UNSET)

        gamma = d.pop("gamma", UNSET)

        lambda_max = d.pop("lambda_max", UNSET)

        margins = cast(list[float], d.pop("margins", UNSET))


        max_depth = d.pop("max_depth", UNSET)

        max_iter = d.pop("max_iter", UNSET)

        max_iterations = d.pop("max_iterations", UNSET)

        min_leaf_weight = d.pop("min_leaf_weight", UNSET)

        min_samples_leaf = d.pop("min_samples_leaf", UNSET)

        _progress = d.pop("progress", UNSET)
        progress: ProxySpecProgress | Unset
        if isinstance(_progress,  Unset):
            progress = UNSET
        else:
            progress = ProxySpecProgress(_progress)




        step_size = d.pop("step_size", UNSET)

        stop_distance = d.pop("stop_distance", UNSET)

        proxy_spec = cls(
            type_=type_,
            c=c,
            alpha=alpha,
            epsilon=epsilon,
            gamma=gamma,
            lambda_max=lambda_max,
            margins=margins,
            max_depth=max_depth,
            max_iter=max_iter,
            max_iterations=max_iterations,
            min_leaf_weight=min_leaf_weight,
            min_samples_leaf=min_samples_leaf,
            progress=progress,
            step_size=step_size,
            stop_distance=stop_distance,
        )

        return proxy_spec

