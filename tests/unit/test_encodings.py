"""Every encoding a page uses to send an id (issue 19), each with its negative
look-alike: compressed bodies (gzip, deflate, br), base64/base64url, lz-string,
JSON in form fields / text/plain / NDJSON / batches / multipart, Basic auth
write keys, and ids only in a configuration or library fetch.

Recorded requests are URL + headers + raw body bytes.  The lz-string vectors
were produced by the real npm package (``tests/support/web/npm``, lz-string 1.5.0):
``LZString.compressToBase64`` / ``compressToEncodedURIComponent`` of
``LZ_PLAIN``.
"""
from __future__ import annotations

import base64
import gzip
import json
import zlib
from urllib.parse import quote

import brotli
import pytest

from tagcrawl.engine.vendors import (
    Request,
    decode,
    encodings,
    match_request,
    match_requests,
    pixels_from_hits,
)

from tests.support.vendor_cases import HEX32, PHC, SEG_KEY, basic

LZ_PLAIN = ('{"event":"$pageview","properties":{"token":"phc_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcde",'
            '"$current_url":"https://shop.example/é✓😀"}}')
LZ_B64 = ("N4IgpgbmB2AuIC4QBIAOBDA5pAlmA7iADQioBOA9qmGbHgM6KiwUDWMipAFgMYD6AQQBGAYQAmAUQBmAcS4BJAFYBpADYBZaAHlUARTIB"
          "lWAFUIAdQAeATQBeABgCMAJgDMAFgCsANgDsADgBOdCEeMTBiFB4AVzIyGFg+GNVOLlhYVHoEAHos+i4qADowC3QAW1RVMCyAS8BkckBeDcAA"
          "PZAAXxagA=")
LZ_URI = LZ_B64.rstrip("=").replace("/", "-")  # what compressToEncodedURIComponent gave for the same input
LZ_JUNK = "BYUwNmD2A0AEB2kAusBWBnS8g==="  # compressToBase64("hello, not json"): valid lz-string, not JSON

EVENT = {"event": "$pageview", "properties": {"token": PHC, "$current_url": "https://shop.example/"}}
PH_URL = "https://us.i.posthog.com/e/?ip=0&_=1732480000000&ver=1.449.2"


def ids(req: Request) -> list:
    return [(h.vendor_key, h.account_id) for h in match_request(req)]


def post(url: str, body, headers: dict | None = None) -> Request:
    return Request(url=url, method="POST", post_data=body, headers=headers or {}, resource_type="fetch")


# -- Content-Encoding ---------------------------------------------------------------

def test_gzip_body_without_header_is_sniffed():
    body = gzip.compress(json.dumps(EVENT).encode())  # posthog-js compression=gzip-js: text/plain, no header
    assert ids(post(PH_URL + "&compression=gzip-js", body, {"Content-Type": "text/plain"})) == [("posthog", PHC)]


def test_gzip_lookalike_is_not_decoded():
    corrupt = b"\x1f\x8b\x08\x00" + b"garbage that is no deflate stream" * 3
    assert ids(post(PH_URL + "&compression=gzip-js", corrupt)) == [("posthog", None)]


@pytest.mark.parametrize("coding,compress", [
    ("gzip", gzip.compress),
    ("deflate", zlib.compress),
    ("deflate", lambda b: zlib.compress(b)[2:-4]),  # raw deflate, as some servers take it
    ("br", brotli.compress),
])
def test_content_encoding_bodies(coding, compress):
    body = compress(json.dumps({"api_key": HEX32, "events": [{"event_type": "Page Viewed"}]}).encode())
    req = post("https://api2.amplitude.com/2/httpapi", body, {"Content-Encoding": coding})
    assert ids(req) == [("amplitude", HEX32)]


def test_content_encoding_header_on_plain_body_falls_back_to_text():
    body = json.dumps({"api_key": HEX32, "events": [{"event_type": "x"}]}).encode()
    assert ids(post("https://api2.amplitude.com/2/httpapi", body, {"Content-Encoding": "br"})) == [("amplitude", HEX32)]


