# `make test` and `make demo` each bootstrap .venv, so both work on a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

demo: $(STAMP)
	$(BIN)/tilecast demo

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python benchmarks/replay_corpus.py

clean:
	rm -rf $(VENV) build *.egg-info
