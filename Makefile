# Quick start: `make play` (install and play a game) and `make test` (install and run every test).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test lint install-test bench clean catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.play-installed: $(BIN)/python pyproject.toml src/sorry/__init__.py scripts/install-play.sh
	@bash scripts/install-play.sh $(BIN)/python
	@touch $@

$(VENV)/.test-installed: $(BIN)/python pyproject.toml src/sorry/__init__.py scripts/install-test-deps.sh package.json package-lock.json
	bash scripts/install-test-deps.sh $(BIN)/python
	touch $@

# The computer players' rollouts are compiled ahead of time when they are not built for these
# sources (after installing or updating: one to three minutes, announced; nothing otherwise).
play: $(VENV)/.play-installed
	@$(BIN)/sorry compile --if-needed
	@$(BIN)/sorry play $(ARGS)

install-test: $(VENV)/.test-installed

# Two test processes (pytest-xdist): about half the time of one on a two-core machine.
# `make test PYTEST_ARGS=` runs them in one process, `PYTEST_ARGS="-n 4"` in four.
PYTEST_ARGS ?= -n 2

test: $(VENV)/.test-installed
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/mypy
	npx --no-install tsc --noEmit -p tsconfig.json
	npx --no-install eslint src/sorry/web/static
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python benchmarks/bench_engine.py

# Re-extract the messages and merge them into every catalog (then translate what is new:
# docs/i18n.md). Needs Babel (the i18n extra).
catalogs:
	mkdir -p build
	$(BIN)/pybabel extract -F babel.cfg -k N_ --no-location --sort-output \
		--project=sorry-engine -o build/sorry.pot src/sorry
	$(BIN)/pybabel update -i build/sorry.pot -d src/sorry/locale -D sorry \
		--no-fuzzy-matching --ignore-obsolete

clean:
	rm -rf $(VENV) build dist src/*.egg-info
