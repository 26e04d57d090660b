"""Body reading and validation as plain functions (no server, no database)."""
from __future__ import annotations

import io
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from tagcrawl.core.errors import ApiError
from tagcrawl.core.schemas import StreamEventRequestSchema, json_bounds_problem
from tagcrawl.web.edge import read_capped as read_body  # the one capped reader, shared with the crawl API
from tagcrawl.web.stream_body import check_content_type, format_errors, parse_object, validate_event


def _environ(data: bytes, length: str | None = None, terminated: bool = False) -> dict:
    env = {"wsgi.input": io.BytesIO(data)}
    if length is not None:
        env["CONTENT_LENGTH"] = length
    if terminated:
        env["wsgi.input_terminated"] = True
    return env


def test_read_body_by_content_length():
    assert read_body(_environ(b"abcdef", "3"), 10) == b"abc"
    assert read_body(_environ(b"", "0"), 10) == b""
    with pytest.raises(ApiError) as info:
        read_body(_environ(b"x" * 11, "11"), 10)
    assert info.value.status == 413
    with pytest.raises(ApiError) as info:
        read_body(_environ(b"x", "abc"), 10)
    assert info.value.status == 400


def test_read_body_without_content_length():
    assert read_body(_environ(b"x" * 10, terminated=True), 10) == b"x" * 10
    with pytest.raises(ApiError):
        read_body(_environ(b"x" * 11, terminated=True), 10)
    big = io.BytesIO(b"x" * (10 * 1024 * 1024))
    with pytest.raises(ApiError):
        read_body({"wsgi.input": big, "wsgi.input_terminated": True}, 64 * 1024)
    assert big.tell() <= 64 * 1024 + 1  # stopped reading right after the limit
    assert read_body(_environ(b"{}"), 10) == b""  # unterminated stream without length: not read


@pytest.mark.parametrize("value", [None, "", "application/json", "APPLICATION/JSON; charset=UTF-8",
                                   "text/plain;charset=UTF-8", 'text/plain; charset="utf-8"'])
def test_content_types_accepted(value):
    check_content_type(value)


@pytest.mark.parametrize("value", ["application/xml", "text/html", "text/plain; charset=utf-16"])
def test_content_types_refused(value):
    with pytest.raises(ApiError) as info:
        check_content_type(value)
    assert info.value.status == 415


def test_bom_is_accepted():
    assert parse_object(b"\xef\xbb\xbf{}") == {}


def test_format_errors_follows_the_schema_order():
    messages = {"e": ["Missing."], "zz": ["Bad."], "t": ["Not a valid UUID."], "dt": {0: ["Every item."]},
                "_schema": ["Whole."]}
    assert format_errors(messages) == "t: Not a valid UUID.; e: Missing.; dt.0: Every item.; zz: Bad.; body: Whole."


def test_json_bounds():
    assert json_bounds_problem([{"a": [1, 2, {"b": "x" * 10}]}]) is None
    assert json_bounds_problem([[[[[[[[[0]]]]]]]]]) == "Nested too deeply."
    assert json_bounds_problem(list(range(101))) == "Too many items."
    assert json_bounds_problem({"k" * 129: 1}) == "Too long."


def test_loaded_types():
    token = str(uuid.uuid4())
    data = validate_event({"t": token.upper(), "vn": "x", "e": "y", "rl": 5, "sid": token, "extra": 1})
    assert data["t"] == uuid.UUID(token) and data["rl"] == "5" and data["sid"] == uuid.UUID(token)
    assert data["extra"] == 1


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20)
KEYS = st.sampled_from(sorted(StreamEventRequestSchema().fields) + ["x", "np2"])


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.dictionaries(KEYS, JSON_VALUES, max_size=8))
def test_any_object_loads_or_gets_a_400_naming_a_field(body):
    try:
        validate_event(body)
    except ApiError as exc:
        assert exc.status == 400
        assert exc.message.split(":", 1)[0].split(".")[0] in set(body) | {"t", "vn", "e", "body"}


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_parse_or_get_a_400(data):
    try:
        assert isinstance(parse_object(data), dict)
    except ApiError as exc:
        assert exc.status == 400


