"""Shared fixtures: the offline fixture web, real Chrome, real PostgreSQL.

- ``fixture_web``: session-wide FixtureWeb (every host -> 127.0.0.1).
- ``pg``: session-wide throw-away PostgreSQL cluster.
- ``app``: the app on PostgreSQL (migrated with Alembic), tables emptied
  after each test; browser settings point Chrome at the fixture web.
- ``client``/``runner``: from pytest-flask and Flask.
- ``api_key``: a fresh key for the crawl API.

With ``TAGCRAWL_REQUIRE_ALL=1`` (CI) a missing Chrome or PostgreSQL is an
error; otherwise those tests are skipped.
"""
from __future__ import annotations

import os
import shutil

import pytest

from tagcrawl import create_app
from tagcrawl.extensions import db

from .pgserver import PgServer, pg_bin
from .web.server import FixtureWeb
from tests.config import settings

REQUIRE_ALL = os.environ.get("TAGCRAWL_REQUIRE_ALL") == "1"


def _missing(what: str):
    if REQUIRE_ALL:
        pytest.fail(f"{what} is required (TAGCRAWL_REQUIRE_ALL=1) but not installed")
    pytest.skip(f"{what} not installed")


@pytest.fixture(scope="session")
def fixture_web():
    web = FixtureWeb().start()
    yield web
    web.stop()


@pytest.fixture(scope="session")
def pg():
    if pg_bin() is None:
        _missing("PostgreSQL")
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


def browser_config(web: FixtureWeb, tmp_path) -> dict:
    """Settings that point Chrome at the fixture web."""
    if not (shutil.which("chromium") or shutil.which("google-chrome")) or not shutil.which("chromedriver"):
        _missing("Chromium/ChromeDriver")
    return {"CHROME_ARGS": web.chrome_args(), "ALLOW_PRIVATE_TARGETS": True, "QUIET_MS": 400,
            "SCREENSHOT_DIR": str(tmp_path / "shots"), "POOL_SIZE": 2}


@pytest.fixture
def app(_migrated, fixture_web, tmp_path):
    config = {"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True, "ALLOW_PRIVATE_TARGETS": True,
              "CHROME_ARGS": fixture_web.chrome_args(), "QUIET_MS": 400,
              "SCREENSHOT_DIR": str(tmp_path / "shots"), "POOL_SIZE": 2}
    app = create_app(config)
    yield app
    from tagcrawl.crawl.background import stop_background

    stop_background()
    with app.app_context():
        db.session.remove()
        tables = ", ".join(t.name for t in db.metadata.sorted_tables)
        with db.engine.begin() as conn:
            conn.exec_driver_sql(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        db.engine.dispose()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def api_key(app):
    from tagcrawl.apikeys import create_key

    with app.app_context():
        _row, key, _secret = create_key("tests")
    return key


@pytest.fixture
def browser(fixture_web, tmp_path):
    """Marks a test as needing Chrome (skips, or fails in CI, without it)."""
    return browser_config(fixture_web, tmp_path)


@pytest.fixture
def crawler(browser):
    """``crawler(url, **options) -> CrawlOutcome``: run_crawl without HTTP or DB."""
    from tagcrawl.crawl.service import run_crawl

    app = create_app(dict(browser, SQLALCHEMY_DATABASE_URI="sqlite://"))

    def crawl(url, rules=None, config=None, **options):
        merged = dict(app.config, **(config or {}))
        return run_crawl(settings(merged), {"url": url, "session_id": None, "options": options or None,
                                  "validationRules": rules})

    return crawl


@pytest.fixture
def private_pool(browser):
    """``private_pool(**settings) -> config`` whose browsers form their own pool,
    shut down at the end of the test (so other tests' pools are not disturbed)."""
    from tagcrawl.browser.pool import get_pool

    configs = []

    def make(**settings):
        marker = f"--tagcrawl-test-pool={len(configs)}-{id(configs)}"
        config = dict(browser, CHROME_ARGS=browser["CHROME_ARGS"] + [marker], **settings)
        configs.append(config)
        return config

    yield make
    for config in configs:
        get_pool(settings(config)).shutdown()


@pytest.fixture(scope="session")
def npm_packages():
    """The pinned npm fixture packages (``make npm-fixtures``); skips, or fails
    in CI, when they are not installed.  Returns ``tests.web.npm_cdn``."""
    from .web import npm_cdn

    if not npm_cdn.installed():
        _missing("npm fixture packages (make npm-fixtures)")
    return npm_cdn
