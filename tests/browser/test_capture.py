"""Capture in every target, POST bodies, and event-driven waiting (real Chrome)."""
from __future__ import annotations

import time

import pytest
from tests.support.config import settings

pytestmark = pytest.mark.browser


def accounts(outcome):
    return {(h.vendor_key, h.account_id) for h in outcome.hits}


def test_pixels_in_same_site_and_cross_site_iframes_are_captured(crawler):
    outcome = crawler("https://frames.example/")
    assert outcome.response["success"] is True
    found = accounts(outcome)
    assert ("pinterest", "2612345678901") in found
    assert ("facebook", "111122223333444") in found  # fired inside an out-of-process iframe
    meta = next(h for h in outcome.hits if h.account_id == "111122223333444")
    assert meta.frame_url == "https://widget.example/frame.html"
    pixel = next(p for p in outcome.response["marketingPixels"] if p["account_id"] == "111122223333444")
    assert pixel["page"] == "https://widget.example/frame.html"


def test_post_bodies_beacon_form_and_batched_xhr(crawler):
    outcome = crawler("https://beacon.example/")
    found = accounts(outcome)
    assert ("tiktok", "CBEACON0000000000001") in found  # JSON body sent with sendBeacon
    assert ("snapchat", "a1b2c3d4-1111-2222-3333-444455556666") in found  # form body only
    tiktok = next(h for h in outcome.hits if h.vendor_key == "tiktok")
    assert tiktok.transport == "ping" and tiktok.method == "POST"
    ga4_events = [h.event for h in outcome.hits if h.account_id == "G-BATCH12345"]
    assert sorted(ga4_events) == ["page_view", "scroll"]  # one hit per line of the batch
    assert [p["account_id"] for p in outcome.response["marketingPixels"]].count("G-BATCH12345") == 1


def test_requests_from_dedicated_and_service_workers(crawler, fixture_web):
    outcome = crawler("https://workers.example/")
    assert not [e for e in fixture_web.log if "sw_error" in e["query"]], "service worker did not register"
    found = accounts(outcome)
    assert ("google_analytics", "G-WORKER1234") in found
    assert ("facebook", "222233334444555") in found


def test_tag_injected_late_is_caught(crawler):
    outcome = crawler("https://late.example/")
    assert ("facebook", "333344445555666") in accounts(outcome)


def test_pixel_sent_on_a_set_intervals_first_tick_is_caught_before_quiet_ends(crawler):
    """An SDK queue flushed on a recurring timer's first tick (800 ms after load, only
    while the page is visible): the interval holds the quiet wait until that tick (the
    pixel leaves before the wait ends, not by luck during the consent or flush phases);
    its later ticks do not hold it (the crawl succeeds)."""
    outcome = crawler("https://interval.example/")
    assert outcome.response["success"] is True
    timings = outcome.timings
    created_epoch_ms = time.time() * 1000 - (time.monotonic() - timings.created) * 1000
    [hit] = [h for h in outcome.hits if h.account_id == "818181818181818"]
    quiet_ended_ms = timings.starts["quiet"] + timings.phases["quiet"]  # ms from the crawl's start
    assert hit.timestamp - created_epoch_ms < quiet_ended_ms, timings.summary()


def test_tag_loaded_after_an_xhr_is_caught(crawler):
    outcome = crawler("https://xhr.example/")
    assert ("tiktok", "CXHRGATED00000000001") in accounts(outcome)


def test_never_finishing_keepalive_request_does_not_hold_the_crawl(crawler):
    outcome = crawler("https://keepalive.example/")
    assert outcome.response["success"] is True
    assert ("facebook", "444455556666777") in accounts(outcome)


def test_quiet_page_wait_ends_on_quiet_not_on_the_cap(browser):
    """The wait returns because the page went quiet (True), not because the cap hit."""
    from tagcrawl.engine.capture.hub import NetworkCapture
    from tagcrawl.engine.chrome.pool import get_pool
    from tagcrawl.engine.chrome.session import CrawlSession

    with get_pool(settings(browser)).browser() as handle:
        capture = NetworkCapture()
        with CrawlSession(handle, capture) as session:
            session.driver.get("https://plain.example/")
            assert capture.wait_quiet(300, 60_000) is True


def test_datalayer_pushes_are_recorded(crawler):
    outcome = crawler("https://shop.example/", byPassConsent=False)
    rules = [{"rule_id": "0b0f8f5e-8a4a-4d3e-9a43-5f1b3b6c7d01", "vendor": "any", "key": "ecommerce.currency",
              "value": "EUR", "condition": "OR", "rule_type": "DataLayer"}]
    assert outcome.response["success"] is True
    checked = crawler("https://shop.example/", rules=rules, byPassConsent=False)
    assert checked.response["validationResults"] == [{"rule_id": rules[0]["rule_id"], "success": True}]


def test_a_failing_collector_costs_its_part_and_the_report_says_so(crawler, monkeypatch):
    from tagcrawl.engine.collectors import DataLayerCollector

    def broken(self, ctx):
        raise RuntimeError("instrument bug")

    monkeypatch.setattr(DataLayerCollector, "get_data", broken)
    outcome = crawler("https://frames.example/")
    assert outcome.response["success"] is True
    assert ("pinterest", "2612345678901") in accounts(outcome)  # the other collectors' parts are there
    assert outcome.response["message"] == ("incomplete report: the datalayer collector failed (get_data), "
                                           "its part is missing")
