# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-installs when pyproject.toml changes.
STAMP := $(VENV)/.installed

.PHONY: setup chromium run test lint bench clean

setup: $(STAMP) chromium

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]' --config-settings editable_mode=compat  # a plain path entry: starts faster
	@touch $(STAMP)

# The app's end-to-end test drives Debian's Chromium: browsers cannot be downloaded here.
chromium:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		(apt-get update && apt-get install -y chromium chromium-driver)

# The app, on http://127.0.0.1:8501 (settings in .streamlit/config.toml).
run: setup
	$(BIN)/streamlit run app.py

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m mypy --strict engine
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check .

bench: setup
	$(BIN)/python benchmarks/bench_deadwood.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
