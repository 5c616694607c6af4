# The two commands of README.md: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: install serve test lint typecheck test-pure-yaml web bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server,test,bench]'
	touch $@

install: $(VENV)/.installed

serve: install web
	$(PY) -m cfgpatch serve

lint: install
	$(PY) -m ruff check src tests benchmarks scripts

# PYTHONDONTWRITEBYTECODE is set on the CI machines: without byte-compiled files every
# subprocess the tests start (the CLI, kubectl comparisons) would compile cfgpatch again.
test: install lint typecheck web
	$(PY) -m compileall -q -x '/web/static/' src
	$(PY) -m pytest -q
	$(MAKE) --no-print-directory test-pure-yaml

# mypy on all of src/ (configured in pyproject.toml: strict on the core modules)
typecheck: install
	$(PY) -m mypy

# The YAML-reading tests again on PyYAML's pure-Python path (libyaml switched off; the
# page and texts that are not plain ASCII always take that path).
PURE_YAML_TESTS := tests/test_kube_io_*.py tests/test_kube_go_yaml.py tests/test_kube_kustomize*.py \
	tests/test_kube_kyaml*.py tests/test_cli_kube_build.py tests/test_lint_*.py
test-pure-yaml: install
	CFGPATCH_NO_LIBYAML=1 $(PY) -m pytest -q -p no:cacheprovider $(PURE_YAML_TESTS)

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
