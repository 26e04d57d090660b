"""Normalization: every stored field from a full example, np, clock skew, client metadata."""
from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest

from tagcrawl.core.extensions import db
from tagcrawl.core.models import StreamEvent
from tagcrawl.stream.useragent import browser_info, client_ip, ip_prefix
from tagcrawl.stream.normalize import MAX_SKEW_MS, event_time
from tagcrawl.engine.vendors import vendor_key_for

from tests.support.stream_support import (CHROME_UA, FIXED_MS, FIXED_NOW, FixedClock, issued, minimal,
                                  post_event, stored, stream_app)

FIXTURES = (issued, stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres

SESSION = "6f1c2b5e-9a0e-4d5f-8c1e-2d3b4a5c6d7e"


def full_example(token: str) -> dict:
    return {
        "t": token, "vn": "Facebook Pixel", "e": "Purchase", "dm": "gtm", "mv": "1.4.2", "sv": "2024.05.01",
        "tm": FIXED_MS - 1500.25, "m": "get",
        "vu": "https://www.facebook.com/tr/?id=1234567890123456&ev=Purchase",
        "u": "https://www.shop.example.com/checkout/done?order=9", "p": "/checkout/done",
        "dt": [{"value": 42.5, "currency": "EUR"}, {"content_ids": ["sku-1"]}],
        "np": [{"debug_cookie": "secret-np-value"}],
        "s": "gtm-template", "rl": 20240501, "env": "production", "do": "GTM-ABC123", "et": 37,
        "vid": "evt-123", "cn": "C0001:1,C0002:0", "sid": SESSION, "cid": "customer-77",
        "campaign": {"utm": "spring"}, "flag": True,
    }


def test_every_field_of_a_full_example(app, stream_app, issued):
    client = stream_app(STREAM_CLOCK=FixedClock(), TRUSTED_PROXIES=1).test_client()
    response = post_event(client, full_example(issued), headers={"X-Forwarded-For": "198.51.100.7, 203.0.113.77"})
    assert response.status_code == 204
    [row] = stored(app)
    uuid.UUID(row.event_id, version=4)
    with app.app_context():
        customer_id = db.session.scalar(db.text("select id from customers where name = 'acme'"))
    expected = {
        "customer_id": customer_id,
        "received_at": FIXED_NOW,
        "client_timestamp": FIXED_MS - 1500,
        "event_timestamp": FIXED_NOW - timedelta(milliseconds=1500.25),
        "clock_skew_ms": -1500,
        "vendor": "facebook",
        "vendor_name": "Facebook Pixel",
        "event_name": "Purchase",
        "domain": "example.com",
        "host": "www.shop.example.com",
        "page_url": "https://www.shop.example.com/checkout/done?order=9",
        "page_path": "/checkout/done",
        "vendor_url": "https://www.facebook.com/tr/?id=1234567890123456&ev=Purchase",
        "http_method": "GET",
        "deployment_method": "gtm",
        "tag_version": "1.4.2",
        "deployment_version": "2024.05.01",
        "release": "20240501",
        "environment": "production",
        "container": "GTM-ABC123",
        "execution_ms": 37,
        "vendor_event_id": "evt-123",
        "consent_state": "C0001:1,C0002:0",
        "session_id": SESSION,
        "customer_ref": "customer-77",
        "system": "gtm-template",
        "details": [{"value": 42.5, "currency": "EUR"}, {"content_ids": ["sku-1"]}],
        "extra": {"campaign": {"utm": "spring"}, "flag": True},
        "browser_family": "Chrome",
        "browser_version": "120.0.6099",
        "os_family": "Windows",
        "os_version": "10",
        "device_family": "Other",
        "is_bot": False,
        "ip_prefix": "203.0.113.0/24",
        "user_agent": CHROME_UA,
    }
    actual = {name: getattr(row, name) for name in expected}
    assert actual == expected
    columns = {c.name for c in StreamEvent.__table__.columns} - {"id", "event_id"}
    assert columns == set(expected), "every column is covered by this test"


def test_np_is_never_stored(app, client, issued):
    assert post_event(client, full_example(issued)).status_code == 204
    with app.app_context():
        dumped = db.session.execute(db.text("select row_to_json(s)::text from stream_events s")).scalar_one()
    assert "secret-np-value" not in dumped and "debug_cookie" not in dumped
    assert '"np"' not in dumped


def test_json_columns_are_jsonb_on_postgresql(app, client, issued):
    assert post_event(client, full_example(issued)).status_code == 204
    with app.app_context():
        kinds = db.session.execute(db.text(
            "select pg_typeof(details)::text, pg_typeof(extra)::text from stream_events")).one()
    assert tuple(kinds) == ("jsonb", "jsonb")


def test_minimal_event_defaults(app, stream_app, issued):
    client = stream_app(STREAM_CLOCK=FixedClock()).test_client()
    assert post_event(client, minimal(issued), origin="https://a.acme.test").status_code == 204
    [row] = stored(app)
    assert row.received_at == row.event_timestamp == FIXED_NOW
    assert row.client_timestamp is None and row.clock_skew_ms is None
    assert (row.domain, row.host) == ("acme.test", "a.acme.test")  # from the origin when there is no `u`
    assert row.page_url is None and row.page_path is None and row.details is None and row.extra is None


@pytest.mark.parametrize("skew_ms, trusted", [
    (0, True), (MAX_SKEW_MS, True), (-MAX_SKEW_MS, True), (MAX_SKEW_MS + 1, False), (-MAX_SKEW_MS - 1, False),
    (-86_400_000, False),
])
def test_skew_rule_with_a_fixed_clock(app, stream_app, issued, skew_ms, trusted):
    client = stream_app(STREAM_CLOCK=FixedClock()).test_client()
    assert post_event(client, minimal(issued, tm=FIXED_MS + skew_ms)).status_code == 204
    [row] = stored(app)
    assert row.received_at == FIXED_NOW
    assert row.client_timestamp == FIXED_MS + skew_ms
    assert row.clock_skew_ms == skew_ms
    assert row.event_timestamp == (FIXED_NOW + timedelta(milliseconds=skew_ms) if trusted else FIXED_NOW)


def test_event_time_keeps_sub_millisecond_precision_of_tm():
    client_ms, when, skew = event_time(FIXED_MS + 0.5, FIXED_NOW)
    assert (client_ms, skew) == (FIXED_MS, 0) or (client_ms, skew) == (FIXED_MS + 1, 0)
    assert when == FIXED_NOW + timedelta(microseconds=500)


def test_vendor_from_the_url_or_unknown(app, client, issued):
    post_event(client, minimal(issued, vn="Some Tag", vu="https://www.google-analytics.com/g/collect?tid=G-X"))
    post_event(client, minimal(issued, vn="Nobody Knows"))
    rows = stored(app)
    from_url = vendor_key_for(None, "https://www.google-analytics.com/g/collect?tid=G-X")
    assert from_url != "unknown"
    assert [r.vendor for r in rows] == [from_url, "unknown"]
    assert [r.vendor_name for r in rows] == ["Some Tag", "Nobody Knows"]


def test_bot_user_agent(app, client, issued):
    ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    assert post_event(client, minimal(issued), headers={"User-Agent": ua}).status_code == 204
    [row] = stored(app)
    assert row.is_bot is True
    assert row.device_family == "Spider"


def test_ipv6_prefix_and_untrusted_forwarded_for(app, client, issued):
    headers = {"X-Forwarded-For": "203.0.113.77"}
    response = post_event(client, minimal(issued), headers=headers,
                          environ_base={"REMOTE_ADDR": "2001:db8:abcd:12:34::1"})
    assert response.status_code == 204
    [row] = stored(app)
    assert row.ip_prefix == "2001:db8:abcd::/48"  # TRUSTED_PROXIES=0: X-Forwarded-For is ignored


@pytest.mark.parametrize("trusted, forwarded, expected", [
    (0, "1.1.1.1", "10.0.0.1"),
    (1, "1.1.1.1", "1.1.1.1"),
    (1, "6.6.6.6, 1.1.1.1", "1.1.1.1"),
    (2, "6.6.6.6, 1.1.1.1, 2.2.2.2", "1.1.1.1"),
    (2, "2.2.2.2", "10.0.0.1"),  # fewer hops than trusted proxies: not believed
    (1, None, "10.0.0.1"),
])
def test_client_ip_has_proxyfix_semantics(trusted, forwarded, expected):
    environ = {"REMOTE_ADDR": "10.0.0.1"}
    if forwarded:
        environ["HTTP_X_FORWARDED_FOR"] = forwarded
    assert client_ip(environ, trusted) == expected


@pytest.mark.parametrize("addr, prefix", [
    ("203.0.113.77", "203.0.113.0/24"),
    ("::ffff:203.0.113.77", "203.0.113.0/24"),
    ("2001:db8:1:2::1", "2001:db8:1::/48"),
    ("[2001:db8:1:2::1]:443", "2001:db8:1::/48"),
    ("203.0.113.77:5555", "203.0.113.0/24"),
    ("garbage", None),
    (None, None),
])
def test_ip_prefix(addr, prefix):
    assert ip_prefix(addr) == prefix


def test_browser_info_is_memoized_and_bounded():
    browser_info.cache_clear()
    first = browser_info(CHROME_UA)
    assert browser_info(CHROME_UA) is first
    assert browser_info.cache_info().hits == 1
    long_family = browser_info("X" * 5000)
    assert all(len(v) <= 64 for v in long_family[:5] if v)


def test_extra_keeps_undeclared_keys_as_json(app, client, issued):
    body = minimal(issued, **{"custom": {"nested": [1, 2, {"k": None}]}, "n": 1.5})
    assert post_event(client, json.dumps(body)).status_code == 204
    [row] = stored(app)
    assert row.extra == {"custom": {"nested": [1, 2, {"k": None}]}, "n": 1.5}
