"""Every setting is documented in the README and takes effect somewhere in the code."""

from __future__ import annotations

import re
from pathlib import Path

from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    missing = [name for name in Settings.model_fields if f"FAIRACQ_{name.upper()}" not in readme]
    assert not missing, f"README.md does not document: {missing}"


def test_every_setting_is_read_somewhere():
    sources = [p.read_text() for p in (ROOT / "service").rglob("*.py")]
    # A setting's own declaration ("name: type = ...") does not count as a use.
    code = "\n".join(re.sub(r"(?m)^    \w+: .*$", "", text) for text in sources)
    unused = [name for name in Settings.model_fields if not re.search(rf"\.{name}\b", code)]
    assert not unused, f"settings that no code reads: {unused}"
