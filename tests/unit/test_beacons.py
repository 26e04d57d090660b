"""The generic beacon detector without Chrome (issue 27 item 2; tagcrawl/engine/beacons):
what a beacon is, what is not one, the catalog winning, the stable account id, the
gzip/base64 payloads read by the catalog's decoders, the bounds.  Through real Chrome:
tests/browser/test_long_tail.py."""
from __future__ import annotations

import base64
import gzip
import json
import time

import pytest

from tagcrawl.engine.beacons import HEURISTIC_PREFIX, detect
from tagcrawl.engine.beacons import detector, features
from tagcrawl.engine.parties import entities
from tagcrawl.engine.vendors import Request, match_requests

PAGE = "https://shop.example/product/7"
KEY = "wk_3f9a8c7d6e5b4a39"


def beacon(url, body=None, kind="fetch", method="POST", ts=1.0, headers=None):
    data = json.dumps(body) if isinstance(body, (dict, list)) else body
    return Request(url=url, method=method, post_data=data, resource_type=kind, frame_url=PAGE, timestamp=ts,
                   headers=headers or {})


def run(reqs, index=None, **kw):
    index = entities.load() if index is None else index
    return detect(reqs, match_requests(reqs), PAGE, index, time.monotonic() + 30, 10 ** 8, **kw)


def pixels(result):
    return {(h.vendor_key, h.account_id) for h in result.hits}


def test_a_tiny_first_party_vendor_sdk_is_found_with_its_stable_key():
    reqs = [beacon("https://collect.tinyvendor.example/v1/e",
                   {"writeKey": KEY, "type": "pageview", "context": {"page": {"url": PAGE}}, "id": f"evt-{i}"}, ts=i)
            for i in range(3)]
    result = run(reqs)
    assert pixels(result) == {(HEURISTIC_PREFIX + "tinyvendor.example", KEY)}
    assert [h.event for h in result.hits] == ["pageview"] * 3


def test_a_generic_id_that_changes_from_request_to_request_is_no_account():
    reqs = [beacon("https://collect.tinyvendor.example/hit", {"id": f"evt-{i}", "event": "click", "url": PAGE}, ts=i)
            for i in range(3)]
    assert run(reqs).hits == []


@pytest.mark.parametrize("where", ["query", "form", "gzip", "base64", "header", "image"])
def test_the_identifier_is_read_wherever_the_catalog_decoders_read(where):
    payload = {"app_key": KEY, "event": "page_view", "url": PAGE}
    if where == "query":
        req = beacon(f"https://t.longtail.example/i?app_key={KEY}&event=page_view&url={PAGE}", kind="image", method="GET")
    elif where == "form":
        req = beacon("https://t.longtail.example/i", f"app_key={KEY}&event=page_view&sr=1920x1080",
                     headers={"Content-Type": "application/x-www-form-urlencoded"}, kind="ping")
    elif where == "gzip":
        req = Request(url="https://t.longtail.example/i", method="POST", post_data=gzip.compress(json.dumps(payload).encode()),
                      resource_type="fetch", frame_url=PAGE, timestamp=1, headers={"Content-Encoding": "gzip"})
    elif where == "base64":
        data = base64.b64encode(json.dumps(payload).encode()).decode()
        req = beacon(f"https://t.longtail.example/i?data={data}", kind="image", method="GET")
    elif where == "header":
        req = beacon("https://t.longtail.example/i", {"event": "page_view", "url": PAGE}, headers={"X-Api-Key": KEY})
    else:
        req = beacon(f"https://t.longtail.example/p.gif?siteId={KEY}&dr=https://ref.example/&ua=Mozilla/5.0",
                     kind="image", method="GET")
    assert pixels(run([req])) == {(HEURISTIC_PREFIX + "longtail.example", KEY)}


@pytest.mark.parametrize("req", [
    beacon("https://fonts.gstatic.com/s/roboto/v30/x.woff2", kind="font", method="GET"),
    beacon("https://cdn.jsdelivr.net/npm/lib@1/dist/lib.min.js?key=abc12345&url=" + PAGE, kind="script", method="GET"),
    beacon("https://cdn.jsdelivr.net/npm/lib@1/config.json?key=abc12345&url=" + PAGE, method="GET"),
    beacon("https://api.widgets.example/v1/config?token=abc12345&url=" + PAGE, method="GET"),
    beacon("https://shop.example/api/cart?siteId=42&url=" + PAGE, method="GET"),
    beacon("https://images.cdn.example/img.png?id=abc12345&w=300", kind="image", method="GET"),
    beacon("https://api.longtail.example/search", {"query": "shoes", "apikey": "abc12345"}),
    beacon("https://api.longtail.example/e", {"event": "pageview", "url": PAGE}),
], ids=["font", "script", "json-config", "config-with-generic-key", "first-party-api", "cdn-image",
        "search-api", "no-identifier"])
