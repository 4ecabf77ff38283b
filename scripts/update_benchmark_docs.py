"""Copy each benchmark's printed tables into docs/benchmarks.md between its markers.

    <!-- bench:group_sampling targets.md -->
    ...replaced by bench/results/group_sampling/targets.md...
    <!-- /bench -->

`python -m bench` runs this after a full run into bench/results/; after running one
script by hand: `.venv/bin/python scripts/update_benchmark_docs.py`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"
RESULTS = ROOT / "bench" / "results"
BLOCK = re.compile(r"(<!-- bench:(\S+) (\S+) -->\n)(.*?)(<!-- /bench -->)", re.S)


def main() -> int:
    text = DOCS.read_text()

    def fill(match: re.Match[str]) -> str:
        path = RESULTS / match.group(2) / match.group(3)
        body = path.read_text().strip() + "\n" if path.exists() else f"_not yet run: {path.name}_\n"
        return match.group(1) + body + match.group(5)

    updated = BLOCK.sub(fill, text)
    DOCS.write_text(updated)
    name = DOCS.relative_to(ROOT)
    print(f"{name} updated" if updated != text else f"{name} already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
