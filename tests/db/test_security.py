"""The security properties that SECURITY.md claims, one test (or more) each.

Other modules back some points too (SECURITY.md names them): the SSRF guard
(``test_ssrf.py``, ``test_netguard.py``), the body caps (``test_api.py``,
``test_stream_ingest.py``, ``test_faults.py``) and rate limits (``test_limits.py``).
"""
from __future__ import annotations

import hashlib
import json
import logging
import threading

import pytest
import requests
from werkzeug.serving import make_server

from tagcrawl.core.extensions import db
from tagcrawl.core.settings import load_settings

from tests.support.stream_support import ORIGIN, count_rows, issued, minimal, post_event, stored

FIXTURES = (issued,)

pytestmark = pytest.mark.postgres


def _columns(row) -> list[str]:
    """Every column value of an ORM row, as text."""
    return [str(getattr(row, column.key)) for column in row.__table__.columns]


# --- 1. API keys: hashed at rest, compared in constant time ---------------------------

def test_api_key_is_stored_only_as_its_sha256(app):
    from tagcrawl.accounts.apikeys import PREFIX_LEN, create_key

    with app.app_context():
        row, key, _secret = create_key("hashed")
        values = _columns(row)
    assert hashlib.sha256(key.encode()).hexdigest() in values
    assert not any(key in value for value in values)
    assert key[:PREFIX_LEN] in values and len(key) - PREFIX_LEN >= 32  # the lookup prefix; 192 bits stay secret


def test_find_key_compares_every_candidate_with_compare_digest(app, monkeypatch):
    """Same-prefix rows are all compared (no early exit), with hmac.compare_digest."""
    from tagcrawl.accounts import apikeys
    from tagcrawl.core.models import ApiKey

    with app.app_context():
        row, key, _secret = apikeys.create_key("real")
        decoy = ApiKey(name="decoy", key_prefix=row.key_prefix, key_hash="0" * 64, webhook_secret="x")
        db.session.add(decoy)
        db.session.commit()
        calls = []
        real = apikeys.hmac.compare_digest

        def spy(a, b):
            calls.append((a, b))
            return real(a, b)

        monkeypatch.setattr(apikeys.hmac, "compare_digest", spy)
        assert apikeys.find_key(key).name == "real"
        assert sorted(a for a, _b in calls) == sorted([row.key_hash, "0" * 64])
        assert {b for _a, b in calls} == {apikeys.hash_key(key)}
        calls.clear()
        assert apikeys.find_key(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
        assert len(calls) == 2
        calls.clear()
        assert apikeys.find_key("x" * 201) is None and calls == []  # oversized: not even hashed


# --- 2. The Origin check: a browser control, not a credential ---------------------------

def test_origin_alone_is_no_credential(client):
    """A non-browser can claim any Origin: without a valid token it gets 401."""
    response = post_event(client, minimal("6f1e7a1c-5b7b-4d59-9d64-3f0f2d0c1a11"), origin=ORIGIN)
    assert response.status_code == 401


def test_the_token_is_the_credential_and_origin_confines_browsers(app, client, issued):
    # A script (no browser) that knows a token can forge the Origin: accepted.
    forged = post_event(client, minimal(issued), origin=ORIGIN, headers={"User-Agent": "curl/8.5.0"})
    assert forged.status_code == 204
    # A page on another site, in a browser (which sets Origin truthfully): refused.
    assert post_event(client, minimal(issued), origin="https://evil.example.net").status_code == 403
    assert post_event(client, minimal(issued), origin=None).status_code == 403
    assert count_rows(app) == 1


# --- 3. SSRF guard ------------------------------------------------------------------------

def test_private_targets_are_refused_by_default(_migrated, api_key):
    from tagcrawl import create_app
    from tagcrawl.core.models import Crawl

    assert load_settings({}).allow_private_targets is False
    app = create_app({"SQLALCHEMY_DATABASE_URI": _migrated, "TESTING": True})
    client = app.test_client()
    for url in ("http://127.0.0.1:5432/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/",
                "http://10.0.0.1/", "http://2130706433/", "http://metadata.google.internal/"):
        response = client.post("/api/v1", json={"url": url, "session_id": None}, headers={"x-api-key": api_key})
        assert response.status_code == 422, url
        assert response.get_json()["detail"][0]["type"] == "url_refused"
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Crawl.id))) == 0
        db.engine.dispose()


# --- 4. Body caps ----------------------------------------------------------------------------