def test_what_is_not_a_beacon(req):
    assert run([req]).hits == []


def test_chrome_own_requests_are_never_beacons():
    reqs = [Request(url=f"https://update.googleapis.com/service/update2/json?appid=abcdef12&event=check",
                    method="POST", resource_type="fetch", frame_url=PAGE),
            Request(url=f"https://t.longtail.example/i?app_key={KEY}&event=x", method="GET", resource_type="image",
                    frame_url="chrome://newtab/")]
    assert run(reqs).hits == []


def test_the_catalog_wins_on_its_requests_and_its_domains():
    ga = Request(url="https://www.google-analytics.com/g/collect?v=2&tid=G-ABC123XYZ9&en=page_view&dl=" + PAGE,
                 method="POST", resource_type="ping", frame_url=PAGE, timestamp=1)
    other = beacon(f"https://region1.google-analytics.com/x/y?api_key={KEY}&event=e&url={PAGE}", ts=2)
    assert match_requests([ga]) and run([ga, other]).hits == []


def test_the_organisation_comes_from_third_party_web_cdn_hosts_name_no_vendor_and_cmps_are_no_tags():
    index = entities.EntityIndex(loaded=True, exact={},
                                 wildcard={"longtail.example": entities.Entity("Longtail Stats", "Longtail Inc",
                                                                               "analytics"),
                                           "cloudfront.example": entities.Entity("Amazon CloudFront", "Amazon",
                                                                                 "cdn"),
                                           "cmp.example": entities.Entity("Some CMP", "CMP Inc", "consent-provider")})
    reqs = [beacon("https://eu.longtail.example/i", {"writeKey": KEY, "event": "page"}),
            beacon("https://d1.cloudfront.example/i", {"writeKey": KEY, "event": "page"}, ts=2),
            beacon("https://log.cmp.example/consent", {"configId": KEY, "url": PAGE, "event": "reject"}, ts=3)]
    result = run(reqs, index=index)
    assert pixels(result) == {(HEURISTIC_PREFIX + "Longtail Stats", KEY),
                              (HEURISTIC_PREFIX + "d1.cloudfront.example", KEY)}
    assert result.organisations == {HEURISTIC_PREFIX + "Longtail Stats": "Longtail Inc"}


def test_bounds_are_enforced_before_the_work(monkeypatch):
    reqs = [beacon("https://t.longtail.example/i", {"writeKey": KEY, "event": "page"}, ts=i) for i in range(20)]
    monkeypatch.setattr(detector, "REQUESTS_MAX", 5)
    result = run(reqs)
    assert result.looked_at == 5 and result.stopped == "requests" and len(result.hits) == 5
    assert "generic beacon detector stopped (requests)" in result.notes()[0]
    monkeypatch.setattr(detector, "REQUESTS_MAX", 5000)
    cost = len(reqs[0].url) + len(reqs[0].post_data)
    tight = detect(reqs, [], PAGE, entities.load(), time.monotonic() + 30, 3 * cost)
    assert tight.decoded == 3 and tight.stopped == "budget"
    late = detect(reqs, [], PAGE, entities.load(), time.monotonic() - 1, 10 ** 8)
    assert late.looked_at == 0 and late.stopped == "deadline"


def test_a_huge_json_payload_is_walked_within_its_node_bound():
    doc = {"writeKey": KEY, "event": "page", "items": [{"k": i} for i in range(100_000)]}
    leaves = list(features._leaves(doc))
    assert len(leaves) < features.NODES_MAX


def test_the_vendor_pages_look_alikes_are_no_heuristic_pixels():
    """tests/support/vendor_pages.py LOOKALIKES: requests shaped like pixels that must not be
    reported (on a vendor's own host, the catalog decides; first-party shapes without page context)."""
    from tests.support.vendor_pages import LOOKALIKES, LOOKALIKES_URL

    reqs = [Request(url=c.url, method="GET" if c.body is None else "POST", post_data=c.body,
                    resource_type=c.send, frame_url=LOOKALIKES_URL, timestamp=i,
                    headers={"Content-Type": c.content_type} if c.content_type else {})
            for i, c in enumerate(LOOKALIKES)]
    found = detect(reqs, match_requests(reqs), LOOKALIKES_URL, entities.load(), time.monotonic() + 30, 10 ** 8)
    assert found.hits == []
