"""The compose file's services and wiring, and the image's basics, as text: quick checks for every
run. The stack itself runs for real in tests/deploy/test_compose.py (`make test-compose`, CI)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"


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


def test_the_published_port_and_the_image_tag_can_be_chosen():
    """So that the compose test (its own project, port and tag) leaves a developer's stack alone."""
    services = _compose()["services"]
    assert services["api"]["ports"] == ["${FAIRACQ_PORT:-8000}:8000"]
    assert {services[n]["image"] for n in ("migrate", "api", "worker")} == {"${FAIRACQ_IMAGE:-fairacq:latest}"}
    assert "build" in services["migrate"]


def test_services_stop_promptly_so_down_takes_seconds():
    services = _compose()["services"]
    for name in ("postgres", "migrate", "api", "worker"):
        assert services[name]["init"] is True, name  # an init forwards SIGTERM to the process
    assert services["postgres"]["stop_signal"] == "SIGINT"  # PostgreSQL's fast shutdown


def test_postgres_creates_a_utf8_database():
    environment = _compose()["services"]["postgres"]["environment"]
    assert "--encoding=UTF8" in environment["POSTGRES_INITDB_ARGS"]
    assert environment["LANG"] == "C.UTF-8"


def test_compose_never_serves_open():
    services = _compose()["services"]
    for name in ("api", "worker"):
        assert "FAIRACQ_OPEN_MODE" not in services[name]["environment"]


def test_dependencies_are_installed_before_the_source_is_copied():
    """Editing the service's code must not reinstall (and download) every dependency."""
    lines = [line for line in (DOCKER / "Dockerfile").read_text().splitlines() if line.strip()]

    def first(text: str, start: int = 0) -> int:
        return next(i for i in range(start, len(lines)) if text in lines[i])

    assert first("requirements.txt") < first("COPY service")  # the list comes from pyproject.toml alone
    final_stage = max(i for i, line in enumerate(lines) if line.startswith("FROM "))
    assert first("pip install -r", final_stage) < first("--no-deps", final_stage)


def test_the_build_context_holds_only_the_package():
    ignore = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()]
    assert "*" in ignore  # everything out, then the few files the image needs back in
    assert {line for line in ignore if line.startswith("!")} == {"!pyproject.toml", "!README.md", "!service/"}
