"""Shared helpers for the benchmark scripts: result folders, tables and targets.

Every script prints its tables as Markdown (so they can be pasted into the
README as printed), writes them and its PNG plots under ``bench/results/<name>/``,
and exits non-zero when a target is missed::

    targets = Targets("group_sampling")
    targets.check("instance I: |mean pi - pi*| <= 0.05", gap <= 0.05, f"gap={gap:.3f}")
    ...
    sys.exit(targets.finish())
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no screen on servers and CI

__all__ = ["Targets", "markdown_table", "results_dir", "write_text"]

RESULTS_ROOT = Path(os.environ.get("FAIRACQ_BENCH_RESULTS", Path(__file__).resolve().parent / "results"))


def results_dir(name: str) -> Path:
    path = RESULTS_ROOT / name
    path.mkdir(parents=True, exist_ok=True)
    return path


def _cell(value: object, digits: int) -> str:
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]], digits: int = 3) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(_cell(v, digits) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def write_text(name: str, filename: str, text: str) -> Path:
    path = results_dir(name) / filename
    path.write_text(text + "\n")
    return path


class Targets:
    """Collects pass/fail checks against an issue's targets and prints a summary."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows: list[tuple[str, bool, str]] = []

    def check(self, target: str, passed: bool, measured: str) -> bool:
        self.rows.append((target, bool(passed), measured))
        return bool(passed)

    def summary(self) -> str:
        return markdown_table(
            ["target", "result", "measured"],
            [(t, "PASS" if ok else "MISS", m) for t, ok, m in self.rows],
        )

    def finish(self) -> int:
        """Print and store the summary; return the process exit code."""
        text = self.summary()
        print(f"\n## Targets: {self.name}\n\n{text}")
        write_text(self.name, "targets.md", text)
        return 0 if all(ok for _, ok, _ in self.rows) else 1
