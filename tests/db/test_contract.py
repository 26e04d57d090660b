"""The contract mismatches Schemathesis found, each pinned by a plain test
(tests/db/test_schemathesis.py runs every Schemathesis check on the whole API)."""
from __future__ import annotations

import pytest

from tagcrawl.web.openapi import build_spec

pytestmark = pytest.mark.postgres


def _crawl(client, api_key, **options):
    return client.post("/api/v1", json={"url": "https://shop.example/", "session_id": None, "options": options},
                       headers={"x-api-key": api_key})


@pytest.mark.parametrize("value", [0, 1, "true", "false"])
def test_options_booleans_are_json_booleans(client, api_key, value):
    response = _crawl(client, api_key, webhook=value)
    assert response.status_code == 422
    assert response.get_json()["detail"][0] == {"loc": ["body", "options", "webhook"], "msg": "Not a valid boolean.",
                                                "type": "bool_type"}


@pytest.mark.parametrize("country", ["WR", "XX", "De", "d"])
def test_country_must_be_an_iso_code(client, api_key, country):
    response = _crawl(client, api_key, country=country)
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["type"] == "country_code"


def test_country_codes_are_documented_exactly(app):
    import re

    options = build_spec(app)["components"]["schemas"]["Options"]["properties"]
    pattern = re.compile(options["country"]["pattern"])
    assert pattern.match("DE") and pattern.match("de") and not pattern.match("WR") and not pattern.match("De")
    assert "enum" not in options["country"]  # generated clients name enum values: AD and ad would clash


@pytest.mark.parametrize("path", ["/api/v1/crawls", "/api/v1/events"])
@pytest.mark.parametrize("query, ok", [
    ("since=2024-05-01", True), ("since=2024-05-01T12:00:00Z", True), ("since=2024-05-01t12:00:00.5-17:44", True),
    ("since=20240501", False), ("since=2024-W18", False), ("since=%3Aw", False), ("since=2024-13-01", False),
    ("limit=5", True), ("limit=99999999999999999999", True), ("limit=5_0", False), ("limit=+5", False),
    ("limt=5", False),
])
def test_list_arguments_are_exactly_as_documented(client, app, path, query, ok):
    from tagcrawl.accounts.apikeys import create_key

    with app.app_context():
        key = create_key("admin", all_customers=True)[1]
    response = client.get(f"{path}?{query}", headers={"x-api-key": key})
    assert response.status_code == (200 if ok else 400), response.get_json()
    if not ok:
        assert response.get_json()["message"].startswith(query.split("=")[0] + ":")


def test_events_limit_below_one_is_documented(app):
    params = build_spec(app)["paths"]["/api/v1/events"]["get"]["parameters"]
    limit = next(p for p in params if p["name"] == "limit")
    assert limit["schema"]["minimum"] == 1


def test_events_durations_only_on_events(client, app):
    from tagcrawl.accounts.apikeys import create_key

    with app.app_context():
        key = create_key("admin", all_customers=True)[1]
    assert client.get("/api/v1/events?since=24h", headers={"x-api-key": key}).status_code == 200
    assert client.get("/api/v1/events?since=999999999w", headers={"x-api-key": key}).status_code == 200
    assert client.get("/api/v1/crawls?since=24h", headers={"x-api-key": key}).status_code == 400


def test_stream_lengths_are_documented(app):
    props = build_spec(app)["components"]["schemas"]["StreamEventRequest"]["properties"]
    assert props["e"]["minLength"] == 1 and props["vn"]["minLength"] == 1 and "maxLength" in props["e"]
    body = build_spec(app)["paths"]["/stream/api/v1"]["post"]["requestBody"]["content"]
    assert list(body) == ["application/json"]  # text/plain is read as the same JSON (description)


def test_integral_floats_are_json_integers_in_the_stream(app):
    """JSON Schema counts ``255.0`` as an integer: ``et`` and ``rl`` take it."""
    from tagcrawl.core.schemas import StreamEventRequestSchema

    loaded = StreamEventRequestSchema().load({"t": "4baf9d6d-e8db-4ea4-9800-eaaf06b0641f", "vn": "x", "e": "y",
                                              "et": 255.0, "rl": 7.0})
    assert loaded["et"] == 255 and loaded["rl"] == "7"
