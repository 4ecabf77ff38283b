"""``POST /v1/fairness-metrics``: per-group values and disparities, stateless."""

from __future__ import annotations

from service.api import resource_router
from service.auth import TenantDep
from service.endpoints import read_only_endpoint
from service.fairness_metrics import service
from service.fairness_metrics.schemas import MetricsRequest, MetricsResponse
from service.settings import SettingsDep

router = resource_router("/fairness-metrics", "fairness-metrics")


@router.post("", operation_id="compute_fairness_metrics")
@read_only_endpoint
def compute_fairness_metrics(payload: MetricsRequest, tenant: TenantDep, settings: SettingsDep) -> MetricsResponse:
    """Compute fairness metrics of predictions by group (what reported-mode clients send back)."""
    return service.compute_metrics(payload, settings)
