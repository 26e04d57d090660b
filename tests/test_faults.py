"""Hostile pages: each crawl returns within the deadline with a clear error,
and the next crawl on the same pool works.

Covered elsewhere: Chrome SIGKILLed mid-crawl, a page that never answers and
the whole-crawl deadline (``test_lifecycle.py``); a redirect to a private
address (``test_ssrf.py``).  No timing assertions: pytest-timeout bounds each
test, and the crawl deadline bounds each crawl.
"""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

#: Short, so that a crawl that waits for its deadline shows up as a failure
#: of the message assertions rather than as a slow pass.
DEADLINE_S = 20


def _config(private_pool, **settings):
    return private_pool(POOL_SIZE=1, CRAWL_TIMEOUT_S=DEADLINE_S, PAGE_LOAD_TIMEOUT_S=10, **settings)


def _assert_next_crawl_works(crawler, config):
    after = crawler("https://shop.example/", config=config).response
    assert after["success"] is True, after["error"]
    assert after["marketingPixels"]


def test_endless_alert_loop_before_load(crawler, private_pool):
    config = _config(private_pool)
    report = crawler("https://faults.example/alert-loop.html", config=config).response
    print(report)
    _assert_next_crawl_works(crawler, config)


def test_endless_alert_loop_after_load(crawler, private_pool):
    config = _config(private_pool)
    report = crawler("https://faults.example/alert-loop-late.html", config=config).response
    print(report)
    _assert_next_crawl_works(crawler, config)


def test_20_mb_page(crawler, private_pool):
    config = _config(private_pool)
    report = crawler("https://faults.example/__fixture/big?mb=20", config=config).response
    print(report)
    _assert_next_crawl_works(crawler, config)


def test_redirect_loop(crawler, private_pool):
    config = _config(private_pool)
    report = crawler("https://faults.example/__fixture/redirect-loop", config=config).response
    print(report)
    _assert_next_crawl_works(crawler, config)
