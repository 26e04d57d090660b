"""POST /stream/api/v1: every answer, their order, content types, size limit, CORS."""
from __future__ import annotations

import http.client
import io
import json
import threading
import uuid
from datetime import timedelta

import pytest
from werkzeug.serving import make_server

from tagcrawl.core.extensions import db
from tagcrawl.core.models import IngestToken

from tests.support.stream_support import (FIXED_NOW, ORIGIN, URL, FixedClock, count_rows, issued, minimal,
                                  post_event, stored, stream_app)
from tagcrawl.core.settings import settings_of

FIXTURES = (issued, stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres


def _message(response) -> str:
    body = response.get_json()
    assert body["error"] is True
    return body["message"]


# --- 204 and content types ----------------------------------------------------

@pytest.mark.parametrize("content_type", ["application/json", "text/plain;charset=UTF-8", "text/plain",
                                          "application/json; charset=utf-8", None])
def test_accepted_content_types_store_the_event(app, client, issued, content_type):
    response = post_event(client, minimal(issued), content_type=content_type)
    assert response.status_code == 204
    assert response.data == b""
    assert "Content-Type" not in response.headers
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert count_rows(app) == 1


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                          "text/plain;charset=ISO-8859-1"])
def test_other_content_types_are_refused(app, client, issued, content_type):
    response = post_event(client, minimal(issued), content_type=content_type)
    assert response.status_code == 415
    assert "Content-Type" in _message(response) or "charset" in _message(response)
    assert count_rows(app) == 0


# --- 413: size limit ----------------------------------------------------------

def _padded(token: str, size: int) -> bytes:
    """A valid event padded with JSON whitespace to exactly ``size`` bytes."""
    text = json.dumps(minimal(token))
    return (text[:-1] + " " * (size - len(text.encode())) + "}").encode()


def test_body_at_the_limit_is_accepted_and_one_byte_over_is_413(app, client, issued):
    limit = settings_of(app).stream_max_bytes
    assert limit == 64 * 1024
    assert post_event(client, _padded(issued, limit)).status_code == 204
    response = post_event(client, _padded(issued, limit + 1))
    assert response.status_code == 413
    assert str(limit) in _message(response)
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert count_rows(app) == 1


def test_413_comes_before_400(client):
    assert post_event(client, b"x" * (64 * 1024 + 1)).status_code == 413


