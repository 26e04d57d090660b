"""Health, authentication and request validation of the crawl API (PostgreSQL)."""
from __future__ import annotations

import uuid

import pytest

pytestmark = pytest.mark.postgres

VALID = {"url": "https://shop.example/", "session_id": str(uuid.uuid4())}


def post(client, body, key):
    headers = {"x-api-key": key} if key else {}
    return client.post("/api/v1", json=body, headers=headers)


def test_health(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.get_json() == {"status": 200}


def test_readiness_looks_at_the_browser_pool_and_never_creates_one(app):
    from tagcrawl.engine.chrome.pool import existing_pool
    from tagcrawl.core.settings import SETTINGS_KEY, settings_of

    # A configuration of its own: no other test has a pool for it.
    app.extensions[SETTINGS_KEY] = settings_of(app).replace(
        CHROME_ARGS=(*settings_of(app).chrome_args, f"--tagcrawl-test-ready={uuid.uuid4()}"), POOL_SIZE=3)
    browsers = app.test_client().get("/health/ready").get_json()["browsers"]
    assert (browsers["size"], browsers["alive"], browsers["idle"]) == (3, 0, 0)
    assert existing_pool(settings_of(app)) is None


@pytest.mark.parametrize("key", [None, "", "tc_wrong_key_that_does_not_exist"])
def test_missing_or_unknown_key_gets_401(client, key, api_key):
    response = post(client, VALID, key)
    assert response.status_code == 401
    assert response.get_json()["error"] is True
    assert "API key" in response.get_json()["message"]


def test_revoked_key_gets_401(client, runner, api_key):
    result = runner.invoke(args=["keys", "revoke", "tests"])
    assert result.exit_code == 0
    assert post(client, VALID, api_key).status_code == 401


def test_keys_create_prints_key_last_and_stores_only_its_hash(app, runner):
    from tagcrawl.accounts.apikeys import hash_key
    from tagcrawl.core.extensions import db
    from tagcrawl.core.models import ApiKey

    result = runner.invoke(args=["keys", "create", "marketing-ops"])
    assert result.exit_code == 0, result.output
    key = result.output.strip().splitlines()[-1]
    assert key.startswith("tc_")
    with app.app_context():
        row = db.session.scalar(db.select(ApiKey).filter_by(name="marketing-ops"))
        assert row.key_hash == hash_key(key)
        assert key not in (row.key_hash, row.key_prefix)


def _detail(response):
    assert response.status_code == 422, response.get_data(as_text=True)
    detail = response.get_json()["detail"]
    assert all(set(d) == {"loc", "msg", "type"} for d in detail)
    return {(tuple(d["loc"]), d["type"]) for d in detail}


@pytest.mark.parametrize("body, expected", [
    ({"session_id": None}, {(("body", "url"), "missing")}),
    ({"url": "https://shop.example/"}, {(("body", "session_id"), "missing")}),
    ({"url": "https://shop.example/", "session_id": "not-a-uuid"}, {(("body", "session_id"), "uuid_parsing")}),
    ({"url": "https://shop.example/", "session_id": str(uuid.uuid1())}, {(("body", "session_id"), "uuid_version")}),
    ({"url": 42, "session_id": None}, {(("body", "url"), "string_type")}),
    ({"url": "ftp://shop.example/", "session_id": None}, {(("body", "url"), "url_parsing")}),
    ({"url": "/relative/path", "session_id": None}, {(("body", "url"), "url_parsing")}),
    ({"url": "https://shop.example/", "session_id": None, "options": {"screenShots": "maybe"}},
     {(("body", "options", "screenShots"), "bool_type")}),
    ({"url": "https://shop.example/", "session_id": None, "options": "yes"}, {(("body", "options"), "dict_type")}),
    ({"url": "https://shop.example/", "session_id": None, "options": {"country": "Germany"}},
     {(("body", "options", "country"), "country_code")}),
    ({"url": "https://shop.example/", "session_id": None, "user": [1]}, {(("body", "user"), "dict_type")}),
    ({"url": "https://shop.example/", "session_id": None, "validationRules": [{"vendor": "Meta"}]},
     {(("body", "validationRules", 0, "rule_id"), "missing"), (("body", "validationRules", 0, "key"), "missing"),
      (("body", "validationRules", 0, "value"), "missing")}),
])
def test_invalid_bodies_get_422_with_one_entry_per_problem(client, api_key, body, expected):
    assert _detail(post(client, body, api_key)) == expected


def test_several_problems_reported_together(client, api_key):
    detail = _detail(post(client, {"url": 1, "session_id": "x"}, api_key))
    assert detail == {(("body", "url"), "string_type"), (("body", "session_id"), "uuid_parsing")}


def test_body_that_is_not_json_gets_422(client, api_key):
    response = client.post("/api/v1", data="{not json", headers={"x-api-key": api_key,
                                                                  "Content-Type": "application/json"})
    assert _detail(response) == {(("body",), "json_invalid")}


def test_body_that_is_not_an_object_gets_422(client, api_key):
    assert _detail(post(client, ["https://shop.example/"], api_key)) == {(("body",), "dict_type")}


def test_oversized_crawl_body_gets_413(client, api_key):
    body = dict(VALID, user={"blob": "x" * 300_000})
    response = post(client, body, api_key)
    assert response.status_code == 413
    assert response.get_json()["error"] is True


def test_unknown_route_answers_error_message(client):
    response = client.get("/nope")
    assert response.status_code == 404
    assert response.get_json()["error"] is True
