"""Run every benchmark script, then print one table of every target.

    .venv/bin/python -m bench                        # all scripts; results in bench/results/
    .venv/bin/python -m bench --quick                # smoke run; results in a fresh temporary folder
    .venv/bin/python -m bench --only datasift,load   # a subset, in the usual order

Each script runs in its own process, one after another; a missed target or a crash
does not stop the others. At the end the runner prints one table (script, target,
PASS/MISS, measured) read from each script's ``targets.md``, a line for each script
that crashed, and writes the same to ``<results root>/summary.md``. A full run into
``bench/results/`` then refreshes the tables in docs/benchmarks.md
(scripts/update_benchmark_docs.py). The exit status is 1 if a target was missed or a
script crashed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.report import COMMITTED_RESULTS, RESULTS_ENV, markdown_table, read_targets, results_root

SCRIPTS = ("group_sampling", "datasift", "datasift_guard", "balanced_filtering", "fairbatch", "fair_regression",
           "simulations", "load", "export")
ROOT = Path(__file__).resolve().parent.parent
DOCS_SCRIPT = ROOT / "scripts" / "update_benchmark_docs.py"


@dataclass
class Outcome:
    """One script's run: its exit code and the targets it wrote during this run."""

    name: str
    returncode: int
    seconds: float
    targets: list[tuple[str, bool, str]] = field(default_factory=list)
    problem: str = ""  # why the run counts as a crash; empty when it does not

    @property
    def missed(self) -> bool:
        return any(not ok for _, ok, _ in self.targets)

    def crash_note(self) -> str:
        return f"exit code {self.returncode} after {self.seconds:.0f} s, {self.problem}"


def run_script(name: str, quick: bool, root: Path, env: dict[str, str]) -> Outcome:
    argv = [sys.executable, "-m", f"bench.{name}"] + (["--quick"] if quick else [])
    print(f"\n==== {' '.join(argv[1:])} ====\n", flush=True)
    targets_md = root / name / "targets.md"
    started = time.time()
    returncode = subprocess.run(argv, cwd=ROOT, env=env).returncode
    outcome = Outcome(name, returncode, time.time() - started)
    # A committed targets.md from an earlier run must not stand in for a script that crashed.
    if not targets_md.exists() or targets_md.stat().st_mtime < started - 1:
        outcome.problem = "no targets.md written"
    else:
        try:
            outcome.targets = read_targets(targets_md)
        except ValueError as exc:
            outcome.problem = str(exc)
        if not outcome.problem and returncode != 0 and not outcome.missed:
            outcome.problem = "failed with every target met"
    status = "missed a target" if outcome.missed else "ok"
    status = f"crashed, {outcome.crash_note()}" if outcome.problem else f"{status} after {outcome.seconds:.0f} s"
    print(f"\n==== {name}: {status} ====", flush=True)
    return outcome


def summary(outcomes: list[Outcome], root: Path, quick: bool) -> str:
    rows = [(o.name, t, "PASS" if ok else "MISS", m) for o in outcomes for t, ok, m in o.targets]
    misses = sum(row[2] == "MISS" for row in rows)
    crashed = [o for o in outcomes if o.problem]
    table = markdown_table(["script", "target", "result", "measured"], rows)
    crashes = "\n".join(f"- **{o.name} crashed**: {o.crash_note()}" for o in crashed)
    totals = (f"{len(rows)} targets: {len(rows) - misses} PASS, {misses} MISS; "
              f"{len(crashed)} of {len(outcomes)} scripts crashed. Run time: "
              + ", ".join(f"{o.name} {o.seconds:.0f} s" for o in outcomes)
              + f"; total {sum(o.seconds for o in outcomes):.0f} s. Results: {root}")
    title = f"# Benchmark summary{' (--quick)' if quick else ''}"
    return "\n\n".join(part for part in (title, table, crashes, totals) if part)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="pass --quick to every script; results in a temporary "
                        "folder (or $FAIRACQ_BENCH_RESULTS)")
    parser.add_argument("--only", help=f"comma-separated scripts to run, of: {', '.join(SCRIPTS)}")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()] if args.only else list(SCRIPTS)
    unknown = sorted(set(names) - set(SCRIPTS))
    if unknown or not names:
        parser.error(f"unknown script(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(SCRIPTS)}")
    env = dict(os.environ)
    if args.quick and RESULTS_ENV not in env:
        env[RESULTS_ENV] = tempfile.mkdtemp(prefix="fairacq-bench-quick-")
    root = Path(env.get(RESULTS_ENV, results_root())).resolve()
    env[RESULTS_ENV] = str(root)  # the scripts run from the project root, wherever this was started
    print(f"results go to {root}", flush=True)
    outcomes = [run_script(name, args.quick, root, env) for name in SCRIPTS if name in names]
    text = summary(outcomes, root, args.quick)
    root.mkdir(parents=True, exist_ok=True)
    (root / "summary.md").write_text(text + "\n")
    print(f"\n{text}\n\nwritten to {root / 'summary.md'}", flush=True)
    if not args.quick and root == COMMITTED_RESULTS:
        subprocess.run([sys.executable, str(DOCS_SCRIPT)], cwd=ROOT, check=False)
    failed = any(o.problem or o.missed for o in outcomes)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
