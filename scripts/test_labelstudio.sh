#!/usr/bin/env bash
# The real-Label-Studio test (tests/labelstudio): Label Studio and label-studio-sdk come from PyPI
# into a virtualenv of their own (.venv-labelstudio; their pinned Django stack stays out of .venv),
# with fairacq installed there too (extras dev, labelstudio, labelstudio-test). Label Studio runs on
# SQLite in a temporary folder. Without FAIRACQ_REQUIRE_LABELSTUDIO=1 a missing install skips.
# `--prepare`: install the virtualenv's requirements (not fairacq) and stop.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=.venv-labelstudio
start=$(date +%s)
if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --upgrade pip
fi
if [ "${1:-}" = "--prepare" ]; then
  # CI runs this beside `make test`, which builds fairacq's editable install in this tree meanwhile:
  # install only what fairacq requires here (PyPI's packages), not fairacq itself.
  "$VENV/bin/python" -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]
print("\n".join(p["dependencies"] + [r for e in ("dev", "labelstudio", "labelstudio-test")
                                      for r in p["optional-dependencies"][e]]))' >"$VENV/requirements.txt"
  "$VENV/bin/pip" install --quiet -r "$VENV/requirements.txt"
  echo "Label Studio's virtualenv prepared in $(( $(date +%s) - start )) s"
  exit 0
fi
if [ ! -f "$VENV/.installed" ] || [ pyproject.toml -nt "$VENV/.installed" ]; then
  "$VENV/bin/pip" install --quiet -e ".[dev,labelstudio,labelstudio-test]"
  touch "$VENV/.installed"
fi
echo "Label Studio's virtualenv ready in $(( $(date +%s) - start )) s"
OMP_NUM_THREADS=1 "$VENV/bin/python" -m pytest -q -s -p no:cacheprovider tests/labelstudio "$@"
echo "labelstudio stage finished in $(( $(date +%s) - start )) s"
