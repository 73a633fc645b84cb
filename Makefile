# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-installs when pyproject.toml changes.
STAMP := $(VENV)/.installed

.PHONY: setup run test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Until the app exists (issue 5), `make run` shows the command line at work.
run: setup
	@echo '$$ ginsight hand 4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C'
	@$(BIN)/ginsight hand 4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C
	@echo
	@echo '$$ ginsight showdown --knocker "5S 6S 7S 9C TC JC KS KC KD JD" --defender "2S 8S 9S AC 2C 7C 8C 2D 8D 2H"'
	@$(BIN)/ginsight showdown --knocker "5S 6S 7S 9C TC JC KS KC KD JD" --defender "2S 8S 9S AC 2C 7C 8C 2D 8D 2H"

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check .

bench: setup
	$(BIN)/python benchmarks/bench_deadwood.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
