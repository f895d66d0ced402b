# Balance lab: install, run, test.
# `make run` installs the project into .venv and runs the main experiment;
# `make test` installs the test extras and runs the whole suite;
# `make notebook` opens the walk-through notebook in JupyterLab (installed into .venv).

PY ?= python3
VENV := .venv
PYTHON := $(VENV)/bin/python
PIP := $(PYTHON) -m pip
SIM := $(VENV)/bin/sim

# Numba compiles on first use; keep the machine code on disk between runs.
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache
# Python's bytecode too, even where PYTHONDONTWRITEBYTECODE is set (as on CI; empty is unset):
# the suite and a run start many Python processes, and each would compile every module it
# imports (and pytest its rewritten test modules) from source again.
export PYTHONDONTWRITEBYTECODE :=
# Slow statistical tests run slimmed under `make test` (tests/conftest.py reads it).
SIM_SLOW_SCALE ?= 0.1
PYTEST_ARGS ?= -n 2 -q

# The accessibility check of the report page (tests/test_report_browser.py) runs axe-core, from
# the npm registry, in headless chromium. Without npm it is skipped locally (CI installs npm).
AXE_VERSION := 4.11.0
AXE := $(VENV)/node/node_modules/axe-core/axe.min.js

.PHONY: run test bench lint install clean axe notebook screenshots

# The venv itself (python + an up-to-date pip).
$(PYTHON):
	$(PY) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# No bytecode at install: pip would compile every installed file on one core (9,000 files, 28 s
# of CPU), where the lab imports about 2,000 of them; Python writes those on first import.
INSTALL = $(PIP) install --no-compile -e

# Runtime install; reinstalled only when pyproject.toml changes.
$(VENV)/.install-stamp: pyproject.toml | $(PYTHON)
	$(INSTALL) .
	touch $@

# Runtime + test extras (pytest, hypothesis, xdist, scipy, ruff).
$(VENV)/.test-stamp: pyproject.toml | $(PYTHON)
	$(INSTALL) '.[test]'
	touch $@

# Runtime + JupyterLab and ipywidgets (the progress bar's widget) for the example notebooks.
$(VENV)/.notebook-stamp: pyproject.toml | $(PYTHON)
	$(INSTALL) '.[notebook]'
	touch $@

install: $(VENV)/.install-stamp

$(AXE): | $(PYTHON)
	@if command -v npm >/dev/null 2>&1; then \
		npm install --prefix $(VENV)/node --no-save --no-audit --no-fund --loglevel=error \
			axe-core@$(AXE_VERSION); \
	else \
		echo "npm not found: the report's accessibility test will be skipped (apt-get install npm)"; \
	fi

axe: $(AXE)

run: $(VENV)/.install-stamp
	$(SIM) run experiments/missile_cost.yaml

# The walk-through (examples/notebooks/); its kernel, python3, is this venv's Python.
notebook: $(VENV)/.notebook-stamp
	$(VENV)/bin/jupyter lab examples/notebooks/walkthrough.ipynb

test: $(VENV)/.test-stamp $(AXE)
	SIM_SLOW_SCALE=$(SIM_SLOW_SCALE) $(PYTHON) -m pytest $(PYTEST_ARGS)

# Every installed game's bench (sim bench --game GAME), each writing bench/results-GAME.json.
bench: $(VENV)/.install-stamp
	for game in $$($(PYTHON) -c "from sim.plugins import game_names; print(*game_names())"); do \
		$(SIM) bench --game $$game || exit 1; \
	done

# The first screen of every shipped experiment's report (experiments/*.yaml and the example
# games'), each played small, shot at 1280 px in headless chromium: docs/screenshots/*.png.
screenshots: $(VENV)/.test-stamp
	$(PYTHON) -m tests.shipped --out docs/screenshots --work results/screenshots

lint: $(VENV)/.test-stamp
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis .numba_cache results bench/results-*.json \
		examples/notebooks/results
	find . -path ./.git -prune -o -name '*.egg-info' -type d -prune -exec rm -rf {} +
	find . -path ./.git -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
	if [ -d reports ]; then find reports -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +; fi
