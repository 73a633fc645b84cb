# Two commands do all set-up on a fresh machine: `make run` (the app alone) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Each re-installs when pyproject.toml changes.
APP_STAMP := $(VENV)/.installed-app
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: setup setup-dev chromium run test lint bench clean

setup: $(APP_STAMP)

# What reading photos and the app need: numpy, OpenCV, onnxruntime, Streamlit (no torch).
$(APP_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e . --config-settings editable_mode=compat  # a plain path entry: starts faster
	@touch $@

# The training extra (torch, through Ultralytics) and the tests'.
$(DEV_STAMP): $(APP_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train,test]' --config-settings editable_mode=compat
	@touch $@

setup-dev: $(DEV_STAMP) chromium

# The app's end-to-end test drives Debian's Chromium: browsers cannot be downloaded here.
chromium:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		(apt-get update && apt-get install -y chromium chromium-driver)

# The app, on http://127.0.0.1:8501 (settings in .streamlit/config.toml).
run: setup
	$(BIN)/streamlit run app.py

test: setup-dev
	$(BIN)/ruff check .
	$(BIN)/python -m mypy --strict engine
	$(BIN)/python -m pytest

lint: setup-dev
	$(BIN)/ruff check .

bench: setup-dev
	$(BIN)/python benchmarks/bench_deadwood.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
