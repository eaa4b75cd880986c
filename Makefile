# Two commands set everything up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo)

# The hot paths, compiled in place with mypyc (2.5-3x the search speed): see `compile`.
HOT_MODULES := damiera/rules/variant.py damiera/rules/geometry.py damiera/rules/position.py \
	damiera/engine/evaluate.py damiera/engine/search.py
MYPYC_DIR := build/mypyc
COMPILED := $(MYPYC_DIR)/compiled.stamp
COMPILED_SO := src/*__mypyc.*.so $(addprefix src/,$(HOT_MODULES:.py=.*.so))

.PHONY: test test-slow bench install compile pure clean serve browser toolchain

toolchain:
	@if ! command -v gcc >/dev/null || [ ! -f '$(PY_INCLUDE)/Python.h' ]; then \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y \
			--no-install-recommends gcc python3-dev; fi

# The native rules core (damiera._core, csrc/) is compiled by the build backend (setuptools)
# at `pip install`; an editable install puts it beside the sources in src/damiera/, and any
# change to csrc/ installs again. gcc and the Python headers come from Debian if missing.
NATIVE_SOURCES := $(wildcard csrc/*.c csrc/*.h)
PY_INCLUDE := $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_paths()['include'])")

$(STAMP): pyproject.toml $(NATIVE_SOURCES) | toolchain
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(COMPILED)

# mypyc writes each hot module's .so beside its .py and one shared *__mypyc.*.so in src/ (on
# the editable install's path); Python imports a .so in preference to the .py beside it.
# Editing a hot module makes the stamp out of date, so the next make command recompiles.
# mypyc always puts its C files and objects in ./build: a fresh src/build each time (so every
# .so is rebuilt, newer than its .py), removed afterwards; its mypy cache goes to build/mypyc.
# The old .so files are deleted first, never overwritten: a running process (`make serve`)
# keeps the file it has loaded.
$(COMPILED): $(STAMP) pyproject.toml $(addprefix src/,$(HOT_MODULES))
	rm -rf src/build $(MYPYC_DIR) $(COMPILED_SO)
	mkdir -p $(MYPYC_DIR)
	cd src && MYPY_CACHE_DIR=$(abspath $(MYPYC_DIR))/mypy_cache $(abspath $(VENV))/bin/mypyc \
		$(HOT_MODULES) || { rm -rf build; echo "mypyc failed: the Python sources run until it compiles" >&2; exit 1; }
	rm -rf src/build
	touch $@

compile: $(COMPILED)

# Back to the Python sources: deletes the compiled modules (the next `make test`, `make serve`
# ... compiles again).
pure:
	rm -f $(COMPILED_SO) $(COMPILED)

# The browser tests drive Debian's Chromium through Playwright (never `playwright install`).
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	$(SUDO) apt-get update
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends chromium

browser: $(CHROMIUM)

test: $(COMPILED) $(CHROMIUM)
	$(PY) -m pytest -q

# The web site on http://127.0.0.1:8000 (games in DAMIERA_DATABASE_URL, default ./var/).
DAMIERA_DATABASE_URL ?= sqlite:///var/damiera.sqlite3
serve: $(COMPILED)
	DAMIERA_DATABASE_URL='$(DAMIERA_DATABASE_URL)' $(VENV)/bin/damiera serve

test-slow: $(COMPILED)
	$(PY) -m pytest -q -m slow

bench: $(COMPILED)
	$(PY) benchmarks/perft_bench.py

clean: pure
	rm -rf $(VENV) .pytest_cache .hypothesis build
