# Two commands set everything up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: test test-slow bench install clean serve browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

# The browser tests drive Debian's Chromium through Playwright (never `playwright install`).
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo)

$(CHROMIUM):
	$(SUDO) apt-get update
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends chromium

browser: $(CHROMIUM)

test: $(STAMP) $(CHROMIUM)
	$(PY) -m pytest -q

# The web site on http://127.0.0.1:8000 (games in DAMIERA_DATABASE_URL, default ./var/).
DAMIERA_DATABASE_URL ?= sqlite:///var/damiera.sqlite3
serve: $(STAMP)
	DAMIERA_DATABASE_URL='$(DAMIERA_DATABASE_URL)' $(VENV)/bin/damiera serve

test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

bench: $(STAMP)
	$(PY) benchmarks/perft_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
