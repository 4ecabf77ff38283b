"""The compose test's timing report, printed at the end of the run (empty, so silent, when skipped)."""

from __future__ import annotations

REPORT: list[tuple[str, str]] = []


def record(step: str, value: str) -> None:
    """Add a line to the report and say it at once (visible live with ``pytest -s``)."""
    REPORT.append((step, value))
    print(f"compose: {step}: {value}", flush=True)


def pytest_terminal_summary(terminalreporter) -> None:
    if not REPORT:
        return
    terminalreporter.section("compose stack: timing report")
    width = max(len(step) for step, _ in REPORT)
    for step, value in REPORT:
        terminalreporter.write_line(f"{step:<{width}}  {value}")
