#!/usr/bin/env bash
# `make play`'s install: the game with its full-screen interface and the compiled engine (the
# cli and fast extras), into the given Python's environment. Where the compiled engine does not
# install (no numba for this Python or machine), the game is installed without it: it then says
# on screen that the expert plays weaker and that hints and the analysis are rough.
set -uo pipefail
PY=${1:-.venv/bin/python}
start=$SECONDS
echo "Installing the game and its compiled engine into $(dirname "$(dirname "$PY")") (once)..."
if ! "$PY" -m pip install --quiet -e ".[cli,fast]"; then
  echo "The compiled engine (numba) does not install here: installing the game without it."
  "$PY" -m pip install --quiet -e ".[cli]" || exit 1
fi
echo "Installed in $((SECONDS - start)) s."