VALID_EVENT = {
    "t": "0b8a3a5e-7f4e-4c56-9d3e-2f1f7c9c1a11", "vn": "Facebook Pixel", "e": "Purchase", "dm": "gtm", "mv": "1.4",
    "sv": "2024.05", "tm": 1.7e12, "m": "POST", "vu": "https://www.facebook.com/tr/?id=1", "u": "https://shop.example/a",
    "p": "/a", "dt": [{"value": 4.5, "ids": ["a"]}], "np": [{"q": 1}], "s": "gtm", "rl": 20240501, "env": "prod",
    "do": "GTM-1", "et": 37, "vid": None, "cn": "C1:1", "sid": "1b8a3a5e-7f4e-4c56-9d3e-2f1f7c9c1a11", "cid": "c-7",
    "undeclared": {"k": [1, 2]},
}
#: Values that sit on the edges of the stream fields' checks.
EDGE_VALUES = st.sampled_from([
    None, True, 0, -1, 1.5, 2 ** 53, 2 ** 53 + 1, 1e300, "", "x", "x" * 64, "x" * 65, "x" * 255, "x" * 256,
    "x" * 2049, "GET", "0B8A3A5E-7F4E-4C56-9D3E-2F1F7C9C1A11", "{0b8a3a5e-7f4e-4c56-9d3e-2f1f7c9c1a11}",
    "0b8a3a5e7f4e4c569d3e2f1f7c9c1a11", "https://a.example/" + "p" * 2040, "ftp://a.example/", "https://a b/",
    [], [{}], [1], [{"a": "x" * 4097}], [[]], {"a": 1}, [{"a": [[[[[[[[1]]]]]]]]}],
])
EVENT_KEYS = st.sampled_from(sorted(VALID_EVENT) + ["x", "k" * 129])


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.dictionaries(EVENT_KEYS, EDGE_VALUES | JSON_VALUES, max_size=4), st.sets(EVENT_KEYS, max_size=3))
def test_quick_load_gives_loads_result(changes, dropped):
    """quick_load == load for every body load accepts, None for every body it refuses."""
    schema = StreamEventRequestSchema()
    body = {key: value for key, value in {**VALID_EVENT, **changes}.items() if key not in dropped}
    quick = schema.quick_load(body)
    try:
        loaded = schema.load(body)
    except ValidationError:
        assert quick is None
        return
    assert quick == loaded  # so the quick path takes every body that load accepts


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.dictionaries(KEYS, JSON_VALUES, max_size=8))
def test_quick_load_of_any_object(body):
    schema = StreamEventRequestSchema()
    try:
        loaded = schema.load(body)
    except ValidationError:
        assert schema.quick_load(body) is None
    else:
        assert schema.quick_load(body) == loaded


def test_quick_load_takes_valid_events():
    schema = StreamEventRequestSchema()
    assert schema.quick_load(VALID_EVENT) == schema.load(VALID_EVENT)
    assert schema.quick_load({"t": VALID_EVENT["t"], "vn": "v", "e": "e"}) is not None


def test_round_trip_of_a_valid_body():
    body = {"t": str(uuid.uuid4()), "vn": "v", "e": "e", "dt": [{"a": [1, {"b": None}]}], "tm": 1.5e12}
    assert validate_event(json.loads(json.dumps(body)))["dt"] == body["dt"]


URL_PARTS = st.sampled_from([
    "http", "https", "HTTPS", "ftp", "javascript:", "://", ":", "//", "/", "?", "#", "@", "user:pw@", "[", "]",
    "::1", "[::1]", "example", ".", "com", "-", "xn--bcher-kva", "bücher", "localhost", "127.0.0.1", "999.1.1.1",
    ":8080", ":x", " ", "\t", "\n", "%20", "a=b&c", "é", "_", "*", "a" * 63, "a" * 64,
])


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(st.lists(URL_PARTS, max_size=10).map("".join))
def test_head_cached_url_gives_marshmallows_verdict(value):
    """HeadCachedURL (memoized head + tail pattern) == marshmallow's URL validator, for any input."""
    from marshmallow import ValidationError, validate

    from tagcrawl.core.schemas.common import HeadCachedURL

    options = {"relative": False, "absolute": True, "schemes": {"http", "https"}, "require_tld": False}
    verdicts = []
    for validator in (validate.URL(**options), HeadCachedURL(**options), HeadCachedURL(**options)):
        for _ in range(2):  # the second call of a HeadCachedURL comes from its memo
            try:
                validator(value)
                verdicts.append(True)
            except ValidationError:
                verdicts.append(False)
    assert len(set(verdicts)) == 1, (value, verdicts)


@pytest.mark.parametrize("value", [
    "https://www.facebook.com/tr/?id=1&ev=Purchase", "http://localhost", "https://shop.example.com:8443/a?b#c",
    "https://user:pw@example.com/", "http://[::1]:8000/x", "https://bücher.example/ü",
])
def test_head_cached_url_accepts_real_urls(value):
    from tagcrawl.core.schemas.common import HeadCachedURL

    assert HeadCachedURL(schemes={"http", "https"}, require_tld=False)(value) == value
