"""How a fitted proxy is shown: its measures, the QP's result and plain-language diagnostics."""

from __future__ import annotations

from typing import Any

from service.algorithms.balanced_filtering import BaseProxy
from service.sessions.finite import finite_or_none, json_safe

__all__ = ["diagnostics", "fitted_fields"]


def fitted_fields(proxy: BaseProxy) -> dict[str, Any]:
    """The GET fields of a fitted proxy: A, r̂, q, ρ and what filtering with them achieves."""
    s = proxy.sampling_
    return {
        "conditional_matrix": proxy.conditional_matrix_.tolist(),
        "leaf_rates": proxy.leaf_rates_.tolist(),
        "base_rates": proxy.base_rates_.tolist(),
        "q": proxy.q_.tolist(),
        "acceptance_probabilities": proxy.rho_.tolist(),
        "accepted_distribution": s.accepted_distribution.tolist(),
        "disclosivity": finite_or_none(proxy.disclosivity_),
        "imbalance": finite_or_none(proxy.imbalance_),
        "acceptance_rate": finite_or_none(proxy.acceptance_rate_),
        "sampling": {"status": s.status, "solver": s.solver, "distance": s.distance, "in_hull": s.in_hull,
                     "relaxed": s.relaxed, "message": s.message, "iterations": s.iterations,
                     "gap": finite_or_none(s.gap) or 0.0},
    }


def diagnostics(proxy: BaseProxy, hyper: dict[str, Any]) -> dict[str, Any]:
    """What the fit reports, with warnings a user should read (a split game stopped short of ε, …)."""
    warnings: list[str] = []
    out: dict[str, Any] = {}
    splits = getattr(proxy, "splits_", None)
    if splits is not None:
        for k, split in enumerate(splits, start=1):
            if split.get("stopped_short"):
                warnings.append(
                    f"split {k} (node {split['node']}, depth {split['depth']}): the game stopped after "
                    f"{split['iterations']} rounds with duality gap {split['gap']:.3g} > epsilon "
                    f"{hyper.get('epsilon')} (raise max_iterations to play longer); the split was kept because its "
                    f"leaves passed the disclosivity and progress tests")
        stop_reason = getattr(proxy, "stop_reason_", None)
        hull_distance = finite_or_none(getattr(proxy, "hull_distance_", float("nan")))
        if stop_reason and stop_reason != "within_stop_distance" and hull_distance is not None:
            warnings.append(f"the tree stopped growing ({stop_reason}) with the target {hull_distance:.3g} from the "
                            f"hull of its leaves, above stop_distance {hyper.get('stop_distance')}")
        out.update(stop_reason=stop_reason, any_stopped_short=any(s.get("stopped_short") for s in splits),
                   splits=json_safe(splits), games_played=getattr(proxy, "games_played_", None),
                   rejections=json_safe(getattr(proxy, "rejections_", None)), hull_distance=hull_distance)
    converged = getattr(proxy, "converged_", None)
    if converged is not None:
        out["converged"] = bool(converged)
        if not converged:
            warnings.append("the logistic regression did not converge within max_iter iterations")
    s = proxy.sampling_
    if not s.in_hull:
        shape = "cone" if s.relaxed else "hull"
        warnings.append(f"the target is outside the {shape} of the leaves' group distributions (distance "
                        f"{s.distance:.3g}); accepted points are expected to be imbalanced by "
                        f"{proxy.imbalance_:.3g}")
    if s.message:
        warnings.append(s.message)
    return {"warnings": warnings, **out}
