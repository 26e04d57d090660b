"""Caller input: counts before items (issue 24, "Lower" items; docs/security.md,
"Caller input: counts before items").  Without PostgreSQL: the bounds
themselves, and event cursors on SQLite, where an id of 2**63 was a 500.
Through the API on PostgreSQL: tests/db/test_caller_bounds_db.py."""
from __future__ import annotations

import base64
import json
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from marshmallow import ValidationError, fields

from tagcrawl import create_app
from tagcrawl.crawl.screenshots import save_screenshot, screenshot_base
from tagcrawl.web.edge import json_object
from tagcrawl.core.schemas import CappedList, CrawlRequestSchema, canonical_token, replace_lone_surrogates
from tagcrawl.core.settings import Settings
from tagcrawl.stream.events import ID_MAX, decode_cursor, encode_cursor
from tagcrawl.core.types import RULES_MAX

TOKEN = "0f8fad5b-d9cb-469f-a165-70867728950e"


# --- validationRules: the count before the items ------------------------------------------------


class CountingString(fields.String):
    """An item field that counts the items it is asked to load."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.loaded = 0

    def _deserialize(self, value, attr, data, **kwargs):
        self.loaded += 1
        return super()._deserialize(value, attr, data, **kwargs)


def test_a_capped_list_over_its_cap_never_loads_an_item():
    inner = CountingString()
    field = CappedList(inner, 3)
    with pytest.raises(ValidationError) as caught:
        field.deserialize(["a"] * 60_000)
    assert caught.value.messages == ["Too many items (at most 3)."]
    assert caught.value.messages[0].type == "too_long"
    assert inner.loaded == 0  # the bound: no item touched
    assert field.deserialize(["a", "b", "c"]) == ["a", "b", "c"] and inner.loaded == 3


def test_60000_empty_rules_give_one_short_error():
    """60,000 ``{}`` rules made 360,000 errors (a 27 MB answer, 5 s); now one message."""
    body = {"url": "https://shop.example/", "session_id": None, "validationRules": [{}] * 60_000}
    with pytest.raises(ValidationError) as caught:
        CrawlRequestSchema().load(body)
    assert caught.value.messages == {"validationRules": [f"Too many items (at most {RULES_MAX})."]}
    assert len(json.dumps(caught.value.messages)) < 100
    assert CrawlRequestSchema().fields["validationRules"].metadata["maxItems"] == RULES_MAX


# --- the stream rate limit: one bucket per token, whatever its spelling ---------------------------


def spellings(token: str) -> list[str]:
    """30 distinct spellings of one uuid that ``uuid.UUID`` (the stream schema) accepts:
    3 cases x with or without hyphens x 5 wrappers (none, braces, double braces, ``urn:uuid:``, both)."""
    letters = iter(range(len(token)))
    mixed = "".join(c.upper() if c.isalpha() and next(letters) % 2 else c for c in token)
    out = [wrapper.format(hyphens(case))
           for case in (token.lower(), token.upper(), mixed)
           for hyphens in (lambda t: t, lambda t: t.replace("-", ""))
           for wrapper in ("{}", "{{{}}}", "{{{{{}}}}}", "urn:uuid:{}", "urn:uuid:{{{}}}")]
    return list(dict.fromkeys(out))


def test_every_spelling_of_a_token_is_one_canonical_token():
    variants = spellings(TOKEN)
    assert len(variants) == 30
    assert {str(uuid.UUID(v)) for v in variants} == {TOKEN}  # all valid for the schema
    assert {canonical_token(v) for v in variants} == {TOKEN}
    assert canonical_token("not a token") is None and canonical_token(42) is None and canonical_token(None) is None


# --- event cursors: positions, range-checked -------------------------------------------------------


def test_cursor_positions_round_trip_and_clamp():
    stamp = datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)
    assert encode_cursor(stamp, 42) == "1714564800123456_42"
    assert decode_cursor("1714564800123456_42") == (stamp, 42)
    for edge in (datetime.min.replace(tzinfo=timezone.utc), datetime.max.replace(tzinfo=timezone.utc)):
        assert decode_cursor(encode_cursor(edge, ID_MAX)) == (edge, ID_MAX)
    first = (datetime.min.replace(tzinfo=timezone.utc), 0)
    last = (datetime.max.replace(tzinfo=timezone.utc), ID_MAX)
    assert decode_cursor(f"0_{2 ** 63}") == (datetime(1970, 1, 1, tzinfo=timezone.utc), ID_MAX)
    assert decode_cursor("9" * 19 + "_" + "9" * 19) == last
    assert decode_cursor("-" + "9" * 19 + "_5") == first
    for bad in ("", "_1", "1_", "1_-1", "1.5_1", "1_1\n", "9" * 20 + "_1", "WyIyMDI0LTA1LTAxIiwgNDJd"):
        with pytest.raises(ValueError):
            decode_cursor(bad)


@pytest.fixture
def sqlite_events():
    """An app on in-memory SQLite with three events and an all-customers key."""
    from tagcrawl.accounts.apikeys import create_key
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import StreamEvent

    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "TESTING": True})
    base = datetime(2024, 5, 1, tzinfo=timezone.utc)
    with app.app_context():
        db.create_all()
        for i in range(3):
            db.session.add(StreamEvent(event_timestamp=base + timedelta(minutes=i), vendor="facebook",
                                       vendor_name="Meta Pixel", event_name=f"E{i}"))
        db.session.commit()
        key = create_key("sqlite-reader", all_customers=True)[1]
    return app.test_client(), key


@pytest.mark.parametrize("cursor, names", [
    (f"0_{2 ** 63}", ["E0", "E1", "E2"]),                     # an id past a signed 64-bit INTEGER: was a 500
    (f"{2 ** 63}_{2 ** 63}", []),                             # a time past year 9999 and a huge id: the end
    ("-" + "9" * 19 + "_" + "9" * 19, ["E0", "E1", "E2"]),  # before year 1: the start
    ("1714521600000000_" + str(2 ** 63 - 1), ["E1", "E2"]),  # exactly the first row's time, the largest id
])
@pytest.mark.slow
def test_cursor_ids_past_64_bits_are_positions_on_sqlite(sqlite_events, cursor, names):
    client, key = sqlite_events
    response = client.get("/api/v1/events", query_string={"cursor": cursor}, headers={"x-api-key": key})
    assert response.status_code == 200, response.get_data(as_text=True)
    assert [e["event_name"] for e in response.get_json()["events"]] == names


@pytest.mark.parametrize("cursor", [
    base64.urlsafe_b64encode(json.dumps(["2024-05-01T00:00:00+00:00", 2 ** 63]).encode()).decode().rstrip("="),
    "1_" + "9" * 20, "x" * 5000, "1_1 ",
])
def test_a_cursor_of_another_shape_is_a_400_naming_it(sqlite_events, cursor):
    client, key = sqlite_events
    response = client.get("/api/v1/events", query_string={"cursor": cursor}, headers={"x-api-key": key})
    assert response.status_code == 400
    assert response.get_json() == {"error": True, "message": "cursor: Must be a cursor of this API, "
                                   "<microseconds>_<id> (the next_cursor of the previous page)."}


# --- lone surrogates: kept as U+FFFD, NUL still refused -------------------------------------------


def test_lone_surrogates_become_replacement_characters():
    text = '{"url": "https://shop.example/\\ud800", "user": {"k\\udfff": ["\\ud83d", "\\ud83d\\ude00"]}}'
    data = json_object(text.encode())
    assert data == {"url": "https://shop.example/\ufffd", "user": {"k\ufffd": ["\ufffd", "\U0001F600"]}}
    json.dumps(data, ensure_ascii=False).encode("utf-8")  # storable: no surrogate left
    assert replace_lone_surrogates("a\udc00b") == "a\ufffdb"
    untouched = {"a": "\ud800"}
    assert replace_lone_surrogates(untouched, '{"a": "x"}') is untouched  # no escape in the text: not walked
    with pytest.raises(ValidationError) as caught:
        json_object(b'{"user": {"a": "\\u0000"}}')
    assert caught.value.messages[0].type == "string_unicode"


# --- screenshot URLs: from settings, never from the Host header -----------------------------------


@pytest.mark.parametrize("config, base", [
    ({}, "/screenshots/"),
    ({"public_url": "https://tagcrawl.example.com/audit/"}, "https://tagcrawl.example.com/audit/screenshots/"),
    ({"public_url": "https://tagcrawl.example.com", "screenshot_url": "https://cdn.example/shots"},
     "https://cdn.example/shots/"),
])
def test_screenshot_urls_come_from_settings(tmp_path, config, base):
    settings = Settings(screenshot_dir=str(tmp_path), **config)
    assert screenshot_base(settings) == base
    url = save_screenshot(settings, b"\x89PNG")
    assert url.startswith(base) and (tmp_path / url[len(base):]).read_bytes() == b"\x89PNG"


def test_public_url_setting_from_the_environment():
    assert Settings.from_env({"TAGCRAWL_PUBLIC_URL": "https://t.example"}).public_url == "https://t.example"
    assert Settings.from_env({}).public_url is None
