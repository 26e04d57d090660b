"""Three HARs of one page give the same pixels (issue 26 item 5): tagcrawl's own HAR of a crawl
of https://encodings.example/ (gzip bodies made by the page's CompressionStream, lz-string
payloads), and the HARs that mitmproxy 11.0.2 and chrome-har 1.3.1 wrote of the same page
(tests/support/har, README.md there says how).  Unit tests of the reader on those files:
tests/unit/test_har_interop.py."""
from __future__ import annotations

import json

import pytest

from tagcrawl.engine.har import build_har, pixels_by_page
from tagcrawl.engine.vendors import match_requests, pixels_from_hits

from tests.unit.test_har_interop import PAGE, fixture, ids

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_mitmproxy_chrome_har_and_tagcrawl_hars_give_the_same_pixels_and_statuses(crawler, npm_packages):
    outcome = crawler(PAGE)
    assert outcome.response["success"] is True, outcome.response["error"]
    own_har = json.loads(json.dumps(build_har(outcome.requests, PAGE)))
    own = ids(pixels_by_page(own_har)["page_1"])
    assert own == ids(outcome.response["marketingPixels"]) and len(own) == 4

    assert ids(pixels_by_page(fixture("mitmproxy"))[""]) == own  # page: from the Referer

    # chrome-har keeps only requests that got a response (the lz-string image beacon is blocked
    # by Chrome's ORB): the same pixels as tagcrawl's requests of the URLs it kept
    chrome_har = fixture("chrome-har")
    kept = {e["request"]["url"] for e in chrome_har["log"]["entries"]}
    own_kept = ids(pixels_from_hits(match_requests([r for r in outcome.requests if r.url in kept])))
    assert ids(pixels_by_page(chrome_har)["page_1"]) == own_kept
    assert {p[1] for p in own - own_kept} == {"phc_EncodingsPage0000000000000000000000000002"}

    # tagcrawl's HAR carries the response statuses
    entries = own_har["log"]["entries"]
    status = {(e["request"]["method"], e["request"]["url"]): e["response"]["status"] for e in entries}
    assert status[("GET", PAGE)] == 200
    assert status[("POST", "https://api2.amplitude.com/2/httpapi")] == 200
    # the one without a response: the image beacon Chrome blocked (ORB) before it read the answer
    assert [key for key, code in status.items() if code == 0] == [
        (m, u) for m, u in status if "ver=encodings&data=" in u]
    # the same statuses as the proxy saw
    proxy = {(e["request"]["method"], e["request"]["url"]): e["response"]["status"]
             for e in fixture("mitmproxy")["log"]["entries"]}
    assert {k: v for k, v in status.items() if v} == {k: proxy[k] for k, v in status.items() if v}
