# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup run test test-fast browser js bench fuzz lint dist docs clean coverage

# uv (from PyPI) installs the extras' two hundred packages side by side: about 35 s where pip took
# minutes on a fresh clone; the same versions. pip does it where uv cannot be had.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	($(PY) -m pip install -q uv && $(VENV)/bin/uv pip install -q --python $(PY) -e '.[all]') \
	  || ($(PY) -m pip install -q --upgrade pip && $(PY) -m pip install -q -e '.[all]')
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/perceptronlab demo
	@$(PY) -m perceptronlab.cli._warm  # the compiled kernels cached: the first `train` does not compile

# Browser tests drive Debian's Chromium; install it when it is missing (root, as on CI).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# The lab page's JavaScript checks (ESLint) from the npm registry, as package.json pins them.
js: node_modules/.installed-stamp
node_modules/.installed-stamp: package.json
	npm install --no-audit --no-fund --silent
	touch $@

# pytest on every core (pytest-xdist; WORKERS=1 for one process), the kernels compiled into Numba's
# cache first so that the workers load them instead of each compiling them; each test module runs
# on one worker (--dist loadfile), so that a module's costly set-up (a browser, JupyterLab, the docs
# site's build, the installed wheel) is done once. (--dist loadgroup would spread the cheap modules
# finer, but with pytest 9.2 it ignores its groups: pytest-xdist issue 1386.)
WORKERS ?= auto
# `make test`'s start, for the wall time it prints at the end (set when make reads this file)
TEST_START := $(shell date +%s)

# Python may keep its bytecode while the tests run, even where the environment says not to
# (PYTHONDONTWRITEBYTECODE, as in some containers): each module is then compiled once, not again in
# each of the few hundred Python processes the tests start (workers, commands, servers, the docs).
test test-fast coverage: export PYTHONDONTWRITEBYTECODE :=

# The kernels compile into Numba's cache while lint runs: those of a first command and every path
# the tests take, float64 in one process and float32 in another (so that the test workers load them
# instead of each compiling them), then the JavaScript and Python tests.
test: setup browser js
	@$(PY) -m perceptronlab.cli._warm --every-kernel=float64 & wide=$$!; \
	$(PY) -m perceptronlab.cli._warm --no-commands --every-kernel=float32 & narrow=$$!; \
	$(MAKE) --no-print-directory lint; linted=$$?; wait $$wide; w1=$$?; wait $$narrow; w2=$$?; \
	test $$linted -eq 0 -a $$w1 -eq 0 -a $$w2 -eq 0
	node --test tests/js/
	$(PY) -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder --durations=25; status=$$?; \
	echo "make test took $$(( $$(date +%s) - $(TEST_START) )) s on $$(nproc) cores."; exit $$status

# Every test again under coverage.py, then the coverage module by module. Not part of `make test`:
# tracing every line costs the pure-Python tests about 1.8 times their CPU (measured on the exam,
# class and dimension tests), and `make test` keeps to ten minutes on two cores.
coverage: setup browser js
	$(PY) -m perceptronlab.cli._warm
	$(PY) -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder --cov --cov-report=; status=$$?; \
	echo "Test coverage: $$($(PY) -m coverage report --format=total)% of perceptronlab's lines."; \
	$(PY) -m coverage report --skip-covered --sort=cover; exit $$status

test-fast: setup
	$(PY) -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder -m "not browser and not slow"

bench: setup
	$(PY) -m benchmarks --passes 2

# The fuzz tests with many more examples (the Hypothesis profile "fuzz" of tests/conftest.py; over
# 100,000 inputs), under a 4 GiB address-space cap, each input under a 60 s deadline; a loaded
# machine may pass e.g. PERCEPTRONLAB_FUZZ_SCALE=0.25 for a quarter of the inputs.
fuzz: setup
	ulimit -v 4194304 && HYPOTHESIS_PROFILE=fuzz $(PY) -m pytest -q -m fuzz --hypothesis-show-statistics

# The documentation site, offline, warnings as errors, every example executed: docs/_build/html/index.html
docs: setup js
	$(PY) -m sphinx -W --keep-going -q -b html docs docs/_build/html

# ESLint on the lab page's modules, ruff, the import contracts of pyproject.toml (the layers of docs/architecture.md), and mypy
# (strict on the modules of the public API; its configuration is in pyproject.toml too)
lint: setup js
	node_modules/.bin/eslint perceptronlab/web/static tests/js eslint.config.js
	$(VENV)/bin/ruff format --check perceptronlab tests benchmarks examples docs/conf.py docs/api_examples.py docs/figure_scraper.py
	$(VENV)/bin/ruff check perceptronlab tests benchmarks examples docs/conf.py docs/api_examples.py docs/figure_scraper.py
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# The sdist and the wheel in dist/ (the wheel built from the sdist), checked by twine.
dist: setup
	rm -rf dist
	$(PY) -m build --outdir dist .
	$(VENV)/bin/twine check --strict dist/*

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .coverage docs/_build docs/auto_examples docs/api/generated docs/gen_modules
