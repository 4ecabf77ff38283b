"""Shared helpers for the benchmark scripts: result folders, tables and targets.

Every script prints its tables as Markdown (so they can be pasted into
docs/benchmarks.md as printed), writes them and its PNG plots under
``bench/results/<name>/`` (``FAIRACQ_BENCH_RESULTS`` names another root), and
exits non-zero when a target is missed. A ``--quick`` run writes to a fresh
temporary folder instead, never over the committed results::

    args = parser.parse_args(argv)
    redirect_quick(args.quick)
    targets = Targets("group_sampling")
    targets.check("instance I: |mean pi - pi*| <= 0.05", gap <= 0.05, f"gap={gap:.3f}")
    ...
    sys.exit(targets.finish())
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no screen on servers and CI

__all__ = [
    "RESULTS_ENV", "Targets", "markdown_table", "read_targets", "redirect_quick", "results_dir", "results_root",
    "write_text",
]

RESULTS_ENV = "FAIRACQ_BENCH_RESULTS"
COMMITTED_RESULTS = Path(__file__).resolve().parent / "results"
RESULTS_ROOT = Path(os.environ.get(RESULTS_ENV, COMMITTED_RESULTS))


def results_root() -> Path:
    return RESULTS_ROOT


def redirect_quick(quick: bool, why: str = "--quick") -> Path:
    """Send a ``--quick`` run's files to a fresh temporary folder unless ``FAIRACQ_BENCH_RESULTS`` names one.

    Smoke runs (and runs that do not follow the committed protocol, named by ``why``)
    must never overwrite the committed results; ``python -m bench --quick`` sets the
    variable so that all scripts share one folder.
    """
    global RESULTS_ROOT
    if quick and RESULTS_ENV not in os.environ:
        RESULTS_ROOT = Path(tempfile.mkdtemp(prefix="fairacq-bench-quick-"))
        print(f"{why}: results go to {RESULTS_ROOT}", flush=True)
    return RESULTS_ROOT


def results_dir(name: str) -> Path:
    path = RESULTS_ROOT / name
    path.mkdir(parents=True, exist_ok=True)
    return path


_BARE_PIPE = re.compile(r"(?<!\\)\|")  # a '|' not already escaped as '\|'


def _cell(value: object, digits: int) -> str:
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return _BARE_PIPE.sub(r"\|", str(value))  # "|mean - pi*|" must not end the cell


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]], digits: int = 3) -> str:
    lines = ["| " + " | ".join(_cell(h, digits) for h in headers) + " |", "|" + "---|" * len(headers)]
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


def read_targets(path: Path) -> list[tuple[str, bool, str]]:
    """The ``(target, passed, measured)`` rows of a targets.md written by :meth:`Targets.finish`."""
    rows = []
    for line in path.read_text().splitlines()[2:]:  # past the header and the rule
        cells = [c.strip() for c in _BARE_PIPE.split(line.strip())[1:-1]]
        if len(cells) != 3 or cells[1] not in ("PASS", "MISS"):
            raise ValueError(f"{path}: not a targets row: {line!r}")
        rows.append((cells[0], cells[1] == "PASS", cells[2]))
    return rows
