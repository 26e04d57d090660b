"""Fault tests, hostile bodies (PostgreSQL): each gets its documented 4xx
(crawl: 413/422, stream: 400/413/415) and nothing is stored.  Hostile pages
in Chrome: tests/browser/test_faults_browser.py.
"""
from __future__ import annotations

import http.client
import json
import threading

import pytest
from werkzeug.serving import make_server

from tagcrawl.core.extensions import db

from tests.support.stream_support import count_rows, issued, minimal, post_event, stored
from tagcrawl.core.settings import settings_of

FIXTURES = (issued,)


# --- hostile crawl bodies ------------------------------------------------------------------

def _crawls(app) -> int:
    from tagcrawl.core.models import Crawl

    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Crawl.id)))


def _crawl_post(client, key, data, content_type="application/json"):
    headers = {"x-api-key": key}
    if content_type:
        headers["Content-Type"] = content_type
    return client.post("/api/v1", data=data, headers=headers)


def _detail_type(response) -> str:
    assert response.status_code == 422, response.get_data(as_text=True)
    return response.get_json()["detail"][0]["type"]


VALID_URL = '"url": "https://shop.example/", "session_id": null'
CRAWL_BODIES = [
    ("truncated", b'{"url": "https://shop.example/"', "json_invalid"),
    ("trailing comma", b'{"url": "https://shop.example/", "session_id": null,}', "json_invalid"),
    ("NaN", ('{%s, "user": {"a": NaN}}' % VALID_URL).encode(), "json_invalid"),
    ("Infinity", ('{%s, "user": {"a": -Infinity}}' % VALID_URL).encode(), "json_invalid"),
    ("number over double range", ('{%s, "user": {"a": 1e400}}' % VALID_URL).encode(), "json_invalid"),
    ("integer of 5000 digits", ('{%s, "user": {"a": %s}}' % (VALID_URL, "9" * 5000)).encode(), "json_invalid"),
    ("array nesting bomb", b"[" * 100_000 + b"]" * 100_000, "too_deep"),
    ("object nesting bomb", ('{%s, "user": %s1%s}' % (VALID_URL, '{"a":' * 40_000, "}" * 40_000)).encode(),
     "too_deep"),
    ("invalid UTF-8", b'{"url": "https://shop.example/\xff", "session_id": null}', "json_invalid"),
    ("overlong UTF-8 slash", b'{"url": "https://shop.example/\xc0\xaf", "session_id": null}', "json_invalid"),
    ("UTF-8 encoded surrogate", b'{"url": "https://shop.example/\xed\xa0\x80", "session_id": null}', "json_invalid"),
    ("escaped NUL", b'{"url": "https://shop.example/\\u0000", "session_id": null}', "string_unicode"),
    ("NUL in a key of user", ('{%s, "user": {"a\\u0000": 1}}' % VALID_URL).encode(), "string_unicode"),
    ("UTF-16 body", '{"url": "https://shop.example/", "session_id": null}'.encode("utf-16"), "json_invalid"),
    ("JSON string", b'"https://shop.example/"', "dict_type"),
    ("empty", b"", "json_invalid"),
]


@pytest.mark.postgres
@pytest.mark.parametrize("data, expected", [c[1:] for c in CRAWL_BODIES], ids=[c[0] for c in CRAWL_BODIES])
def test_malformed_crawl_bodies_get_422(app, client, api_key, data, expected):
    assert _detail_type(_crawl_post(client, api_key, data)) == expected
    assert _crawls(app) == 0


@pytest.mark.postgres
@pytest.mark.parametrize("content_type, data", [
    ("application/x-www-form-urlencoded", b"url=https%3A%2F%2Fshop.example%2F&session_id="),
    ("multipart/form-data; boundary=xyz",
     b'--xyz\r\nContent-Disposition: form-data; name="url"\r\n\r\nhttps://shop.example/\r\n--xyz--\r\n'),
    ("application/xml", b"<crawl><url>https://shop.example/</url></crawl>"),
    ("text/plain", b"url: https://shop.example/"),
    (None, b"\x00\x01\x02"),
], ids=["form", "multipart", "xml", "text", "binary-without-type"])
def test_crawl_bodies_in_other_formats_get_422(app, client, api_key, content_type, data):
    """Any content type is read as JSON; what is not JSON is 422 ``json_invalid``."""
    assert _detail_type(_crawl_post(client, api_key, data, content_type)) == "json_invalid"
    assert _crawls(app) == 0


