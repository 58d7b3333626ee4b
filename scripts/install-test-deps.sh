#!/usr/bin/env bash
# Installs everything the whole test suite needs into the given Python's environment.
set -euo pipefail
PY=${1:-.venv/bin/python}
"$PY" -m pip install --quiet -e ".[test]"
