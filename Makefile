# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup run test test-fast browser bench fuzz lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/perceptronlab demo

# Browser tests drive Debian's Chromium; install it when it is missing (root, as on CI).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

test: setup browser
	$(VENV)/bin/ruff check perceptronlab tests benchmarks
	$(PY) -m pytest -q

test-fast: setup
	$(PY) -m pytest -q -m "not browser and not slow"

bench: setup
	$(PY) -m benchmarks

# The fuzz tests with many more examples (the Hypothesis profile "fuzz" of tests/conftest.py).
fuzz: setup
	HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q -m fuzz

lint: setup
	$(VENV)/bin/ruff check perceptronlab tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
