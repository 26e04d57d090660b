"""Each crawl runs in a fresh browser context: nothing leaks between crawls."""
from __future__ import annotations

from urllib.parse import parse_qs

import pytest

pytestmark = pytest.mark.browser


def test_same_page_twice_gives_the_same_cookies_before(crawler):
    first = crawler("https://shop.example/").response
    second = crawler("https://shop.example/").response
    assert first["success"] and second["success"]
    assert first["cookiesBefore"] == second["cookiesBefore"]
    assert second["button"]["consent_banner"] is True  # consent from the first crawl is gone


def test_page_a_then_page_b_never_reports_a_on_b(crawler):
    a = crawler("https://shop.example/").response
    b = crawler("https://plain.example/").response
    assert a["marketingPixels"] and a["cookiesAfter"] > 0
    assert b["marketingPixels"] == []
    assert b["cookiesBefore"] == 0 and b["cookiesAfter"] == 0


def test_storage_service_workers_and_cache_do_not_survive_a_crawl(crawler, fixture_web):
    crawler("https://workers.example/")
    crawler("https://workers.example/check.html")
    report = fixture_web.wait_for(lambda e: e["host"] == "workers.example" and "state=1" in e["query"])
    state = {k: v[0] for k, v in parse_qs(report["query"]).items()}
    assert state == {"state": "1", "sw": "0", "caches": "0", "ls": "none", "cookie": "none"}
