# Set-up from nothing, then run: `make demo` (the main job) and `make test` (the test suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS ?= all,dev

.PHONY: install system demo test test-slow test-sweep test-pythons test-rl test-integrations lint bench clean

install: system $(STAMP)

# System packages (a headless JRE for ScienceWorld, Chromium's headless shell for WebArena, Chromium for the report
# check), only when missing.
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
	$(BIN)/python -m pytest -q -m "slow and not sweep" --durations=25

# Whole training splits that are built task by task (TextWorld's games, ScienceWorld's variations): one to three hours
# per id from a cold cache, minutes once the cache holds them. The first test of an id to read its 200 rows builds them
# all, so a test may take hours here (the suite's 10-minute limit would stop it).
test-sweep: install
	$(BIN)/python -m pytest -q -m sweep --timeout=21600 --durations=25

# Fresh venvs of the oldest and the newest supported Python (.venv-py<version>): every extra of `all` and `dev`
# installed from wheels, then the registry test and one id of every family solved by its expert.
PYTHONS ?= 3.10 3.13
test-pythons: system
	for version in $(PYTHONS); do sh scripts/test-python.sh $$version || exit 1; done

# TRL on our envs, with a tiny model built in the test (nothing downloaded): two GRPO steps on CPU, and two SFT steps
# of SFTTrainer on `agentgym-text demos` output for three families.
# Not in `make test`: the `trl` extra pulls torch (a CPU build, pinned in pyproject.toml).
test-rl: install
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m pip install -q -e ".[trl,openenv]"
	AGENTGYM_TEXT_RL_TESTS=1 TRL_EXPERIMENTAL_SILENCE=1 $(BIN)/python -m pytest -q tests/test_integrations_trl.py

# SkyRL's text env, the Inspect AI task, the verifiers v1 taskset (integrations/agentgym-vf) and the OpenEnv extra
# installed beside verifiers, in a venv of their own: those frameworks pin packages (mcp, openai, httpx) that the
# main venv does not need. Installs come from PyPI; the tests themselves reach nothing beyond 127.0.0.1.
INT_VENV := .venv-integrations
INT_STAMP := $(INT_VENV)/.installed
INT_TESTS := tests/test_integrations_skyrl.py tests/test_integrations_inspect.py tests/test_integrations_verifiers.py \
	tests/test_integrations_openenv.py::test_openenv_installs_cleanly_beside_verifiers

$(INT_STAMP): pyproject.toml integrations/agentgym-vf/pyproject.toml
	test -x $(INT_VENV)/bin/python || $(PYTHON) -m venv $(INT_VENV)
	$(INT_VENV)/bin/python -m pip install -q --upgrade pip
	$(INT_VENV)/bin/python -m pip install -q -e ".[openenv,skyrl,inspect,verifiers,webarena]" -e integrations/agentgym-vf \
		"pytest>=8" "pytest-timeout>=2"
	touch $(INT_STAMP)

test-integrations: system $(INT_STAMP)
	$(INT_VENV)/bin/python -m pytest -q -p no:cacheprovider $(INT_TESTS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: install
	$(BIN)/python benchmarks/throughput.py

clean:
	rm -rf $(VENV) $(INT_VENV) .venv-py* runs .pytest_cache