@pytest.mark.slow
def test_decompression_is_bounded():
    bomb = gzip.compress(b'{"api_key": "' + b"0" * (50 * 1024 * 1024) + b'"}')
    assert len(bomb) < 100_000
    text = encodings.body_text(bomb)
    assert len(text) <= encodings.MAX_DECODED
    assert len(encodings.inflate(brotli.compress(b"x" * 10_000_000), "br")) <= encodings.MAX_DECODED
    assert encodings.lz_decompress("A" * 100_000) is None  # no end marker: refused, not expanded
    hits = match_request(post("https://api2.amplitude.com/2/httpapi", bomb, {"Content-Encoding": "gzip"}))
    assert [h.vendor_key for h in hits] == ["amplitude"]  # recognised, body cut: no id read, no hang


# -- base64 / base64url -----------------------------------------------------------------

def test_base64_body():
    body = base64.b64encode(json.dumps(EVENT).encode()).decode()
    assert ids(post(PH_URL, body, {"Content-Type": "text/plain"})) == [("posthog", PHC)]


def test_base64url_param():
    doc = [{"event": "Viewed", "properties": {"token": HEX32, "mp_lib": "web", "q": "??>>"}}]
    data = base64.urlsafe_b64encode(json.dumps(doc).encode()).decode().rstrip("=")
    assert ids(Request(url=f"https://api-js.mixpanel.com/track/?data={data}&ip=1")) == [("mixpanel", HEX32)]


def test_base64_lookalike_is_not_json():
    assert ids(post(PH_URL, base64.b64encode(b"just some text, no JSON").decode())) == [("posthog", None)]
    assert decode.decode_body("SGVsbG8gd29ybGQ=").json is None


# -- lz-string ------------------------------------------------------------------------------

def test_lz_string_matches_the_npm_package():
    assert encodings.lz_decompress(LZ_B64) == LZ_PLAIN
    assert encodings.lz_decompress(LZ_URI, uri_safe=True) == LZ_PLAIN


def test_lz_string_form_body():  # posthog-js compression=lz64: data=<compressToBase64(json)>
    body = "data=" + quote(LZ_B64, safe="") + "&compression=lz64"
    assert ids(post("https://us.i.posthog.com/e/?compression=lz64", body,
                    {"Content-Type": "application/x-www-form-urlencoded"})) == [("posthog", PHC)]


def test_lz_string_uri_param():
    assert ids(Request(url=f"https://us.i.posthog.com/e/?data={LZ_URI}")) == [("posthog", PHC)]


def test_lz_string_lookalike():
    assert encodings.lz_decompress(LZ_JUNK) == "hello, not json"
    assert ids(Request(url=f"https://us.i.posthog.com/e/?data={quote(LZ_JUNK)}")) == [("posthog", None)]
    assert encodings.unwrap_json("not lz-string at all!") == (None, None)


# -- JSON carried in other shapes ---------------------------------------------------------------

def test_json_in_form_field():
    body = "e=" + quote(json.dumps([{"event_type": "Viewed", "api_key": HEX32}])) + "&v=2&client=" + HEX32
    assert ids(post("https://api.amplitude.com/", body)) == [("amplitude", HEX32)]
    tiktok = "payload=" + quote(json.dumps({"event": "x", "context": {"pixel": {"code": "C1A2B3C4D5E6F7G8H9I0"}}}))
    assert ids(post("https://analytics.tiktok.com/api/v2/pixel", tiktok)) == [("tiktok", "C1A2B3C4D5E6F7G8H9I0")]


def test_form_field_lookalike_json():
    body = "payload=" + quote("{not json")
    assert ids(post("https://analytics.tiktok.com/api/v2/pixel", body)) == [("tiktok", None)]


def test_json_as_text_plain():  # plausible-tracker: XHR, Content-Type text/plain
    body = json.dumps({"n": "pageview", "u": "https://shop.example/", "d": "shop.example", "r": None, "w": 1280})
    assert ids(post("https://plausible.io/api/event", body, {"Content-Type": "text/plain"})) == [
        ("plausible", "shop.example")]


