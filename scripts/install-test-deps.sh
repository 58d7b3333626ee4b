#!/usr/bin/env bash
# Installs everything the whole test suite needs into the given Python's environment:
# every optional extra, the test tools, and (in CI) the system packages some tests drive.
set -euo pipefail
PY=${1:-.venv/bin/python}
"$PY" -m pip install --quiet -e ".[all,test]"
