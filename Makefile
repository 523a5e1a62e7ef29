# rattle: the two commands of the README. Each bootstraps its own virtualenv (.venv).
#   make run   the quick suite on the embedded default model, offline
#   make test  the test suite
# llama-cpp-python builds from source on first install (about 8 minutes on 2 cores); pip keeps
# the built wheel in its cache, so later installs on the same machine take seconds.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
EXTRAS := embedded,nlp,dev

.PHONY: run test bench lint typecheck clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	CMAKE_BUILD_PARALLEL_LEVEL=2 $(PIP) install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/rattle run

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/overhead.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench

typecheck: $(STAMP)
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .rattle runs
