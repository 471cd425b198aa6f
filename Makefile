# holotable developer entry points. Everything installs itself into .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# One stamp per set of extras: `make play` needs only the web server, `make test` the tools as well.
PLAY_STAMP := $(VENV)/.installed-server
DEV_STAMP  := $(VENV)/.installed-dev
# Extra options for the web app, e.g. `make play SERVE_ARGS="--port 8080"`.
SERVE_ARGS ?=

.PHONY: play terminal test services lint typecheck bench clean venv

venv: $(DEV_STAMP)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "holotable needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install whenever the project metadata changes.
$(PLAY_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server]'
	@touch $@

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,server]'
	@touch $@ $(PLAY_STAMP)

## play: the web app on this machine (embedded SQLite database); it prints the address to open
play: $(PLAY_STAMP)
	$(BIN)/holotable serve $(SERVE_ARGS)

## terminal: Captain Black in the terminal, you against three bots
terminal: $(PLAY_STAMP)
	$(BIN)/holotable play captain-black --players 4 --humans 1 --bots heuristic,heuristic,random

## services: Chromium and PostgreSQL for the browser and database tests (apt-get when root)
services:
	@bash scripts/ensure-test-services.sh

## test: lint, type-check and the whole test suite, browser and PostgreSQL tests included
test: $(DEV_STAMP) services
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest -n auto -q

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

## bench: the performance figures in docs/performance.md (needs the bench extra)
bench: $(DEV_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
