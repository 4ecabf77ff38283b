"""Copy each benchmark's printed tables into README.md between its markers.

    <!-- bench:group_sampling targets.md -->
    ...replaced...
    <!-- /bench -->

Run after `make bench` (or one script) so the README shows the figures as printed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- bench:(\S+) (\S+) -->\n)(.*?)(<!-- /bench -->)", re.S)


def main() -> int:
    readme = ROOT / "README.md"
    text = readme.read_text()

    def fill(match: re.Match[str]) -> str:
        path = ROOT / "bench" / "results" / match.group(2) / match.group(3)
        body = path.read_text().strip() + "\n" if path.exists() else f"_not yet run: {path.name}_\n"
        return match.group(1) + body + match.group(5)

    updated = BLOCK.sub(fill, text)
    readme.write_text(updated)
    print("README.md updated" if updated != text else "README.md already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
