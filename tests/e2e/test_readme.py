"""The README's worked example, executed with bash, curl and jq against a live server.

Every ```bash block of the "A worked example" section runs, in order, in one
shell (so the variables it sets carry over). A command followed directly by
``# …`` lines shows its output; the test compares what the command printed
with it:

- JSON is compared as a pattern: objects need the keys shown (others may exist),
  lists need the items shown, and ``…`` as the last item allows more; a string
  ``"…"`` matches any string and ``"abc…"`` any string starting with ``abc``;
  a number matches at the precision it is written with (0.429 matches 0.42857).
- Anything else is compared as text.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import JOB_SETTINGS
from tests.live import serve

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## A worked example"
ELLIPSIS = "…"
MORE = object()  # a list pattern's "and more"
STEP_MARK = "@@readme-step@@"


@dataclass(frozen=True)
class Step:
    command: str
    expected: str | None
    line: int


def example_steps(text: str) -> list[Step]:
    """The section's commands and the outputs shown under them, in order."""
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    lines = text[start:end if end != -1 else len(text)].splitlines()
    first_line = text[:start].count("\n") + 1
    steps: list[Step] = []
    in_block, command, expected, at = False, [], [], 0

    def close() -> None:
        if command:
            steps.append(Step("\n".join(command), " ".join(expected) or None, at))
        command.clear()
        expected.clear()

    for number, line in enumerate(lines, start=first_line):
        if line.startswith("```"):
            close()
            in_block = line.strip() == "```bash"
            continue
        if not in_block:
            continue
        if line.startswith("#"):
            if command:
                expected.append(line[1:].strip())
            continue
        if expected or not command or not command[-1].endswith(("\\", "'", ",", "[", "{")) and not _open(command):
            close()
            at = number
        command.append(line)
    close()
    return steps


def _open(command: list[str]) -> bool:
    """Whether the command so far has an unterminated single-quoted string (a multi-line -d '…')."""
    return "\n".join(command).count("'") % 2 == 1


def _pattern(text: str) -> Any:
    text = re.sub(r",\s*…\s*\]", ', "@@more@@"]', text)
    text = re.sub(r"\[\s*…\s*\]", '["@@more@@"]', text)
    text = re.sub(r",\s*…\s*\}", "}", text)
    text = re.sub(r"\{\s*…\s*\}", "{}", text)
    return json.loads(text, parse_float=Decimal, object_pairs_hook=dict)


def mismatches(pattern: Any, actual: Any, path: str = "$") -> list[str]:
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        problems = []
        for key, value in pattern.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing")
            else:
                problems += mismatches(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(pattern, list):
        more = bool(pattern) and pattern[-1] == "@@more@@"
        items = pattern[:-1] if more else pattern
        if not isinstance(actual, list) or len(actual) < len(items) or (not more and len(actual) != len(items)):
            return [f"{path}: expected {len(items)}{'+' if more else ''} items, got {actual!r}"]
        return [p for i, item in enumerate(items) for p in mismatches(item, actual[i], f"{path}[{i}]")]
    if isinstance(pattern, str):
        if pattern == ELLIPSIS:
            return [] if isinstance(actual, str) else [f"{path}: expected a string, got {actual!r}"]
        if pattern.endswith(ELLIPSIS):
            ok = isinstance(actual, str) and actual.startswith(pattern[:-1])
        else:
            ok = actual == pattern
        return [] if ok else [f"{path}: expected {pattern!r}, got {actual!r}"]
    if isinstance(pattern, Decimal):
        digits = -pattern.as_tuple().exponent  # type: ignore[operator]
        ok = isinstance(actual, int | float) and not isinstance(actual, bool) and \
            abs(float(actual) - float(pattern)) <= 0.5 * 10.0 ** -digits + 1e-12
        return [] if ok else [f"{path}: expected {pattern} (to {digits} decimals), got {actual!r}"]
    if isinstance(pattern, bool) or pattern is None:
        return [] if actual is pattern else [f"{path}: expected {pattern!r}, got {actual!r}"]
    if isinstance(pattern, int):
        ok = isinstance(actual, int | float) and not isinstance(actual, bool) and actual == pattern
        return [] if ok else [f"{path}: expected {pattern!r}, got {actual!r}"]
    raise TypeError(f"unexpected pattern {pattern!r}")


def compare(expected: str, output: str) -> list[str]:
    try:
        pattern = _pattern(expected)
    except json.JSONDecodeError:
        return [] if output.strip() == expected.strip() else [f"expected {expected!r}, got {output!r}"]
    try:
        actual = json.loads(output)
    except json.JSONDecodeError:
        return [f"expected JSON like {expected}, got {output!r}"]
    return mismatches(pattern, actual)


def test_the_pattern_rules_can_fail():
    assert compare('{"a": 0.429, "b": [1, …]}', '{"a": 0.42857, "b": [1, 2], "c": 3}') == []
    assert compare('{"a": 0.43}', '{"a": 0.42}') and compare('{"b": [1]}', '{"b": [1, 2]}')
    assert compare('{"id": "…", "s": "ab…"}', '{"id": "x", "s": "abc"}') == []
    assert compare('{"s": "ab…"}', '{"s": "xab"}') and compare('{"missing": 1}', '{}')


def test_the_example_is_parsed_into_commands_with_outputs():
    steps = example_steps(README.read_text())
    shown = [s for s in steps if s.expected]
    assert len(steps) >= 20 and len(shown) >= 10
    assert all("localhost:8000" in s.command or "$" in s.command for s in steps)


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="needs curl and jq on PATH")
def test_the_readme_example_runs_and_shows_real_outputs(database_url, tmp_path):
    steps = example_steps(README.read_text())
    with serve(database_url, tmp_path / "server.log", workers=1, env=JOB_SETTINGS) as server:
        script = "set -euo pipefail\n" + "".join(
            f"echo '{STEP_MARK}{i}'\n{s.command.replace('localhost:8000', f'localhost:{server.port}')}\n"
            for i, s in enumerate(steps))
        done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    outputs = done.stdout.split(STEP_MARK)[1:]
    assert done.returncode == 0 and len(outputs) == len(steps), (
        f"the example stopped at step {len(outputs) - 1} (README line {steps[len(outputs) - 1].line}): "
        f"{done.stderr[-2000:]}")
    problems = []
    for step, output in zip(steps, outputs, strict=True):
        printed = output.split("\n", 1)[1] if "\n" in output else ""
        if step.expected is not None:
            problems += [f"README line {step.line}: {p}" for p in compare(step.expected, printed)]
    assert not problems, "\n".join(problems)
