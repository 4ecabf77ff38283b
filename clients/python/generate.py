"""Regenerate ``fairacq_client/_generated`` from ``openapi/openapi.json`` (``make client``).

openapi-python-client writes the typed functions and models; nothing in ``_generated`` is
edited by hand. ``python clients/python/generate.py [TARGET]`` writes them into TARGET
(default: the package's own ``_generated``); tests/e2e/test_sdk.py regenerates into a
temporary folder and compares, so a spec change without ``make client`` fails there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEC = HERE.parents[1] / "openapi" / "openapi.json"
TARGET = HERE / "fairacq_client" / "_generated"
# The generator's messages that say it dropped or skipped part of the spec.
PROBLEM_PREFIXES = ("WARNING", "Unable to", "Failure to process", "Cannot parse")


def generate(target: Path = TARGET, spec: Path = SPEC) -> list[str]:
    """Generate the package into ``target`` (replaced whole); returns the generator's warnings."""
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "config.yaml"
        # No formatter (offline, and the output is stable); a PNG is read as bytes, as files are.
        config.write_text("post_hooks: []\ncontent_type_overrides:\n  image/png: application/octet-stream\n")
        out = Path(tmp) / "package"
        command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
                   "--output-path", str(out), "--meta", "none", "--config", str(config)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, NO_COLOR="1", TERM="dumb"))
        output = done.stdout + done.stderr
        if done.returncode != 0:
            raise RuntimeError(output)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(out, target, ignore=shutil.ignore_patterns("__pycache__"))
    return [line.strip() for line in output.splitlines() if line.strip().startswith(PROBLEM_PREFIXES)]


if __name__ == "__main__":
    warnings = generate(Path(sys.argv[1]) if len(sys.argv) > 1 else TARGET)
    print("\n".join(warnings) or "generated without warnings")
    sys.exit(1 if warnings else 0)
