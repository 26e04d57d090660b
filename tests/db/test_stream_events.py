"""GET /api/v1/events (filters, cursor pages) and `flask events export`."""
from __future__ import annotations

import csv
import io
import json
from datetime import timedelta

import pytest

from tagcrawl.stream.events import decode_cursor, encode_cursor, parse_time
from tagcrawl.stream.tenants import issue_token

from tests.support.stream_support import FIXED_MS, FIXED_NOW, FixedClock, minimal, post_event, stream_app

FIXTURES = (stream_app)  # imported for pytest

pytestmark = pytest.mark.postgres

API = "/api/v1/events"


@pytest.fixture
def api_key(app):
    """An all-customers (admin) key: these tests read every customer (tenancy: test_tenancy.py)."""
    from tagcrawl.accounts.apikeys import create_key

    with app.app_context():
        return create_key("events-admin", all_customers=True)[1]


@pytest.fixture
def events(app, stream_app):
    """10 events: acme (shop.example.com) 7, globex (globex.example.net) 3, one minute apart from FIXED_NOW."""
    with app.app_context():
        acme = issue_token("acme", ["shop.example.com"]).token
        globex = issue_token("globex", ["globex.example.net"]).token
    clock = FixedClock()
    client = stream_app(STREAM_CLOCK=clock).test_client()
    for i in range(10):
        clock.now = FIXED_NOW + timedelta(minutes=i)
        token, origin = (acme, "https://shop.example.com") if i < 7 else (globex, "https://globex.example.net")
        body = minimal(token, e="Purchase" if i % 2 else "PageView",
                       vn="Facebook Pixel" if i < 5 else "Google Analytics", dt=[{"i": i}])
        assert post_event(client, body, origin=origin).status_code == 204
    return 10


def _get(client, api_key, **params):
    return client.get(API, query_string=params, headers={"x-api-key": api_key})


def test_requires_an_api_key(client):
    assert client.get(API).status_code == 401
    assert client.get(API, headers={"x-api-key": "nope"}).status_code == 401


def test_lists_events_in_time_order(client, api_key, events):
    body = _get(client, api_key).get_json()
    assert [e["details"][0]["i"] for e in body["events"]] == list(range(10))
    assert body["next_cursor"] is None
    first = body["events"][0]
    assert first["customer"] == "acme" and first["domain"] == "example.com"
    assert first["event_timestamp"] == FIXED_NOW.isoformat()
    assert "np" not in first and "id" not in first


@pytest.mark.parametrize("params, indexes", [
    ({"customer": "globex"}, [7, 8, 9]),
    ({"domain": "globex.example.net"}, [7, 8, 9]),
    ({"domain": "example.com"}, list(range(7))),
    ({"vendor": "facebook"}, list(range(5))),
    ({"event": "Purchase"}, [1, 3, 5, 7, 9]),
    ({"since": (FIXED_NOW + timedelta(minutes=8)).isoformat()}, [8, 9]),
    ({"until": (FIXED_NOW + timedelta(minutes=2)).isoformat()}, [0, 1]),
    ({"customer": "acme", "event": "PageView", "since": "2024-05-01T12:02:00Z"}, [2, 4, 6]),
])
def test_filters(client, api_key, events, params, indexes):
    body = _get(client, api_key, **params).get_json()
    assert [e["details"][0]["i"] for e in body["events"]] == indexes


def test_cursor_pagination(client, api_key, events):
    seen, cursor, pages = [], None, 0
    while True:
        params = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        body = _get(client, api_key, **params).get_json()
        seen += [e["details"][0]["i"] for e in body["events"]]
        pages += 1
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert seen == list(range(10)) and pages == 4


def test_cursor_pages_through_rows_with_the_same_time(app, client, api_key, stream_app):
    """Rows that share event_timestamp are ordered by id; no page skips or repeats one."""
    with app.app_context():
        token = issue_token("acme", ["shop.example.com"]).token
    ingest = stream_app(STREAM_CLOCK=FixedClock()).test_client()
    for i in range(7):
        body = minimal(token, tm=FIXED_MS, dt=[{"i": i}])
        assert post_event(ingest, body, origin="https://shop.example.com").status_code == 204
    seen, cursor = [], None
    while True:
        body = _get(client, api_key, limit=2, **({"cursor": cursor} if cursor else {})).get_json()
        seen += [e["details"][0]["i"] for e in body["events"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert seen == list(range(7))


def test_unknown_customer_matches_nothing(client, api_key, events):
    assert _get(client, api_key, customer="initech").get_json()["events"] == []


def test_limit_is_capped(client, api_key, events):
    assert len(_get(client, api_key, limit=100000).get_json()["events"]) == 10


@pytest.mark.parametrize("params, field", [
    ({"limit": "x"}, "limit"), ({"limit": 0}, "limit"), ({"cursor": "garbage"}, "cursor"),
    ({"since": "yesterday"}, "since"), ({"until": "2024-13-01"}, "until"),
])
def test_bad_parameters_are_400(client, api_key, params, field):
    response = _get(client, api_key, **params)
    assert response.status_code == 400
    assert response.get_json()["message"].startswith(f"{field}:")


def test_cursor_round_trip():
    assert decode_cursor(encode_cursor(FIXED_NOW, 42)) == (FIXED_NOW, 42)
    with pytest.raises(ValueError):
        decode_cursor(encode_cursor(FIXED_NOW, 42)[:-3] + "!!!")


def test_parse_time():
    assert parse_time("2024-05-01") == FIXED_NOW - timedelta(hours=12)
    assert parse_time("24h", now=FIXED_NOW) == FIXED_NOW - timedelta(days=1)
    assert parse_time("2w", now=FIXED_NOW) == FIXED_NOW - timedelta(weeks=2)
    with pytest.raises(ValueError):
        parse_time("soon")


def test_export_jsonl_to_a_file(runner, events, tmp_path):
    out = tmp_path / "events.jsonl"
    result = runner.invoke(args=["events", "export", "--since", "2024-05-01", "--format", "jsonl",
                                 "--output", str(out), "--customer", "acme"])
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert [json.loads(line)["details"][0]["i"] for line in lines] == list(range(7))
    assert "exporting 7 events" in result.stderr
    assert "exported 7 events" in result.stderr


def test_export_csv_to_stdout(runner, events):
    result = runner.invoke(args=["events", "export", "--since", "2024-05-01T12:05:00Z", "--format", "csv"])
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [json.loads(r["details"])[0]["i"] for r in rows] == [5, 6, 7, 8, 9]
    assert rows[0]["vendor"] == "google_analytics"
    assert rows[0]["is_bot"] == "false"


def test_export_refuses_a_bad_since(runner):
    result = runner.invoke(args=["events", "export", "--since", "whenever"])
    assert result.exit_code == 2
    assert "whenever" in result.output


def test_export_of_nothing(runner, app):
    result = runner.invoke(args=["events", "export", "--since", "1h"])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "exported 0 events" in result.stderr


def test_client_time_orders_events(app, client, api_key, stream_app):
    """event_timestamp (client time within the skew window) is the order, not arrival."""
    with app.app_context():
        token = issue_token("acme", ["shop.example.com"]).token
    late = stream_app(STREAM_CLOCK=FixedClock()).test_client()
    assert post_event(late, minimal(token, e="second", tm=FIXED_MS - 1000)).status_code == 204
    assert post_event(late, minimal(token, e="first", tm=FIXED_MS - 2000)).status_code == 204
    names = [e["event_name"] for e in _get(client, api_key).get_json()["events"]]
    assert names == ["first", "second"]