@pytest.mark.postgres
def test_oversized_crawl_bodies_get_413_with_or_without_content_length(app, client, api_key):
    limit = settings_of(app).crawl_max_bytes
    big = json.dumps({"url": "https://shop.example/", "session_id": None, "user": {"pad": "x" * limit}}).encode()
    assert _crawl_post(client, api_key, big).status_code == 413
    server = make_server("127.0.0.1", 0, app, threaded=True)  # a real server: chunked uploads
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=30)
        conn.putrequest("POST", "/api/v1")
        for name, value in (("x-api-key", api_key), ("Content-Type", "application/json"),
                            ("Transfer-Encoding", "chunked")):
            conn.putheader(name, value)
        conn.endheaders()
        for start in range(0, len(big), 16384):
            chunk = big[start:start + 16384]
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
        response = conn.getresponse()
        assert response.status == 413
        assert json.loads(response.read())["error"] is True
        conn.close()
    finally:
        server.shutdown()
    assert _crawls(app) == 0


# --- hostile stream bodies ---------------------------------------------------------------

def _stream_raw(token: str, fields: str) -> bytes:
    return ('{"t": "%s", "vn": "Meta Pixel", "e": "PageView", %s}' % (token, fields)).encode()


STREAM_400 = [
    ("NUL in vn", '"vn": "a\\u0000b"', "Body is not storable"),
    ("NUL in a dt key", '"dt": [{"k\\u0000": 1}]', "Body is not storable"),
    ("number over double range in dt", '"dt": [{"v": 1e400}]', "out of range"),
    ("huge tm", '"tm": 1e300', "tm: Must be an epoch time"),
    ("huge negative et", '"et": -99999999999999999999', "et: Must be an integer"),
    ("dt nesting bomb", '"dt": [%s1%s]' % ('{"a":' * 10_000, "}" * 10_000), "nested too deeply"),
    ("dt nested past the cap", '"dt": [{"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}]',
     "dt: Nested too deeply."),
    ("dt of 101 objects", '"dt": [%s]' % ",".join(["{}"] * 101), "dt: Too many items."),
    ("dt object of 101 keys", '"dt": [{%s}]' % ",".join(f'"k{i}": 1' for i in range(101)), "dt: Too many items."),
    ("dt string over 4096", '"dt": [{"k": "%s"}]' % ("x" * 4097), "dt: Too long."),
    ("dt key over 128", '"dt": [{"%s": 1}]' % ("k" * 129), "dt: Too long."),
    ("dt of strings", '"dt": ["a", "b"]', "dt.0: Every item must be an object."),
]


@pytest.mark.postgres
@pytest.mark.parametrize("fields, expected", [c[1:] for c in STREAM_400], ids=[c[0] for c in STREAM_400])
def test_hostile_stream_bodies_get_400(app, client, issued, fields, expected):
    response = post_event(client, _stream_raw(issued, fields))
    assert response.status_code == 400, response.get_data(as_text=True)
    assert expected in response.get_json()["message"]
    assert count_rows(app) == 0


@pytest.mark.postgres
def test_huge_dt_over_the_body_cap_gets_413(app, client, issued):
    dt = [{f"k{j}": "x" * 4000 for j in range(10)} for _ in range(100)]  # ~4 MB, every item under the caps
    response = post_event(client, json.dumps(minimal(issued, dt=dt)))
    assert response.status_code == 413
    assert count_rows(app) == 0


@pytest.mark.postgres
def test_largest_accepted_dt_is_stored_whole(app, client, issued):
    dt = [{"i": i, "s": "é" * 150} for i in range(100)]  # 100 items, just under the 64 KB body cap
    body = json.dumps(minimal(issued, dt=dt), ensure_ascii=False).encode()
    assert len(body) < settings_of(app).stream_max_bytes
    assert post_event(client, body).status_code == 204
    [row] = stored(app)
    assert row.details == dt


UNICODE_OK = ["😀 emoji", "\u202eRTL override", "e\u0301 combining", "\ufeffBOM inside", "\u2028line separator",
              "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\U0010ffff last code point", "中文", "\\u escapes \\ud83d\\ude00"]


@pytest.mark.postgres
def test_unicode_that_can_be_stored_is_stored_exactly(app, client, issued):
    for i, text in enumerate(UNICODE_OK):
        body = minimal(issued, e=f"e{i}", vn=text[:255], dt=[{text: text}], cn=text)
        assert post_event(client, json.dumps(body, ensure_ascii=i % 2 == 0)).status_code == 204, text
    rows = {row.event_name: row for row in stored(app)}
    for i, text in enumerate(UNICODE_OK):
        assert rows[f"e{i}"].vendor_name == text and rows[f"e{i}"].details == [{text: text}]
