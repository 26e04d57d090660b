# tagcrawl: `make demo` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_STAMP := $(VENV)/.apt-updated

.PHONY: demo test install install-dev system-browser system-postgres bench clean

$(APT_STAMP):
	mkdir -p $(VENV)
	$(SUDO) apt-get update -qq
	touch $@

# Chromium and ChromeDriver come from the OS packages.
system-browser:
	@if ! command -v chromedriver >/dev/null || ! { command -v chromium >/dev/null || command -v google-chrome >/dev/null; }; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver; fi

# PostgreSQL server binaries for the tests (the tests start their own cluster).
system-postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql; fi

$(VENV)/.installed: requirements.txt setup.cfg
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements.txt
	$(PIP) install -q --no-deps -e .
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(PIP) install -q -r requirements-dev.txt
	touch $@

install: system-browser $(VENV)/.installed
install-dev: install system-postgres $(VENV)/.installed-dev

# Starts the service on the embedded SQLite default, crawls the bundled demo
# shop (served offline by the fixture web) through the HTTP API, prints the
# report and stops the service.
demo: install
	$(PY) -m tests.web.demo

test: install-dev
	$(PY) -m pytest $(PYTEST_ARGS)

bench: install-dev
	$(PY) -m bench.run_all

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis
