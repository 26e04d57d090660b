"""HAR interop with other tools (issue 26 item 5): bodies that mitmproxy and chrome-har
write as latin-1 text are read as the bytes they were, the ``Referer`` names the page of a
proxy HAR, chrome-har's JSON ``params`` are a JSON body again, and tagcrawl's own HAR has
HAR's "unknown" values, its version and the response statuses.

The HAR files in tests/support/har were written by mitmproxy 11.0.2 and chrome-har 1.3.1
from the fixture page https://encodings.example/ (provenance: tests/support/har/README.md);
the same page crawled by tagcrawl: tests/browser/test_har_interop_browser.py."""
from __future__ import annotations

import base64
import gzip
import json
import zlib
from concurrent.futures import Future
from pathlib import Path

import brotli
import pytest

from tagcrawl.core.version import __version__
from tagcrawl.engine.capture.hub import NetworkCapture
from tagcrawl.engine.collectors.network import NetworkCollector
from tagcrawl.engine.har import build_har, pixels_by_page, requests_by_page
from tagcrawl.engine.har.bodies import latin1_bytes, post_body
from tagcrawl.engine.har.read import HarError, classify_har, load_har
from tagcrawl.engine.vendors import Request
from tests.unit.test_collectors import FakeCDP, _attach

FIXTURES = Path(__file__).parents[1] / "support" / "har"
PAGE = "https://encodings.example/"
PHC = "phc_EncodingsPage000000000000000000000000000{}"
AMPLITUDE = "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5"
JSON_BODY = json.dumps({"event": "$pageview", "properties": {"token": PHC.format(1), "city": "Zürich"}},
                       ensure_ascii=False)


def fixture(tool: str) -> dict:
    return json.loads((FIXTURES / tool / "encodings.example.har").read_text(encoding="utf-8"))


def ids(pixels: list[dict]) -> set[tuple]:
    return {(p["vendor"], p["account_id"], p["page"]) for p in pixels}


# -- the latin-1 rule ------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [
    gzip.compress(JSON_BODY.encode()),                      # 1. gzip magic
    zlib.compress(JSON_BODY.encode()),                      # 1. zlib magic (78 9c)
    zlib.compress(JSON_BODY.encode(), 1),                   # 1. zlib magic (78 01)
    brotli.compress(JSON_BODY.encode()),                    # 2. no magic: its control characters
    b"\x08\x96\x01\x12\x07testing",                         # 2. a protobuf
    JSON_BODY.encode(),                                     # 3. UTF-8 text read as latin-1 ("ZÃ¼rich")
], ids=["gzip", "zlib", "zlib-fast", "brotli", "protobuf", "utf8-as-latin1"])
def test_latin1_text_is_read_as_the_bytes_it_was(raw):
    assert latin1_bytes(raw.decode("latin-1")) == raw
    assert post_body({"mimeType": "text/plain", "text": raw.decode("latin-1")}) == raw


@pytest.mark.parametrize("text", [
    JSON_BODY,                                # text, written right (ü is U+00FC, its latin-1 byte is not UTF-8)
    '{"token": "phc_x"}',                     # ASCII: the same either way
    "line one\r\n\tline two",                 # tab, CR, LF are text
    "price: 5 €",                             # beyond latin-1: only text has it
    "\x1f\x8b but also €",                    # the gzip magic with a character beyond latin-1: text
    "",
])
def test_text_stays_text(text):
    assert latin1_bytes(text) is None
    assert post_body({"text": text}) == text


def test_base64_comes_first_and_a_long_body_is_cut_before_the_rule():
    raw = gzip.compress(JSON_BODY.encode())
    assert post_body({"text": base64.b64encode(raw).decode(), "encoding": "base64"}) == raw
    cut = post_body({"text": "\x1f\x8b" + "\x00" * (2 * 1024 * 1024)})
    assert isinstance(cut, bytes) and len(cut) == 1024 * 1024


def test_a_gzip_body_written_as_latin1_gives_its_pixel():
    body = gzip.compress(JSON_BODY.encode()).decode("latin-1")
    har = {"log": {"entries": [{"request": {"method": "POST", "url": "https://us.i.posthog.com/e/?compression=gzip-js",
                                            "postData": {"mimeType": "text/plain", "text": body}}}]}}
    assert ids(pixels_by_page(har)[""]) == {("PostHog", PHC.format(1), None)}


@pytest.mark.parametrize("params, body", [
    ([{"name": "api_key", "value": AMPLITUDE}, {"name": "events", "value": [{"event_type": "x"}]}],
     {"api_key": AMPLITUDE, "events": [{"event_type": "x"}]}),
    ([{"name": "tags", "value": "a"}, {"name": "tags", "value": "b"}], {"tags": ["a", "b"]}),
    ([{"name": "0", "value": {"api_key": AMPLITUDE}}, {"name": "1", "value": 2}], [{"api_key": AMPLITUDE}, 2]),
])
def test_chrome_har_json_params_are_a_json_body_again(params, body):
    assert json.loads(post_body({"mimeType": "application/json", "params": params})) == body


def test_form_params_are_form_encoded_and_other_values_are_json():
    post = {"mimeType": "application/x-www-form-urlencoded",
            "params": [{"name": "pid", "value": "p 1"}, {"name": "n", "value": 3}]}
    assert post_body(post) == "pid=p+1&n=3"


# -- the page of an entry ---------------------------------------------------------------------------------
def test_page_is_frame_url_then_page_title_then_referer():
    beacon = f"https://www.facebook.com/tr/?id={'1' * 15}&ev=PageView"
    har = {"log": {"pages": [{"id": "p", "title": "https://shop.example/p"}], "entries": [
        {"request": {"url": beacon, "headers": [{"name": "referer", "value": "https://proxy.example/a"}]}},
        {"pageref": "p", "request": {"url": beacon, "headers": [{"name": "Referer", "value": "https://r.example/"}]}},
        {"pageref": "p", "_frameUrl": "https://shop.example/frame", "request": {"url": beacon}},
        {"_frameUrl": "", "request": {"url": beacon, "headers": [{"name": "Referer", "value": None}]}},
    ]}}
    by_page = requests_by_page(har)
    assert [r.frame_url for r in by_page[""]] == ["https://proxy.example/a", None]
    assert [r.frame_url for r in by_page["p"]] == ["https://shop.example/p", "https://shop.example/frame"]


# -- HAR files other tools wrote --------------------------------------------------------------------------
def test_the_fixtures_hold_latin1_bodies_without_a_marker():
    """What the rule is for: the gzip bodies are latin-1 text, with no ``encoding``."""
    for tool in ("mitmproxy", "chrome-har"):
        [post] = [e["request"]["postData"] for e in fixture(tool)["log"]["entries"]
                  if "compression=gzip-js" in e["request"]["url"]]
        assert post["text"].startswith("\x1f\x8b\x08") and "encoding" not in post, tool


def test_mitmproxy_har_gives_every_id_with_the_referer_as_page():
    har = fixture("mitmproxy")
    assert har["log"]["creator"]["name"] == "mitmproxy" and har["log"]["pages"] == []
    assert ids(pixels_by_page(har)[""]) == {("PostHog", PHC.format(n), PAGE) for n in (1, 2, 3)} | {
        ("Amplitude", AMPLITUDE, PAGE)}


def test_chrome_har_gives_every_id_of_the_requests_it_kept():
    har = fixture("chrome-har")
    assert har["log"]["creator"]["name"] == "chrome-har"
    # chrome-har leaves out requests without a response: the lz-string image beacon (token 2),
    # answered with JSON, is blocked by Chrome's ORB (net::ERR_BLOCKED_BY_ORB in the events file)
    assert not [e for e in har["log"]["entries"] if "ver=encodings&data=" in e["request"]["url"]]
    assert ids(pixels_by_page(har)["page_1"]) == {("PostHog", PHC.format(n), PAGE) for n in (1, 3)} | {
        ("Amplitude", AMPLITUDE, PAGE)}


