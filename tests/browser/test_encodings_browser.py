"""Encoded ids through real Chrome (issue 19): a gzip body made by the page's
own ``CompressionStream`` (with and without ``Content-Encoding``) and
lz-string payloads made by the real lz-string library served from the npm
CDN route; their look-alikes to a non-vendor collector are not pixels.  The
crawl's HAR export gives the same pixels (round trip over real capture)."""
from __future__ import annotations

import json

import pytest

from tagcrawl.engine.har import build_har, pixels_by_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TOKEN = "phc_EncodingsPage000000000000000000000000000{}"


def test_gzip_fetch_body_and_lz_string_parameter(crawler, npm_packages, fixture_web):
    assert npm_packages.package_version("lz-string") == "1.5.0"
    before = len(fixture_web.log)  # other tests crawl this page too (test_har_interop_browser.py)
    outcome = crawler("https://encodings.example/")
    assert outcome.response["success"] is True, outcome.response["error"]
    found = {(h.vendor_key, h.account_id) for h in outcome.hits}
    assert ("posthog", TOKEN.format(1)) in found  # gzip body, sniffed (no Content-Encoding)
    assert ("amplitude", "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5") in found  # Content-Encoding: gzip
    assert ("posthog", TOKEN.format(2)) in found  # lz-string compressToEncodedURIComponent query parameter
    assert ("posthog", TOKEN.format(3)) in found  # lz-string compressToBase64 form body
    gzip_hit = next(h for h in outcome.hits if h.account_id == TOKEN.format(1))
    assert gzip_hit.method == "POST" and gzip_hit.transport == "fetch"
    raw = next(r for r in outcome.requests if "compression=gzip-js" in r.url)
    assert isinstance(raw.post_data, bytes) and raw.post_data[:2] == b"\x1f\x8b"  # raw bytes kept by capture
    assert not [h for h in outcome.hits if "collector.encodings.example" in h.url]  # look-alikes
    sent = [e for e in fixture_web.log[before:] if e["host"] == "collector.encodings.example"]
    assert len(sent) == 2  # the look-alikes were sent, and not taken for pixels
    har = json.loads(json.dumps(build_har(outcome.requests, "https://encodings.example/")))
    # a HAR carries no consent click: the crawl's consent annotations (docs/compliance.md) are not compared,
    # nor what only a crawl adds (``recognised``, third-party-web's ``organisation``; docs/har.md)
    crawled = [{k: v for k, v in p.items() if k not in ("consent", "consent_mode", "tcf", "recognised", "organisation")}
               for p in outcome.response["marketingPixels"]]
    assert pixels_by_page(har) == {"page_1": crawled}
