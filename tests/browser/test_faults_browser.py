"""Fault tests, hostile pages (Chrome): each crawl ends with ``success: false``
and an error that says what happened, and the next crawl on the same pool
works.  No timing assertions: pytest-timeout bounds each test, the crawl
deadline each crawl.  Covered elsewhere: Chrome SIGKILLed mid-crawl, a page
that never answers and the whole-crawl deadline (``test_lifecycle.py``); a
redirect to a private address (``test_ssrf.py``); PostgreSQL stopped during
ingestion (``tests/db/test_stream_ingest.py``).  Hostile bodies:
tests/db/test_faults.py.
"""
from __future__ import annotations

import pytest

#: Room for a slow machine; the error assertions fail if a crawl only stops at its deadline.
DEADLINE_S = 40


def _pool(private_pool, **settings):
    return private_pool(POOL_SIZE=1, CRAWL_TIMEOUT_S=DEADLINE_S, PAGE_LOAD_TIMEOUT_S=15, **settings)


def _failed_with(crawler, config, url: str, expected: str) -> None:
    report = crawler(url, config=config).response
    assert report["success"] is False, report
    assert report["error"]["error"] is True
    assert expected in report["error"]["message"], report["error"]["message"]
    assert "deadline" not in report["error"]["message"]
    after = crawler("https://shop.example/", config=config).response
    assert after["success"] is True, after["error"]
    assert after["marketingPixels"]


@pytest.mark.browser
@pytest.mark.timeout(180)
@pytest.mark.parametrize("page", ["alert-loop.html", "alert-loop-late.html"])
def test_endless_alert_loop(crawler, private_pool, page):
    """alert()/confirm()/prompt() for ever, while parsing or after load."""
    _failed_with(crawler, _pool(private_pool), f"https://faults.example/{page}",
                 "the page keeps opening JavaScript dialogs")


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_20_mb_page_is_stopped_at_the_size_cap(crawler, private_pool):
    from tagcrawl.core.settings import load_settings

    assert load_settings({}).page_max_bytes == 10 * 1024 * 1024
    _failed_with(crawler, _pool(private_pool), "https://faults.example/__fixture/big?mb=20",
                 "page larger than 10 MB: loading stopped")


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_page_under_the_size_cap_is_crawled(crawler, private_pool):
    report = crawler("https://faults.example/__fixture/big?mb=2", config=_pool(private_pool)).response
    assert report["success"] is True, report["error"]


@pytest.mark.browser
@pytest.mark.timeout(180)
def test_redirect_loop(crawler, private_pool, fixture_web):
    _failed_with(crawler, _pool(private_pool), "https://faults.example/__fixture/redirect-loop",
                 "navigation failed: net::ERR_TOO_MANY_REDIRECTS")
    hops = [e for e in fixture_web.log if e["host"] == "faults.example" and e["path"] == "/__fixture/redirect-loop"]
    assert 2 <= len(hops) <= 25  # Chrome gives up after 20 redirects
