"""The compose file's services and wiring, and the image's basics (Docker cannot run here;
CI runs the same topology natively in tests/postgres/test_topology.py)."""

from __future__ import annotations

from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def _compose() -> dict:
    return yaml.safe_load((DOCKER / "docker-compose.yml").read_text())


def test_compose_has_the_four_services():
    assert set(_compose()["services"]) == {"postgres", "migrate", "api", "worker"}


def test_startup_order_waits_for_a_healthy_database_and_a_finished_migration():
    services = _compose()["services"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in ("api", "worker"):
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["migrate"]["command"][-1] == "migrate"
    assert services["migrate"]["restart"] == "no"


def test_every_long_running_service_has_a_health_check():
    services = _compose()["services"]
    for name in ("postgres", "api", "worker"):
        assert services[name]["healthcheck"]["test"], name
    assert "/readyz" in " ".join(services["api"]["healthcheck"]["test"])


def test_api_and_workers_share_the_postgres_database():
    services = _compose()["services"]
    urls = {services[n]["environment"]["FAIRACQ_DATABASE_URL"] for n in ("migrate", "api", "worker")}
    assert len(urls) == 1
    assert "@postgres:5432/" in urls.pop()
    assert services["worker"]["command"][-1] == "worker"
    assert "--workers" in services["api"]["command"] and services["api"]["command"][-1] == "0"


def test_the_worker_can_be_scaled():
    worker = _compose()["services"]["worker"]
    assert "container_name" not in worker and "ports" not in worker


def test_dockerfile_is_slim_and_runs_as_a_non_root_user():
    text = (DOCKER / "Dockerfile").read_text()
    assert "FROM python:3.11-slim" in text
    users = [line.split()[1] for line in text.splitlines() if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert "alembic" not in text  # the migrations travel inside the package