# -- tagcrawl's own HAR -----------------------------------------------------------------------------------
def test_written_har_has_unknowns_version_and_statuses():
    requests = [Request(url=PAGE, resource_type="document", status=200, timestamp=1.0),
                Request(url="https://us.i.posthog.com/e/", method="POST", post_data="{}", status=None),
                Request(url="https://old.example/", status=301)]
    log = build_har(requests, PAGE)["log"]
    assert log["creator"] == {"name": "tagcrawl", "version": __version__} and __version__
    assert log["pages"][0]["pageTimings"] == {"onContentLoad": -1, "onLoad": -1}
    assert [e["response"]["status"] for e in log["entries"]] == [200, 0, 301]
    assert build_har([], PAGE, version="9.9")["log"]["creator"]["version"] == "9.9"
    # read back, the status is not part of a request's identity
    assert requests_by_page(json.loads(json.dumps(build_har(requests, PAGE))))["page_1"][0] == Request(
        url=PAGE, resource_type="document", timestamp=1.0, frame_url=PAGE)


class LaterBodyCDP(FakeCDP):
    """``Network.getRequestPostData`` answers when the test says (``body``)."""

    def __init__(self):
        super().__init__()
        self.body = Future()

    def send(self, method, params=None, session_id=None):
        future = super().send(method, params, session_id)
        return self.body if method == "Network.getRequestPostData" else future


def test_the_capture_keeps_each_response_status_for_the_har():
    collector, cdp = NetworkCollector(), LaterBodyCDP()
    hub = NetworkCapture(collectors=[collector])
    hub.bind(cdp)
    _attach(hub)

    def send(request_id, url, method="GET", **extra):
        hub.on_event("Network.requestWillBeSent", {"requestId": request_id, "type": "Fetch", "wallTime": 1.0,
                                                   "request": {"url": url, "method": method, **extra.pop("request", {})},
                                                   **extra}, "S1")

    def answer(request_id, status):
        hub.on_event("Network.responseReceived", {"requestId": request_id, "response": {"status": status}}, "S1")

    send("1", "https://a.example/old")
    send("1", "https://a.example/new", redirectResponse={"status": 301})  # the first hop's answer
    answer("1", 200)
    send("2", "https://a.example/blocked")  # no response
    send("3", "https://a.example/post", "POST", request={"hasPostData": True})
    answer("3", 204)  # before its body arrived
    cdp.body.set_result({"result": {"postData": "x=1"}})
    answer("9", 500)  # a request the collector did not keep
    got = [(r.url, r.status, r.post_data) for r in collector.get_data(None)]
    assert got == [("https://a.example/old", 301, None), ("https://a.example/new", 200, None),
                   ("https://a.example/blocked", None, None), ("https://a.example/post", 204, "x=1")]
    assert [e["response"]["status"] for e in build_har(collector.get_data(None), PAGE)["log"]["entries"]] == [
        301, 200, 0, 204]


# -- messages ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [b"{", b'"x"', b"[]", b"{}", b'{"log": {}}', b'{"log": []}', b'{"log": {"entries": 1}}',
                                 b'{"log": {"entries": [], "pages": 5}}', b'{"log": \xff}'])
def test_messages_say_a_thing_once(raw):
    with pytest.raises(HarError) as caught:
        classify_har(raw)
    message = str(caught.value)
    parts = [p.strip() for p in message.split(":")]
    assert len(parts) == len(set(parts)) and message.count("HAR") <= 1 and message.count("JSON") <= 1, message


def test_load_har_reads_the_fixtures():
    for tool in ("mitmproxy", "chrome-har"):
        assert load_har((FIXTURES / tool / "encodings.example.har").read_bytes())["log"]["version"] == "1.2"
