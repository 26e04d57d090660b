"""Crawl correctness around navigation: a timer pending when the page
navigates away does not keep the crawl busy, and a download is ignored."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]

PAGES = {
    # A tag timer (3.5 s, inside the 4 s horizon) is pending when the page navigates away.
    "/nav-test/timer-a": ("<!doctype html><title>A</title><script>setTimeout(function () {}, 3500);"
                 "setTimeout(function () { location.href = '/nav-test/timer-b'; }, 50);</script><p>A</p>"),
    "/nav-test/timer-b": "<!doctype html><title>B</title><p>B, no timers</p>",
    # A click on an <a download> to an internal address (refused by the guard).
    "/nav-test/download": ("<!doctype html><title>download</title><a id=d download href='http://127.0.0.1:9/secret.bin'>"
                  "get</a><a id=e download href='/nav-test/file.bin'>file</a>"
                  "<script>document.getElementById('d').click();document.getElementById('e').click();</script>"
                  "<p>downloads</p>"),
    "/nav-test/file.bin": "binary",
}


@pytest.fixture
def pages(fixture_web):
    def route(host, path, query, method, body, headers, web):
        if path not in PAGES:
            return None
        kind = "application/octet-stream" if path.endswith(".bin") else "text/html"
        return 200, {"Content-Type": kind}, PAGES[path]

    previous, fixture_web.extra_route = fixture_web.extra_route, route
    yield fixture_web
    fixture_web.extra_route = previous


def test_a_timer_pending_at_navigation_does_not_hold_the_crawl(crawler, pages):
    from tagcrawl.engine.capture.hub import NetworkCapture

    quiet_results = []
    original = NetworkCapture.wait_quiet

    def recording(self, *args, **kwargs):
        quiet_results.append(original(self, *args, **kwargs))
        return quiet_results[-1]

    NetworkCapture.wait_quiet = recording
    try:
        report = crawler("https://shop.example/nav-test/timer-a", config={"QUIET_CAP_MS": 60_000, "CRAWL_TIMEOUT_S": 60}).response
    finally:
        NetworkCapture.wait_quiet = original
    assert report["success"] is True, report["error"]
    assert pages.wait_for(lambda e: e["path"] == "/nav-test/timer-b")
    # Every quiet wait ended because the page went quiet, not at the cap or the deadline.
    assert quiet_results and all(quiet_results), quiet_results


def test_a_download_is_ignored_not_fatal(crawler, pages):
    report = crawler("https://shop.example/nav-test/download", config={"ALLOW_PRIVATE_TARGETS": False}).response
    assert report["success"] is True, report["error"]
    assert report["error"] is None
