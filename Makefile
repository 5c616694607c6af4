# The two commands of README.md: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: install serve test lint web bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[server,test,bench]'
	touch $@

install: $(VENV)/.installed

serve: install
	$(PY) -m cfgpatch serve

lint: install
	$(PY) -m ruff check src tests benchmarks scripts

test: install lint
	$(PY) -m pytest -q

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache
