"""HAR 1.2 in and out (issue 19): any HAR classified offline with the crawl's
matcher (``flask pixels from-har``), a crawl's own traffic exported as HAR
(``GET /api/v1/crawls/<sessionId>/har``), and the round trip.  Through the CLI
and the API (PostgreSQL): tests/db/test_har_db.py."""
from __future__ import annotations

import base64
import gzip
import json

import pytest

from tagcrawl.engine.har import build_har, pixels_by_page, requests_by_page
from tagcrawl.engine.har.read import HarError
from tagcrawl.engine.har.write import REDACTED
from tagcrawl.engine.vendors import Request, match_requests, pixels_from_hits

from tests.support.vendor_cases import HEX32, META_ID, PHC, SEG_KEY, TT, basic

PAGE = "https://shop.example/"

#: Captured requests of one page, in every encoding the matcher reads.
REQUESTS = [
    Request(url=f"https://www.facebook.com/tr/?id={META_ID}&ev=PageView", resource_type="image", frame_url=PAGE,
            timestamp=1732480000000.0, headers={"Cookie": "fr=secret", "Referer": PAGE}),
    Request(url="https://us.i.posthog.com/e/?compression=gzip-js&ver=1.449.2", method="POST",
            post_data=gzip.compress(json.dumps({"event": "$pageview", "properties": {"token": PHC}}).encode()),
            resource_type="fetch", frame_url=PAGE, timestamp=1732480000100.0,
            headers={"Content-Type": "text/plain"}),
    Request(url="https://api.segment.io/v1/t", method="POST", post_data='{"type":"track","event":"Clicked"}',
            resource_type="fetch", frame_url=PAGE, timestamp=1732480000200.0,
            headers={**basic(SEG_KEY), "Content-Type": "application/json"}),
    Request(url="https://analytics.tiktok.com/api/v2/pixel", method="POST",
            post_data=json.dumps({"event": "ViewContent", "context": {"pixel": {"code": TT[:-2]}}}),
            resource_type="xhr", frame_url="https://shop.example/frame.html", timestamp=1732480000300.0),
    Request(url="https://api-js.mixpanel.com/track/?ip=1", method="POST", resource_type="ping", frame_url=PAGE,
            post_data="data=" + base64.b64encode(json.dumps([{"event": "A", "properties": {"token": HEX32}}])
                                                 .encode()).decode(), timestamp=1732480000400.0),
    Request(url="https://bin.example/upload", method="POST", post_data=b"\x00\xff\xfe binary", frame_url=PAGE,
            resource_type="fetch", timestamp=1732480000500.0),
]


def test_round_trip_gives_the_same_pixels():
    expected = pixels_from_hits(match_requests(REQUESTS))
    assert {p["vendor"] for p in expected} == {"Meta Pixel", "PostHog", "Segment", "TikTok Pixel", "Mixpanel"}
    assert any(p["warnings"] for p in expected)  # the short TikTok code, flagged
    har = json.loads(json.dumps(build_har(REQUESTS, PAGE)))
    assert pixels_by_page(har) == {"page_1": expected}


def test_export_shape_and_redaction():
    har = build_har(REQUESTS, PAGE)
    log = har["log"]
    assert log["version"] == "1.2" and log["pages"][0]["title"] == PAGE
    entries = log["entries"]
    assert len(entries) == len(REQUESTS) and all(e["pageref"] == "page_1" for e in entries)
    fb, ph, seg, tiktok, _mp, binary = entries
    assert {"name": "Cookie", "value": REDACTED} in fb["request"]["headers"]
    assert fb["startedDateTime"] == "2024-11-24T20:26:40.000Z" and fb["_resourceType"] == "image"
    assert ph["request"]["postData"]["text"].startswith('{"event": "$pageview"')  # decoded from gzip
    assert ph["request"]["postData"]["_decodedFrom"] == "gzip"
    auth = next(h for h in seg["request"]["headers"] if h["name"] == "Authorization")
    assert auth["value"] == basic(SEG_KEY)["Authorization"]  # a public write key (empty password) is kept
    assert tiktok["_frameUrl"] == "https://shop.example/frame.html"
    assert binary["request"]["postData"]["encoding"] == "base64"
    assert base64.b64decode(binary["request"]["postData"]["text"]) == b"\x00\xff\xfe binary"


@pytest.mark.parametrize("value", ["Bearer eyJhbGciOi.secret", "Basic " + base64.b64encode(b"user:pass").decode()])
def test_secret_authorization_is_redacted_unless_opted_in(value):
    req = [Request(url="https://api.segment.io/v1/t", headers={"Authorization": value, "Set-Cookie": "a=b"})]
    headers = build_har(req, PAGE)["log"]["entries"][0]["request"]["headers"]
    assert {h["value"] for h in headers} == {REDACTED}
    kept = build_har(req, PAGE, keep_secrets=True)["log"]["entries"][0]["request"]["headers"]
    assert {h["value"] for h in kept} == {value, "a=b"}


def test_caps():
    big = Request(url="https://api2.amplitude.com/2/httpapi", method="POST", post_data="x" * 100_000)
    [entry] = build_har([big], PAGE, body_cap=1000)["log"]["entries"]
    assert len(entry["request"]["postData"]["text"]) == 1000 and entry["request"]["postData"]["_truncated"]
    har = build_har([big] * 10, PAGE, body_cap=1000, total_cap=5000)
    assert 0 < len(har["log"]["entries"]) < 10
    assert har["log"]["_omittedEntries"] == 10 - len(har["log"]["entries"])


#: A HAR as Chrome DevTools saves it ("Save all as HAR"): pages with the document URL as title, entries with
#: pageref, _resourceType, postData.text; one entry outside any page.
DEVTOOLS_HAR = {"log": {
    "version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"},
    "pages": [{"startedDateTime": "2026-11-24T20:00:00.000Z", "id": "page_3", "title": "https://shop.example/p",
               "pageTimings": {"onContentLoad": 300, "onLoad": 500}},
              {"startedDateTime": "2026-11-24T20:01:00.000Z", "id": "page_4", "title": "https://othershop.com/",
               "pageTimings": {}}],
    "entries": [
        {"_initiator": {"type": "script"}, "_priority": "Low", "_resourceType": "image", "cache": {},
         "pageref": "page_3", "startedDateTime": "2026-11-24T20:00:00.400Z", "time": 41.2,
         "request": {"method": "GET", "url": f"https://www.facebook.com/tr/?id={META_ID}&ev=PageView",
                     "httpVersion": "http/2.0", "headers": [{"name": ":authority", "value": "www.facebook.com"}],
                     "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
         "response": {"status": 200, "statusText": "", "httpVersion": "http/2.0", "headers": [], "cookies": [],
                      "content": {"size": 43, "mimeType": "image/gif"}, "redirectURL": "", "headersSize": -1,
                      "bodySize": -1, "_transferSize": 120},
         "timings": {"blocked": 1, "dns": -1, "ssl": -1, "connect": -1, "send": 0.1, "wait": 40, "receive": 1}},
        {"_resourceType": "fetch", "pageref": "page_4", "startedDateTime": "2026-11-24T20:01:00.200Z",
         "request": {"method": "POST", "url": "https://plausible.io/api/event", "headers": [
             {"name": "content-type", "value": "text/plain"}], "postData": {
             "mimeType": "text/plain",
             "text": '{"n":"pageview","u":"https://othershop.com/","d":"othershop.com","r":null,"w":1280}'}},
         "response": {"status": 202}, "timings": {"send": 0, "wait": 10, "receive": 0}},
        {"_resourceType": "xhr", "startedDateTime": "2026-11-24T20:02:00.000Z",
         "request": {"method": "POST", "url": "https://tr.snapchat.com/p", "headers": [],
                     "postData": {"mimeType": "application/x-www-form-urlencoded",
                                  "params": [{"name": "pid", "value": "0f8fad5b-d9cb-469f-a165-70867728950e"},
                                             {"name": "ev", "value": "PAGE_VIEW"}]}},
         "response": {"status": 200}, "timings": {}},
    ]}}


def test_devtools_har():
    assert pixels_by_page(DEVTOOLS_HAR) == {
        "page_3": [{"vendor": "Meta Pixel", "account_id": META_ID, "page": "https://shop.example/p", "warnings": []}],
        "page_4": [{"vendor": "Plausible Analytics", "account_id": "othershop.com", "page": "https://othershop.com/",
                    "warnings": []}],
        "": [{"vendor": "Snap Pixel", "account_id": "0f8fad5b-d9cb-469f-a165-70867728950e", "page": None,
              "warnings": []}],
    }
    [plausible] = requests_by_page(DEVTOOLS_HAR)["page_4"]
    assert plausible.resource_type == "fetch" and plausible.timestamp == 1795550460200.0


@pytest.mark.parametrize("doc", [{}, {"log": {}}, {"log": {"entries": 3}}, [], "x"])
def test_not_a_har(doc):
    with pytest.raises(HarError):
        pixels_by_page(doc)


def test_garbage_entries_are_skipped():
    har = {"log": {"entries": [None, {}, {"request": {"url": 5}}, {"request": {"url": "https://x/", "postData": 7}},
                               {"request": {"url": "https://www.facebook.com/tr/?id=1", "postData": {
                                   "text": "!!", "encoding": "base64"}}}]}}
    assert pixels_by_page(har) == {"": [{"vendor": "Meta Pixel", "account_id": "1", "page": None,
                                         "warnings": ["account id has 1 character; Meta pixel ids have 15 to 16"]}]}


# -- CLI -----------------------------------------------------------------------------------------------


# -- API -----------------------------------------------------------------------------------------------
