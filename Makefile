# Two commands set everything up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo)

.PHONY: test test-slow bench install clean serve browser toolchain services ctest

toolchain:
	@if ! command -v gcc >/dev/null || [ ! -f '$(PY_INCLUDE)/Python.h' ] || \
		[ ! -f /usr/include/zlib.h ]; then \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y \
			--no-install-recommends gcc python3-dev zlib1g-dev; fi

# The native rules core (damiera._core, csrc/) is compiled by the build backend (setuptools)
# at `pip install`; an editable install puts it beside the sources in src/damiera/, and any
# change to csrc/ installs again. gcc, the Python headers and zlib's headers (the endgame
# files are deflated) come from Debian if missing.
NATIVE_SOURCES := $(wildcard csrc/*.c csrc/*.h)
PY_INCLUDE := $(shell $(PYTHON) -c "import sysconfig; print(sysconfig.get_paths()['include'])")

$(STAMP): pyproject.toml setup.py $(NATIVE_SOURCES) | toolchain
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev,postgres,queue,train]'
	touch $(STAMP)

install: $(STAMP)

# The C core's own test program (csrc/tests/*.c, test_core.c its main), built from the C units without
# Python (every unit but the binding, csrc/binding*.c) into build/: perft against the shared tables (../shared/
# beside the checkout; skipped with a message when missing), incremental against full hashing,
# a search. `make test` runs it first.
CORE_UNITS := $(filter-out csrc/binding%.c,$(wildcard csrc/*.c))
CORE_TEST := build/core_test
CFLAGS_CORE := -O2 -std=c11 -Wall -Wextra -Werror -Wno-missing-field-initializers

CORE_TEST_SOURCES := $(wildcard csrc/tests/*.c)

$(CORE_TEST): $(NATIVE_SOURCES) $(CORE_TEST_SOURCES) $(wildcard csrc/tests/*.h) | toolchain
	mkdir -p build
	gcc $(CFLAGS_CORE) -Icsrc -o $@ $(CORE_UNITS) $(CORE_TEST_SOURCES) -lm -lz

# The same program built with 128-bit board words (-DDAMIERA_WIDE, csrc/position.h): every rule
# set again, and the 12x12 ones (Canadian, Malaysian) that only this build can hold.
CORE_TEST_WIDE := build/core_test_wide

$(CORE_TEST_WIDE): $(NATIVE_SOURCES) $(CORE_TEST_SOURCES) $(wildcard csrc/tests/*.h) | toolchain
	mkdir -p build
	gcc $(CFLAGS_CORE) -DDAMIERA_WIDE -Icsrc -o $@ $(CORE_UNITS) $(CORE_TEST_SOURCES) -lm -lz

ctest: $(CORE_TEST) $(CORE_TEST_WIDE)
	$(CORE_TEST) ../shared/reference/perft.json
	$(CORE_TEST_WIDE) ../shared/reference/perft.json

# The browser tests drive Debian's Chromium through Playwright (never `playwright install`).
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	$(SUDO) apt-get update
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends chromium

browser: $(CHROMIUM)

# The tests start their own throw-away PostgreSQL cluster and Redis server (tests/services/),
# listening on Unix sockets in a temporary folder only, and stop them at the end; likewise
# nginx with the shipped configuration (deploy/nginx/) on free ports of 127.0.0.1, its
# certificate made with openssl. Debian's packages are installed when missing; the system
# services the packages would start are stopped and disabled, so nothing keeps port 80, 5432
# or 6379 (the tests never use them).
PG_INITDB := $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb))
REDIS_SERVER := $(firstword $(wildcard /usr/bin/redis-server))
NGINX := $(firstword $(wildcard /usr/sbin/nginx))
OPENSSL := $(firstword $(wildcard /usr/bin/openssl))

services:
	@if [ -z '$(PG_INITDB)' ] || [ -z '$(REDIS_SERVER)' ] || [ -z '$(NGINX)' ] \
			|| [ -z '$(OPENSSL)' ]; then \
		$(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y \
			--no-install-recommends postgresql redis-server nginx openssl || exit 1; \
		for s in postgresql redis-server nginx; do \
			if [ -d /run/systemd/system ]; then $(SUDO) systemctl disable --now $$s; \
			else $(SUDO) service $$s stop; fi >/dev/null 2>&1 || true; \
		done; fi

# DAMIERA_TEST_SERVICES=required: a test that needs PostgreSQL or Redis fails, not skips,
# when it cannot start them.
test: ctest $(STAMP) $(CHROMIUM) services
	DAMIERA_TEST_SERVICES=required $(PY) -m pytest -q

# The web site on http://127.0.0.1:8000 (games in DAMIERA_DATABASE_URL, default ./var/).
DAMIERA_DATABASE_URL ?= sqlite:///var/damiera.sqlite3
serve: $(STAMP)
	DAMIERA_DATABASE_URL='$(DAMIERA_DATABASE_URL)' $(VENV)/bin/damiera serve

test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

bench: $(STAMP)
	$(PY) benchmarks/perft_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/damiera/_core.*.so src/damiera/_core_wide.*.so
