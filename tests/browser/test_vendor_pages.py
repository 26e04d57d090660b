"""Vendor tags through real Chrome (issue #4): each vendor's own snippet, hits
over every transport, look-alikes that must not be reported, first-party
collection and script-URL ids.  ``GET /api/v1/vendors``: tests/db/test_vendors_endpoint.py.

Pages come from ``tests/support/vendor_pages.py`` (rendered by
``tests/support/web/snippet_pages.py``).  The module-scoped ``pages`` fixture crawls
every page once, two at a time (the pool has two browsers), and the tests read
the cached outcomes.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from tagcrawl import create_app
from tagcrawl.engine.vendors import find_vendor

from .conftest import browser_config
from tests.support.vendor_pages import (
    BEACONS_BY_VENDOR, FIRST_PARTY, LOOKALIKE_CONTROL, LOOKALIKES, LOOKALIKES_URL, MATRIX, SCRIPT_IDS,
    SCRIPT_IDS_URL, SNIPPETS, all_urls, expected_type, request_for, transport_url,
)

browser = pytest.mark.browser


@pytest.fixture(scope="module")
def pages(fixture_web, tmp_path_factory):
    """``pages(url) -> CrawlOutcome``: every page of ``all_urls()`` crawled once."""
    from tagcrawl.crawl.service import run_crawl
    from tagcrawl.core.settings import settings_of

    settings = browser_config(fixture_web, tmp_path_factory.mktemp("vendor-pages"))
    config = settings_of(create_app(dict(settings, SQLALCHEMY_DATABASE_URI="sqlite://")))

    def crawl(url):
        return run_crawl(config, {"url": url, "session_id": None, "options": None, "validationRules": None})

    executor = ThreadPoolExecutor(2, thread_name_prefix="vendor-pages")
    futures = {url: executor.submit(crawl, url) for url in all_urls()}

    def outcome(url):
        result = futures[url].result()
        assert result.response["success"] is True, result.response["error"]
        return result

    yield outcome
    executor.shutdown(wait=True, cancel_futures=True)


def _core(pixel):
    """A MarketingPixel without its ``warnings`` (issue 19; checked in test_vendor_ids.py)."""
    return {k: pixel[k] for k in ("vendor", "account_id", "page")}


def accounts(outcome):
    return {(h.vendor_key, h.account_id) for h in outcome.hits}


def describe(hits):
    return [(h.vendor_key, h.account_id, h.event, h.transport, h.method, h.url[:80]) for h in hits]


# -- 1. the vendors' own snippets ------------------------------------------------------

@browser
@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda s: s.vendor)
def test_vendor_snippet_is_reported(pages, snippet):
    outcome = pages(snippet.url)
    name = find_vendor(snippet.vendor).name
    pixels = outcome.response["marketingPixels"]
    assert {"vendor": name, "account_id": snippet.account, "page": snippet.url} in map(_core, pixels), pixels
    assert {p["vendor"] for p in pixels} == {name}, "another vendor was reported on a one-tag page"
    ours = [h for h in outcome.hits if h.vendor_key == snippet.vendor]
    assert any(h.transport == "script" for h in ours), "the tag library load was not recognised"
    sent = [(h.event, h.transport) for h in ours if h.account_id == snippet.account]
    assert (snippet.event, snippet.transport) in sent, describe(ours)


# -- 2. transports ---------------------------------------------------------------------

@browser
@pytest.mark.parametrize("vendor, transport", MATRIX)
def test_hit_over_transport(pages, vendor, transport):
    beacon = BEACONS_BY_VENDOR[vendor]
    outcome = pages(transport_url(transport))
    hits = [h for h in outcome.hits if h.vendor_key == vendor]
    method = request_for(beacon, transport)[0]
    assert [(h.account_id, h.event, h.transport, h.method) for h in hits] == [
        (beacon.account, beacon.event, expected_type(beacon, transport), method)], describe(hits)


@browser
def test_json_post_preflights_are_not_hits(pages):
    outcome = pages(transport_url("json"))
    assert not [h for h in outcome.hits if h.method == "OPTIONS"]
    assert all(p["account_id"] for p in outcome.response["marketingPixels"])


# -- 3. look-alikes ----------------------------------------------------------------------

MALFORMED_ON_PAGE = [c for c in LOOKALIKES if c.sent is not None]


@browser
@pytest.mark.parametrize("case", [c for c in LOOKALIKES if c.sent is None], ids=lambda c: c.name)
def test_lookalike_is_not_reported(pages, fixture_web, case):
    outcome = pages(LOOKALIKES_URL)
    with fixture_web.lock:
        sent = [e for e in fixture_web.log if case.marker in e["url"]]
    assert sent, "the look-alike request never left the page"
    assert not [h for h in outcome.hits if case.marker in h.url], describe(outcome.hits)
    others = [h for h in outcome.hits if not any(m.marker in h.url for m in MALFORMED_ON_PAGE)]
    assert case.vendor not in {h.vendor_key for h in others}


@browser
@pytest.mark.parametrize("case", MALFORMED_ON_PAGE, ids=lambda c: c.name)
def test_malformed_id_is_reported_as_sent_and_flagged(pages, case):
    """Issue 19: a real pixel request with a malformed id is reported, flagged (it used to be dropped)."""
    outcome = pages(LOOKALIKES_URL)
    [hit] = [h for h in outcome.hits if case.marker in h.url]
    assert (hit.vendor_key, hit.account_id) == (case.vendor, case.sent) and hit.warnings, describe([hit])
    pixel = next(p for p in outcome.response["marketingPixels"] if p["account_id"] == case.sent)
    assert pixel["warnings"] == list(hit.warnings)


@browser
def test_lookalike_page_reports_only_its_real_pixel_and_the_flagged_ones(pages):
    outcome = pages(LOOKALIKES_URL)
    reported = [(p["vendor"], p["account_id"], bool(p["warnings"])) for p in outcome.response["marketingPixels"]]
    assert sorted(reported) == sorted(
        [(find_vendor(LOOKALIKE_CONTROL.vendor).name, LOOKALIKE_CONTROL.account, False)]
        + [(find_vendor(c.vendor).name, c.sent, True) for c in MALFORMED_ON_PAGE])


# -- 4. first-party collection ---------------------------------------------------------

@browser
@pytest.mark.parametrize("setup", FIRST_PARTY, ids=lambda f: f.name)
def test_first_party_collection_is_reported(pages, setup):
    outcome = pages(setup.url)
    collected = [h for h in outcome.hits if urlsplit(h.url).hostname == setup.collect_host
                 and urlsplit(h.url).path.startswith(setup.collect_path)]
    assert [(h.vendor_key, h.account_id, h.event) for h in collected] == [
        (setup.vendor, setup.account, setup.event)], describe(outcome.hits)
    assert (find_vendor(setup.vendor).name, setup.account) in {
        (p["vendor"], p["account_id"]) for p in outcome.response["marketingPixels"]}


# -- 6. ids in script URLs -------------------------------------------------------------

@browser
@pytest.mark.parametrize("vendor, account, script", SCRIPT_IDS, ids=[v for v, _a, _s in SCRIPT_IDS])
def test_script_url_alone_reports_the_pixel(pages, vendor, account, script):
    outcome = pages(SCRIPT_IDS_URL)
    hits = [h for h in outcome.hits if h.vendor_key == vendor]
    assert [(h.account_id, h.transport, h.url) for h in hits] == [(account, "script", script)], describe(hits)
    assert {"vendor": find_vendor(vendor).name, "account_id": account, "page": SCRIPT_IDS_URL} in \
        map(_core, outcome.response["marketingPixels"])


@browser
def test_script_ids_page_fires_nothing(pages):
    outcome = pages(SCRIPT_IDS_URL)
    assert accounts(outcome) == {(v, a) for v, a, _s in SCRIPT_IDS}
    assert {h.transport for h in outcome.hits} == {"script"}
