# The two commands of README.md: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: install serve test lint typecheck test-pure-yaml web bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server,test,bench]'
	@# Python 3.11's venv comes with setuptools, whose .pth hook runs in every process
	@# (2.6M instructions, 1.5 % of a small lint); nothing here needs it at run time (builds
	@# get their own in an isolated environment), and 3.12's venvs have none.
	$(PY) -m pip uninstall -q -y setuptools
	touch $@

install: $(VENV)/.installed

serve: install web
	$(PY) -m cfgpatch serve

lint: install
	$(PY) -m ruff check src tests benchmarks scripts

# PYTHONDONTWRITEBYTECODE is set on the CI machines: without byte-compiled files every
# subprocess the tests start (the CLI, kubectl comparisons) would compile cfgpatch again.
# pytest-xdist runs the tests on every core (TEST_WORKERS=1 for one process); the tests of a
# module with a browser, server or wheel fixture stay on one worker (tests/conftest.py).
TEST_WORKERS ?= auto
PYTEST := $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup
LIBYAML_USERS := .pytest-libyaml-users

test: install lint typecheck web
	$(PY) -m compileall -q -x '/web/static/' src
	rm -f $(LIBYAML_USERS).*
	CFGPATCH_LIBYAML_USERS=$(CURDIR)/$(LIBYAML_USERS) $(PYTEST)
	$(MAKE) --no-print-directory test-pure-yaml

# mypy on all of src/ (configured in pyproject.toml: strict on the core modules)
typecheck: install
	$(PY) -m mypy

# The tests again on PyYAML's pure-Python path (libyaml switched off; the page and texts
# that are not plain ASCII always take that path).  libyaml has one caller
# (kube/io/kyaml_read.py), so after `make test` only the test files that reached it, or
# started cfgpatch in a child process, run again (tests/libyaml_users.py); without that
# record, every test does.
test-pure-yaml: install
	@files="$$(cat $(LIBYAML_USERS).* 2>/dev/null | sort -u)"; \
	echo "pure-Python YAML: $$(echo $$files | wc -w) test files (0 = all of tests/)"; \
	CFGPATCH_NO_LIBYAML=1 $(PYTEST) -p no:cacheprovider $${files:-tests}

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache

# The patch tester page (web/, docs/web.md): npm ci, then bundle + Pyodide + packed Python into
# src/cfgpatch/web/static/. Rebuilt only when its inputs change (build.json is the stamp).
WEB_STAMP := src/cfgpatch/web/static/build.json
WEB_INPUTS := web/package-lock.json web/build.mjs web/pack_python.py web/precompile.mjs web/snapshot.mjs $(wildcard web/src/*.*) $(wildcard web/src/panels/*) $(wildcard web/src/modes/*) \
	$(shell find src/cfgpatch \( -name '*.py' -o -name '*.json' -o -name '*.tsv' \) \
		-not -path '*/web/static/*' -not -path '*/__pycache__/*' 2>/dev/null)

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

$(WEB_STAMP): web/node_modules/.installed $(WEB_INPUTS) | install
	cd web && PYTHON=$(CURDIR)/$(PY) node build.mjs

web: $(WEB_STAMP)
	@$(PY) web/pack_python.py --check src/cfgpatch/web/static/py || \
		(cd web && PYTHON=$(CURDIR)/$(PY) node build.mjs)
