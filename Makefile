# Set-up from nothing, then run: `make demo` (the main job) and `make test` (the test suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= all,dev

.PHONY: install system demo test test-slow test-rl lint bench clean

install: system $(STAMP)

# System packages (a headless JRE for ScienceWorld, Chromium for WebArena and the report check), only when missing.
system:
	sh scripts/install-system.sh

# The venv's bin goes first on PATH: some engines (fast-downward-textworld, under textworld) build from source
# with a `python` subprocess that must be the venv's.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m pip install -q --upgrade pip
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m pip install -q -e ".[$(EXTRAS)]"
	touch $(STAMP)

demo: install
	$(BIN)/agentgym-text demo

test: install
	$(BIN)/python -m pytest -q --durations=25

test-slow: install
	$(BIN)/python -m pytest -q -m slow --durations=25

# TRL's GRPOTrainer on our envs (two GRPO steps on CPU with a tiny model built in the test; nothing downloaded).
# Not in `make test`: the `trl` extra pulls torch (a CPU build, pinned in pyproject.toml).
test-rl: install
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m pip install -q -e ".[trl,openenv]"
	AGENTGYM_TEXT_RL_TESTS=1 TRL_EXPERIMENTAL_SILENCE=1 $(BIN)/python -m pytest -q tests/test_integrations_trl.py

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: install
	$(BIN)/python benchmarks/throughput.py

clean:
	rm -rf $(VENV) runs .pytest_cache