def test_ndjson_batch():
    lines = "\n".join(json.dumps({"api_key": PHC, "event": e}) for e in ("$pageview", "$pageleave"))
    hits = match_request(post("https://us.i.posthog.com/batch/", lines, {"Content-Type": "application/x-ndjson"}))
    assert [(h.account_id, h.event) for h in hits] == [(PHC, "$pageview"), (PHC, "$pageleave")]
    assert decode.decode_body("{oops\n{also not").kind == "raw"


def test_batched_array():
    body = json.dumps([{"event": "A", "properties": {"token": HEX32}}, {"event": "B", "properties": {"token": HEX32}}])
    hits = match_request(post("https://api-js.mixpanel.com/track/", "data=" + quote(body)))
    assert [(h.account_id, h.event) for h in hits] == [(HEX32, "A"), (HEX32, "B")]


MULTIPART = (b"------WebKitFormBoundaryq1\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\n123456789012345\r\n"
             b"------WebKitFormBoundaryq1\r\nContent-Disposition: form-data; name=\"ev\"\r\n\r\nPurchase\r\n"
             b"------WebKitFormBoundaryq1--\r\n")


def test_multipart_body():  # fetch(..., {body: new FormData()}) as Chrome sends it
    req = post("https://www.facebook.com/tr/", MULTIPART,
               {"Content-Type": "multipart/form-data; boundary=----WebKitFormBoundaryq1"})
    [hit] = match_request(req)
    assert (hit.vendor_key, hit.account_id, hit.event) == ("facebook", "123456789012345", "Purchase")
    [again] = match_request(post("https://www.facebook.com/tr/", MULTIPART))  # boundary sniffed
    assert again.account_id == "123456789012345"


def test_multipart_lookalike():
    assert decode.multipart_fields("--not a boundary line\nid=1", None) is None
    assert ids(post("https://www.facebook.com/tr/", "-- id=123456789012345")) == [("facebook", None)]


# -- auth header and configuration fetches ------------------------------------------------------

def test_write_key_in_basic_auth_only():
    req = post("https://api.segment.io/v1/t", json.dumps({"type": "track", "event": "x"}), basic(SEG_KEY))
    assert ids(req) == [("segment", SEG_KEY)]


def test_mixpanel_session_recording_token_only_in_basic_auth():
    """mixpanel-browser 2.83 SessionRecording._sendRequest: gzip body (CompressionStream), ``format=gzip``,
    ``Authorization: Basic btoa(token + ":")``."""
    body = gzip.compress(json.dumps([{"type": 2, "timestamp": 1732480000000, "data": {}}]).encode())
    url = ("https://api-js.mixpanel.com/record/?%24current_url=https%3A%2F%2Fshop.example%2F&%24lib_version=2.83.0"
           "&batch_start_time=1732480000&mp_lib=web&replay_id=19a0b&replay_length_ms=0&seq=0&format=gzip")
    assert ids(post(url, body, basic(HEX32))) == [("mixpanel", HEX32)]
    assert ids(post(url, body)) == [("mixpanel", None)]  # look-alike: no auth, no id


def test_bearer_auth_is_not_a_write_key():
    req = post("https://api.segment.io/v1/t", json.dumps({"type": "track"}),
               {"Authorization": "Bearer " + base64.b64encode(f"{SEG_KEY}:".encode()).decode()})
    assert ids(req) == [("segment", None)]


def test_config_fetch_id_when_no_beacon_carries_one():
    config = Request(url=f"https://sr-client-cfg.amplitude.com/config/{HEX32}?config_group=browser")
    beacon = post("https://api2.amplitude.com/2/httpapi", "{}")  # queued events not sent yet
    assert pixels_from_hits(match_requests([beacon, config])) == [
        {"vendor": "Amplitude", "account_id": HEX32, "page": None, "warnings": []}]
    assert pixels_from_hits(match_requests([beacon])) == [
        {"vendor": "Amplitude", "account_id": None, "page": None, "warnings": []}]