def test_body_caps_are_settings_and_refuse_before_parsing(app, stream_app_factory, api_key, issued):
    small = stream_app_factory(CRAWL_MAX_BYTES=100, STREAM_MAX_BYTES=300)
    client = small.test_client()
    crawl = client.post("/api/v1", data=json.dumps({"url": "https://shop.example/" + "a" * 100, "session_id": None}),
                        headers={"x-api-key": api_key, "Content-Type": "application/json"})
    assert crawl.status_code == 413
    assert post_event(client, minimal(issued, p="/" + "a" * 300)).status_code == 413
    assert post_event(client, b"{" * 301).status_code == 413  # not parsed: 413, not 400
    assert count_rows(app) == 0


# --- 5. IP truncation ---------------------------------------------------------------------------

@pytest.mark.parametrize("address, prefix", [("203.0.113.77", "203.0.113.0/24"),
                                             ("2001:db8:abcd:12:34::1", "2001:db8:abcd::/48")])
def test_only_the_ip_prefix_is_stored(app, client, issued, address, prefix):
    assert post_event(client, minimal(issued), environ_base={"REMOTE_ADDR": address}).status_code == 204
    [row] = stored(app)
    values = _columns(row)
    assert row.ip_prefix == prefix
    assert not any(address in value for value in values)


# --- 6. No secrets in logs ------------------------------------------------------------------------

@pytest.fixture
def stream_app_factory(app):
    from tagcrawl import create_app

    made = []

    def make(**config):
        made.append(create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "TESTING": True,
                                **config}))
        return made[-1]

    yield make
    for other in made:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def all_logs(caplog, monkeypatch):
    """caplog at DEBUG with every logger enabled (Alembic's ``fileConfig``, run
    by the migration fixture, disables the loggers that existed before it)."""
    for logger in list(logging.root.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger) and logger.disabled:
            monkeypatch.setattr(logger, "disabled", False)
    caplog.set_level(logging.DEBUG)
    return caplog


def test_no_key_token_or_secret_in_logs(app, runner, stream_app_factory, all_logs):
    """Key creation, crawl calls (accepted, refused, rate limited) and ingestion
    (accepted, refused, rate limited), through a real HTTP server with its
    access log: no API key, webhook secret or ingestion token in any log line."""
    caplog = all_logs
    created = runner.invoke(args=["keys", "create", "logged"])
    key, secret = created.output.strip().splitlines()[-1], created.output.split("secret: ")[1].split()[0]
    issued_token = runner.invoke(args=["tokens", "issue", "--customer", "logs", "--domain", "shop.example.com"])
    token = issued_token.output.strip().splitlines()[-1]
    served = stream_app_factory(RATELIMIT_CRAWL="3/minute", RATELIMIT_STREAM="3/minute")
    server = make_server("127.0.0.1", 0, served, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with requests.Session() as http:
            for headers in ({"x-api-key": key}, {"x-api-key": key + "x"}, {"x-api-key": key}, {"x-api-key": key}):
                http.post(base + "/api/v1", json={"url": "ftp://x", "session_id": None}, headers=headers, timeout=30)
            http.get(base + "/api/v1/vendors", headers={"x-api-key": key}, timeout=30)
            for origin in (ORIGIN, "https://evil.example.net", ORIGIN, ORIGIN):
                http.post(base + "/stream/api/v1", data=json.dumps(minimal(token)), headers={"Origin": origin},
                          timeout=30)
            statuses = [r.status_code for r in (
                http.post(base + "/api/v1", json={}, headers={"x-api-key": key}, timeout=30),
                http.post(base + "/stream/api/v1", data=json.dumps(minimal(token)), headers={"Origin": ORIGIN},
                          timeout=30))]
    finally:
        server.shutdown()
    assert statuses == [429, 429]  # the rate-limit log lines were produced too
    logged = caplog.text
    assert "POST /stream/api/v1" in logged and "POST /api/v1" in logged  # the access log was captured
    for value in (key, key[16:], secret, token):
        assert value not in logged


def test_security_notes_name_only_tests_that_exist():
    """Every ``tests/<module>.py::<test>`` that SECURITY.md cites is a test of that module."""
    import ast
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    cited = re.findall(r"`tests/([\w/]+\.py)(?:::(\w+))?`", (root / "SECURITY.md").read_text())
    assert len(cited) >= 20
    for module, name in cited:
        path = root / "tests" / module
        assert path.is_file(), module
        if name:
            tree = ast.parse(path.read_text())
            names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
            assert name in names, f"{module}::{name}"
