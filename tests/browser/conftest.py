"""tests/browser: needs Chrome (and often PostgreSQL).  Every test here is
marked ``browser``.

- ``browser``: settings pointing Chrome at the fixture web (skips, or fails in
  CI, without Chrome).
- ``crawler(url, **options) -> CrawlOutcome``: ``run_crawl`` without HTTP or DB.
- ``private_pool(**settings) -> config``: a browser pool of the test's own.
- ``app``/``runner``/``api_key``: as in tests/db.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tagcrawl import create_app
from tests.support.app_fixtures import api_key, app, runner  # noqa: F401 - fixtures
from tests.support.chrome import browser_config
from tests.support.config import settings
from tests.support.needs import mark_folder

HERE = Path(__file__).parent


def pytest_collection_modifyitems(items):
    mark_folder(items, HERE, "browser")


@pytest.fixture
def browser(fixture_web, tmp_path):
    """Marks a test as needing Chrome (skips, or fails in CI, without it)."""
    return browser_config(fixture_web, tmp_path)


@pytest.fixture
def crawler(browser):
    """``crawler(url, **options) -> CrawlOutcome``: run_crawl without HTTP or DB; ``links=True``: the
    crawl of an audit page (the internal ``COLLECT_LINKS`` request key)."""
    from tagcrawl.crawl.service import COLLECT_LINKS, run_crawl

    app = create_app(dict(browser, SQLALCHEMY_DATABASE_URI="sqlite://"))

    def crawl(url, rules=None, config=None, links=False, **options):
        merged = dict(app.config, **(config or {}))
        request = {"url": url, "session_id": None, "options": options or None, "validationRules": rules}
        return run_crawl(settings(merged), {**request, COLLECT_LINKS: True} if links else request)

    return crawl


@pytest.fixture
def private_pool(browser):
    """``private_pool(**settings) -> config`` whose browsers form their own pool,
    shut down at the end of the test (so other tests' pools are not disturbed)."""
    from tagcrawl.engine.chrome.pool import get_pool

    configs = []

    def make(**settings):
        marker = f"--tagcrawl-test-pool={len(configs)}-{id(configs)}"
        config = dict(browser, CHROME_ARGS=browser["CHROME_ARGS"] + [marker], **settings)
        configs.append(config)
        return config

    yield make
    for config in configs:
        get_pool(settings(config)).shutdown()
