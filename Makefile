# tagcrawl: `make demo` and `make test` do all the set-up on a fresh Debian machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_STAMP := $(VENV)/.apt-updated

.PHONY: demo test test-unit test-quick install install-dev system-browser system-postgres system-grid system-node npm-fixtures npm-service system-bench bench clean

$(APT_STAMP):
	mkdir -p $(VENV)
	$(SUDO) apt-get update -qq
	touch $@

# Chromium and ChromeDriver come from the OS packages.
system-browser:
	@if ! command -v chromedriver >/dev/null || ! { command -v chromium >/dev/null || command -v google-chrome >/dev/null; }; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver; fi

# PostgreSQL and Redis server binaries for the tests (the tests start their own
# PostgreSQL cluster and Redis server on free loopback ports).
system-postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql; fi
	@if ! command -v redis-server >/dev/null; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server; fi

# Selenium Grid for tests/browser/test_remote_grid.py: the Selenium 4 server jar from
# npm (the package ships the jar; --ignore-scripts skips its install script,
# which would download it again from GitHub), and Java to run it.
GRID_VERSION := 4.20.0
GRID_JAR := $(VENV)/grid/node_modules/@nightwatch/selenium-server/lib/selenium-server-$(GRID_VERSION).jar
system-grid:
	@if ! command -v java >/dev/null; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq default-jre-headless; fi
	@$(MAKE) system-node
	@if [ ! -f $(GRID_JAR) ]; then \
	  npm install --prefix $(VENV)/grid --ignore-scripts --no-audit --no-fund @nightwatch/selenium-server@$(GRID_VERSION); fi

# Node.js and npm, for the Grid jar and the npm fixture packages.
system-node:
	@if ! command -v npm >/dev/null; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq npm; fi

# The vendors' and CMP authors' own published code for the fixture pages,
# pinned in tests/support/web/npm/package.json and package-lock.json, served by the
# fixture web as a public npm CDN would (tests/support/web/npm_cdn.py).  Install
# scripts are skipped: only the published files are needed.
NPM_DIR := tests/support/web/npm
$(NPM_DIR)/node_modules/.package-lock.json: $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	@$(MAKE) system-node
	cd $(NPM_DIR) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@
npm-fixtures: $(NPM_DIR)/node_modules/.package-lock.json

# The service's own npm data (third-party-web entities, autoconsent rules and
# content script), pinned in npm/package.json and package-lock.json; read at
# run time from npm/node_modules (TAGCRAWL_NPM_DIR elsewhere, docs/deploy.md).
npm/node_modules/.package-lock.json: npm/package.json npm/package-lock.json
	@$(MAKE) system-node
	cd npm && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@
npm-service: npm/node_modules/.package-lock.json

$(VENV)/.installed: requirements.txt setup.cfg
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -r requirements.txt
	$(PIP) install -q --no-deps -e .
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(PIP) install -q -r requirements-dev.txt
	touch $@

install: system-browser $(VENV)/.installed npm-service
install-dev: install system-postgres system-grid npm-fixtures $(VENV)/.installed-dev

# Starts the service on the embedded SQLite default, crawls the bundled demo
# shop (served offline by the fixture web) through the HTTP API, prints the
# report and stops the service.
demo: install
	$(PY) -m tests.support.web.demo

# Every test group (tests/unit, tests/db, tests/browser), as CI runs it, on
# TEST_WORKERS pytest-xdist workers (whole modules per worker, heaviest first:
# tests/support/parallel.py; TEST_WORKERS=0 runs in one process).
TEST_WORKERS ?= 2
XDIST = $(if $(filter 0,$(TEST_WORKERS)),-p no:xdist,-n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder)
test: install-dev
	$(VENV)/bin/lint-imports
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

# The quick inner loop: tests/unit needs neither Chrome nor PostgreSQL; its property and
# deadline tests over 0.3 s are marked slow and run in `make test`.
test-unit: $(VENV)/.installed-dev npm-fixtures
	$(PY) -m pytest tests/unit -m "not slow" $(PYTEST_ARGS)

# Every group without the tests marked slow (see docs/testing.md).
test-quick: install-dev
	$(PY) -m pytest -m "not slow" $(PYTEST_ARGS)

# wrk drives the stream throughput bench.
system-bench:
	@if ! command -v wrk >/dev/null; then \
	  $(MAKE) $(APT_STAMP) && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wrk; fi

# Benchmarks (not tests): crawl latency/throughput/memory, then stream ingestion
# throughput against a trivial endpoint.  Figures are in docs/benchmarks.md.
bench: install-dev system-bench
	$(PY) -m bench.crawl_bench
	$(PY) bench/stream_throughput.py --duration 10 --rounds 5

clean:
	rm -rf $(VENV) instance .pytest_cache .hypothesis
