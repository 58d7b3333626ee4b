#!/usr/bin/env bash
# Installs everything the whole test suite needs into the given Python's environment:
# every optional extra, the test tools, and (in CI) the system packages some tests drive.
set -euo pipefail
PY=${1:-.venv/bin/python}
"$PY" -m pip install --quiet -e ".[all,test]"
# Web server tests: the Starlette TestClient's HTTP client (httpx2), Playwright's Python package
# (its own browser download does not work here) and Debian's chromium for the browser tests.
"$PY" -m pip install --quiet "httpx2>=2" "playwright>=1.45" "pytest-timeout>=2.3"
# The hints' rollouts compiled ahead of time (sorry.compiled.aot; tests/test_compiled_aot.py builds
# them again if the sources changed since).
"$PY" -m sorry compile
# The install-profile tests play each documented install on a terminal (tmux).
if [ "$(id -u)" = "0" ] && ! command -v tmux >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux
fi
if [ "$(id -u)" = "0" ] && [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi
# The catalogs are checked by GNU gettext's msgfmt --check (tests/test_i18n.py), from Debian.
if ! command -v msgfmt >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext
fi
# The browser game's scripts are checked by TypeScript's checker and ESLint (package.json, at
# the versions of package-lock.json); Node.js and npm come from Debian when they are missing.
if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi
npm ci --no-audit --no-fund --loglevel=error