def _chunked(client, data: bytes):
    """A body without Content-Length, from a server that terminates the input (like gunicorn)."""
    return client.post(URL, input_stream=io.BytesIO(data), headers={"Origin": ORIGIN, "Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})


def test_size_limit_without_content_length(app, client, issued):
    limit = settings_of(app).stream_max_bytes
    response = _chunked(client, _padded(issued, limit))
    assert response.status_code == 204
    assert _chunked(client, _padded(issued, limit + 1)).status_code == 413
    assert count_rows(app) == 1


def test_size_limit_is_a_setting(app, stream_app, issued):
    small = stream_app(STREAM_MAX_BYTES=300)
    client = small.test_client()
    assert post_event(client, _padded(issued, 300)).status_code == 204
    assert post_event(client, _padded(issued, 301)).status_code == 413


def test_chunked_upload_over_a_real_server(app, issued):
    """Chunked transfer through werkzeug's server (which terminates the input stream)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        for size, expected in ((settings_of(app).stream_max_bytes, 204), (settings_of(app).stream_max_bytes + 1, 413)):
            body = _padded(issued, size)
            conn = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=10)
            conn.putrequest("POST", URL)
            conn.putheader("Origin", ORIGIN)
            conn.putheader("Transfer-Encoding", "chunked")
            conn.endheaders()
            for start in range(0, len(body), 4000):
                chunk = body[start:start + 4000]
                conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            conn.send(b"0\r\n\r\n")
            assert conn.getresponse().status == expected
            conn.close()
    finally:
        server.shutdown()
    assert count_rows(app) == 1


# --- 400: body and schema -------------------------------------------------------

@pytest.mark.parametrize("data, expected", [
    (b"", "Body is empty"),
    (b"{not json", "not valid JSON"),
    (b'{"t": NaN}', "not valid JSON"),
    (b"\xff\xfe{}", "UTF-8"),
    (b"[]", "JSON object, not an array"),
    (b'"text"', "JSON object, not a string"),
    (b"42", "JSON object, not a number"),
    (b"null", "JSON object, not null"),
    (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
])
def test_malformed_bodies(client, data, expected):
    response = post_event(client, data)
    assert response.status_code == 400
    assert expected in _message(response)


TOKEN = str(uuid.uuid4())
BAD_FIELDS = [
    ({"t": "not-a-uuid"}, "t: Not a valid UUID."),
    ({"t": None}, "t: Field may not be null."),
    ({"vn": ""}, "vn: Must not be empty."),
    ({"vn": 7}, "vn: Not a valid string."),
    ({"e": ""}, "e: Must not be empty."),
    ({"e": "x" * 256}, "e: Too long."),
    ({"tm": "1714564800000"}, "tm: Not a valid number."),
    ({"tm": True}, "tm: Not a valid number."),
    ({"tm": -1}, "tm: Must be an epoch time"),
    ({"et": 1.5}, "et: Not a valid integer."),
    ({"et": "12"}, "et: Not a valid integer."),
    ({"et": -3}, "et: Must be an integer"),
    ({"rl": True}, "rl: Must be a string or an integer."),
    ({"rl": [1]}, "rl: Must be a string or an integer."),
    ({"rl": "r" * 65}, "rl: Too long."),
    ({"dt": {"a": 1}}, "dt: Not a valid list."),
    ({"dt": [1]}, "dt.0: Every item must be an object."),
    ({"np": ["x"]}, "np.0: Every item must be an object."),
    ({"dt": [{}] * 101}, "dt: Too many items."),
    ({"dt": [{"a": [[[[[[[[1]]]]]]]]}]}, "dt: Nested too deeply."),
    ({"dt": [{"a": "x" * 4097}]}, "dt: Too long."),
    ({"u": "not a url"}, "u: Not a valid URL."),
    ({"u": "javascript:alert(1)"}, "u: Not a valid URL."),
    ({"vu": "https://example.com/" + "a" * 2030}, "vu: Too long."),
    ({"p": "/" + "a" * 2048}, "p: Too long."),
    ({"dm": None}, "dm: Field may not be null."),
    ({"m": "X" * 17}, "m: Too long."),
    ({"sid": "abc"}, "sid: Not a valid UUID."),
    ({"zz": [[[[[[[[[1]]]]]]]]]}, "zz: Nested too deeply."),
    ({**{f"x{i}": 1 for i in range(51)}}, "body: Too many undeclared keys"),
]


@pytest.mark.parametrize("fields, expected", BAD_FIELDS, ids=[m for _f, m in BAD_FIELDS])
def test_schema_errors_name_the_field(client, fields, expected):
    response = post_event(client, minimal(TOKEN, **fields))
    assert response.status_code == 400
    assert expected in _message(response)


@pytest.mark.parametrize("missing", ["t", "vn", "e"])
def test_required_fields(client, missing):
    body = minimal(TOKEN)
    del body[missing]
    response = post_event(client, body)
    assert response.status_code == 400
    assert _message(response) == f"{missing}: Missing data for required field."


def test_nullable_fields_and_url_at_the_cap_are_accepted(app, client, issued):
    url = "https://shop.example.com/" + "a" * (2048 - len("https://shop.example.com/"))
    body = minimal(issued, vid=None, cn=None, cid=None, u=url, vu=url, rl=7, et=0, tm=1.5)
    assert post_event(client, body).status_code == 204


@pytest.mark.parametrize("method, stored", [("get", "GET"), ("ß" * 16, "ß" * 16), ("post\u0131", "POST\u0131")])
def test_a_method_at_its_cap_is_stored_whole(app, client, issued, method, stored):
    # Found by schemathesis: str.upper() turned a 16-character "ß..." into 32 characters, past the
    # column's width, and the event was answered 503.  Only ASCII letters are upper-cased.
    assert post_event(client, minimal(issued, m=method)).status_code == 204
    with app.app_context():
        assert db.session.execute(db.text("select http_method from stream_events")).scalar_one() == stored


# --- 401 and 403 ------------------------------------------------------------------

def test_unknown_token_is_401(client):
    response = post_event(client, minimal(TOKEN))
    assert response.status_code == 401
    assert _message(response) == "Unknown ingestion token."
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN


def test_revoked_token_is_401(app, client, issued):
    from tagcrawl.stream.tenants import revoke_token

    assert post_event(client, minimal(issued)).status_code == 204
    with app.app_context():
        revoke_token(issued)
    response = post_event(client, minimal(issued))
    assert response.status_code == 401
    assert "revoked" in _message(response)


def test_expired_token_is_401(app, stream_app, issued):
    clock = FixedClock(FIXED_NOW)
    with app.app_context():
        row = db.session.scalar(db.select(IngestToken).filter_by(token=issued))
        row.expires_at = FIXED_NOW + timedelta(seconds=1)
        db.session.commit()
    client = stream_app(STREAM_CLOCK=clock).test_client()
    assert post_event(client, minimal(issued, tm=FIXED_NOW.timestamp() * 1000)).status_code == 204
    clock.now = FIXED_NOW + timedelta(seconds=1)
    response = post_event(client, minimal(issued))
    assert response.status_code == 401
    assert "expired" in _message(response)


@pytest.mark.parametrize("headers", [
    {"Origin": None},
    {"Origin": "null"},
    {"Origin": "https://evil.example.org"},
    {"Origin": "https://acme.test"},  # *.acme.test does not cover the apex
    {"Origin": "https://shop.example.com.evil.org"},
    {"Origin": None, "Referer": "https://evil.example.org/page"},
])
def test_origin_not_whitelisted_is_403(app, client, issued, headers):
    origin = headers.pop("Origin")
    response = post_event(client, minimal(issued), origin=origin, headers=headers)
    assert response.status_code == 403
    assert _message(response)
    assert count_rows(app) == 0


@pytest.mark.parametrize("origin, referer", [
    ("https://shop.example.com", None),
    ("http://SHOP.example.com:8080", None),
    ("https://a.acme.test", None),
    ("https://a.b.acme.test", None),
    (None, "https://shop.example.com/cart?x=1"),
])
def test_whitelisted_origins(app, client, issued, origin, referer):
    headers = {"Referer": referer} if referer else {}
    assert post_event(client, minimal(issued), origin=origin, headers=headers).status_code == 204


def test_origin_of_another_customer_is_403(app, client, issued):
    from tagcrawl.stream.tenants import issue_token

    with app.app_context():
        issue_token("globex", ["globex.example.net"])
    response = post_event(client, minimal(issued), origin="https://globex.example.net")
    assert response.status_code == 403


def test_status_order(app, client, issued):
    """413 -> 400 -> 401 -> 403: each check wins over the later ones."""
    too_big = b'{"t": "x"' + b" " * (64 * 1024) + b"}"
    assert post_event(client, too_big, origin="https://evil.example.org").status_code == 413
    assert post_event(client, {"t": "x"}, origin="https://evil.example.org").status_code == 400
    assert post_event(client, minimal(TOKEN), origin="https://evil.example.org").status_code == 401
    assert post_event(client, minimal(issued), origin="https://evil.example.org").status_code == 403
    assert post_event(client, minimal(issued)).status_code == 204


# --- CORS preflight ----------------------------------------------------------------

def test_preflight_for_a_whitelisted_origin(client, issued):
    response = client.options(URL, headers={"Origin": "https://x.acme.test", "Access-Control-Request-Method": "POST",
                                            "Access-Control-Request-Headers": "content-type"})
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "https://x.acme.test"
    assert response.headers["Access-Control-Allow-Methods"] == "POST"
    assert response.headers["Access-Control-Allow-Headers"] == "Content-Type"
    assert response.headers["Access-Control-Max-Age"] == "7200"
    assert "Origin" in response.headers["Vary"]


@pytest.mark.parametrize("origin", ["https://evil.example.org", None])
def test_preflight_for_other_origins_is_403(client, issued, origin):
    response = client.options(URL, headers={"Origin": origin} if origin else {})
    assert response.status_code == 403
    assert "Access-Control-Allow-Methods" not in response.headers


def test_cors_header_on_400(client):
    response = post_event(client, b"{", origin="https://any.example.org")
    assert response.status_code == 400
    assert response.headers["Access-Control-Allow-Origin"] == "https://any.example.org"


# --- 503: the database goes away ----------------------------------------------------

@pytest.mark.parametrize("cache_s", [60, 0], ids=["token-cached", "token-not-cached"])
def test_database_down_gives_503_and_ingestion_resumes(app, stream_app, pg, issued, cache_s):
    client = stream_app(TOKEN_CACHE_S=cache_s).test_client()
    assert post_event(client, minimal(issued)).status_code == 204
    pg.stop()
    try:
        responses = [post_event(client, minimal(issued)) for _ in range(3)]
    finally:
        pg.start_again()
    assert [r.status_code for r in responses] == [503, 503, 503]
    for response in responses:
        assert int(response.headers["Retry-After"]) > 0
        assert "not stored" in _message(response)
    assert post_event(client, minimal(issued)).status_code == 204
    assert count_rows(app) == 2


def test_a_database_restart_between_events_loses_nothing(app, client, pg, issued):
    """The writer's kept connection dies with the server; the next batch reconnects."""
    assert post_event(client, minimal(issued, e="before")).status_code == 204
    pg.stop()
    pg.start_again()
    assert post_event(client, minimal(issued, e="after")).status_code == 204
    assert [row.event_name for row in stored(app)] == ["before", "after"]


def test_token_cache_lives_at_most_its_ttl(app, stream_app, issued):
    """A revocation made elsewhere (another process) is seen once the cache expires."""
    cached = stream_app(TOKEN_CACHE_S=60).test_client()
    uncached = stream_app(TOKEN_CACHE_S=0).test_client()
    assert post_event(cached, minimal(issued)).status_code == 204
    with app.app_context():  # a direct update, as another process would make it
        db.session.execute(db.update(IngestToken).filter_by(token=issued).values(revoked_at=FIXED_NOW))
        db.session.commit()
    assert post_event(cached, minimal(issued)).status_code == 204
    assert post_event(uncached, minimal(issued)).status_code == 401


def test_token_cache_ttl_is_capped_at_60s(stream_app):
    from tagcrawl.core.settings import load_settings

    assert load_settings({"TAGCRAWL_TOKEN_CACHE_S": "600"}).token_cache_s == 60
    assert load_settings({}).stream_batch_size == 100
    assert load_settings({}).stream_batch_wait_ms == 10


def test_stored_rows_equal_204s(app, client, issued):
    statuses = [post_event(client, minimal(issued, e=f"e{i}") if i % 3 else {"t": 1}).status_code for i in range(12)]
    assert statuses.count(204) == count_rows(app) == 8
    assert {row.event_name for row in stored(app)} == {f"e{i}" for i in range(12) if i % 3}
