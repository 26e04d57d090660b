"""Session fixtures shared by every test group (tests/unit, tests/db, tests/browser).

- ``fixture_web``: session-wide FixtureWeb (every host -> 127.0.0.1).
- ``pg``: session-wide throw-away PostgreSQL cluster; ``pg_url`` its test
  database; ``_migrated`` that database upgraded with Alembic.
- ``npm_packages``: the pinned npm fixture packages.

Group fixtures live in each group's conftest.py: ``app``/``runner``/``api_key``
for tests/db and tests/browser, ``browser``/``crawler``/``private_pool`` for
tests/browser.  With ``TAGCRAWL_REQUIRE_ALL=1`` (CI) a missing Chrome,
PostgreSQL or npm package is an error; otherwise those tests are skipped
(tests/support/needs.py).

Under pytest-xdist (``make test``: two workers) each worker has its own copy
of every session fixture; ``tests/support/parallel.py`` hands whole modules to
the workers and runs a test marked ``alone`` while no other test runs.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tagcrawl import create_app
from tagcrawl.core.extensions import db

from .support import parallel
from .support.needs import missing
from .support.pgserver import PgServer, pg_bin
from .support.web.server import FixtureWeb

ROOT = Path(__file__).parent.parent


def pytest_collection_modifyitems(items):
    parallel.split_for_workers(items, ROOT)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    with parallel.alone_lock(item.get_closest_marker("alone") is not None):
        return (yield)


@pytest.fixture(scope="session")
def fixture_web():
    web = FixtureWeb().start()
    yield web
    web.stop()


@pytest.fixture(scope="session")
def pg():
    if pg_bin() is None:
        missing("PostgreSQL")
    server = PgServer().start()
    yield server
    server.destroy()


@pytest.fixture(scope="session")
def pg_url(pg):
    return pg.create_database("tagcrawl_test")


@pytest.fixture(scope="session")
def _migrated(pg_url, tmp_path_factory):
    from flask_migrate import upgrade

    app = create_app({"SQLALCHEMY_DATABASE_URI": pg_url, "TESTING": True})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return pg_url


@pytest.fixture(scope="session")
def npm_packages():
    """The pinned npm fixture packages (``make npm-fixtures``); skips, or fails
    in CI, when they are not installed.  Returns ``tests.support.web.npm_cdn``."""
    from .support.web import npm_cdn

    if not npm_cdn.installed():
        missing("npm fixture packages (make npm-fixtures)")
    return npm_cdn
